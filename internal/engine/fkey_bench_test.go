package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// BenchmarkForeignKeyChange measures what a FOREIGN KEY constraint adds
// to a statement of one row, by the size of the tables: the child's
// UPDATE of its reference (one lookup of the parent's key) and the
// parent's DELETE with ON DELETE CASCADE (one lookup of the child's
// index, one row cascaded), against the same tables without the
// constraint. The cost must not grow with the rows.
func BenchmarkForeignKeyChange(b *testing.B) {
	for _, rows := range []int{1_000, 100_000} {
		for _, fk := range []bool{false, true} {
			ref := ""
			if fk {
				ref = " REFERENCES p ON DELETE CASCADE"
			}
			b.Run(fmt.Sprintf("rows=%d/fk=%v", rows, fk), func(b *testing.B) {
				e := engine.New()
				s := e.NewSession()
				defer s.Close()
				exec := stmtRunner(b, s)
				exec("CREATE TABLE p (id int PRIMARY KEY)")
				exec("CREATE TABLE c (id int PRIMARY KEY, pid int" + ref + ")")
				exec(fmt.Sprintf("INSERT INTO p SELECT g FROM generate_series(0, %d) g", rows+b.N))
				exec(fmt.Sprintf("INSERT INTO c SELECT g, g FROM generate_series(0, %d) g", rows+b.N))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					exec(fmt.Sprintf("UPDATE c SET pid = %d WHERE id = %d", (i*7)%rows, i))
					exec(fmt.Sprintf("DELETE FROM p WHERE id = %d", rows+i))
				}
			})
		}
	}
}
