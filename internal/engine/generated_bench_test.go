package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// BenchmarkGeneratedCost measures the write paths of a table without
// generated columns ("plain": what it pays for them is a pointer
// comparison per row and a look at its columns per ReplaceRows call) and
// of one with a stored generated column ("generated": its expression
// evaluated per row): an UPDATE by key, a typed Replace and a
// ReplaceRows call of 100 rows. A materialized view reads the table.
func BenchmarkGeneratedCost(b *testing.B) {
	tables := map[string]string{
		"plain":     "CREATE TABLE t (id int PRIMARY KEY, v int, w int)",
		"generated": "CREATE TABLE t (id int PRIMARY KEY, v int, w int GENERATED ALWAYS AS (v * 2) STORED)",
	}
	for _, kind := range []string{"plain", "generated"} {
		for _, api := range []string{"update", "replace", "replacerows"} {
			b.Run(kind+"/"+api, func(b *testing.B) {
				e := engine.New()
				s := e.NewSession()
				defer s.Close()
				exec := stmtRunner(b, s)
				exec(tables[kind])
				exec("CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n, sum(w) AS total FROM t")
				exec("INSERT INTO t (id, v) SELECT g, 0 FROM generate_series(0, 999) g")
				updates := make([]*sql.Stmt, 1000)
				for i := range updates {
					var err error
					if updates[i], err = sql.Parse(fmt.Sprintf("UPDATE t SET v = v + 1 WHERE id = %d", i)); err != nil {
						b.Fatal(err)
					}
				}
				rows := make([][]value.Value, 100)
				for i := range rows {
					rows[i] = make([]value.Value, 3)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					switch api {
					case "update":
						if _, err := s.Exec(updates[i%1000]); err != nil {
							b.Fatal(err)
						}
					case "replace":
						if err := s.Replace("t", value.Row{value.NewInt(value.Int4, int64(i%1000)), value.NewInt(value.Int4, int64(i)), value.Null}); err != nil {
							b.Fatal(err)
						}
					default:
						for j := range rows {
							rows[j][0], rows[j][1], rows[j][2] = value.NewInt(value.Int4, int64((i*100+j)%1000)), value.NewInt(value.Int4, int64(i)), value.Null
						}
						if err := s.ReplaceRows("t", rows); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
