package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// BenchmarkInheritedUpdate updates one row by key, in a transaction of
// its own, of a table of rows rows with a view grouping it: a plain
// table ("plain"), and a child of a parent with kids-1 other children of
// as many rows each ("kids=K"), the view reading the parent (a union of
// the hierarchy's tables). The work per change should not grow with the
// rows nor with the children.
func BenchmarkInheritedUpdate(b *testing.B) {
	for _, rows := range []int{1_000, 100_000} {
		for _, kids := range []int{0, 4} {
			name := fmt.Sprintf("rows=%d/plain", rows)
			if kids > 0 {
				name = fmt.Sprintf("rows=%d/kids=%d", rows, kids)
			}
			b.Run(name, func(b *testing.B) {
				var sb strings.Builder
				target := "p"
				sb.WriteString("CREATE TABLE p (id int8 PRIMARY KEY, g int, amt int);\n")
				for k := range kids {
					fmt.Fprintf(&sb, "CREATE TABLE c%d (id int8 PRIMARY KEY, extra int) INHERITS (p);\n", k)
				}
				if kids > 0 {
					target = "c0"
				}
				for k := range max(kids, 1) {
					tbl := "p"
					if kids > 0 {
						tbl = fmt.Sprintf("c%d", k)
					}
					fmt.Fprintf(&sb, "COPY %s (id, g, amt) FROM STDIN;\n", tbl)
					for i := range rows {
						fmt.Fprintf(&sb, "%d\t%d\t%d\n", i, i%100, i%7)
					}
					sb.WriteString("\\.\n")
				}
				sb.WriteString("CREATE MATERIALIZED VIEW per_g AS SELECT g, sum(amt) AS s, count(*) AS n FROM p GROUP BY g;\n")
				e := engine.New()
				execAll(b, e, sb.String())
				s := e.NewSession()
				up := prepare(b, s, "UPDATE "+target+" SET amt = amt + 1 WHERE id = $1")
				args := make([]value.Value, 1)
				b.ReportAllocs()
				x := 0
				for b.Loop() {
					args[0] = value.NewInt(value.Int8, int64(x*7919%rows))
					if _, err := s.ExecPrepared(up, args); err != nil {
						b.Fatal(err)
					}
					x++
				}
			})
		}
	}
}
