package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// BenchmarkTriggerCost measures an UPDATE by key and a typed Replace of a
// table without triggers ("none"), of one whose neighbour has triggers
// ("other": the table still pays only its nil check), and of one with a
// BEFORE ROW trigger that returns NEW ("before-row": a PL/pgSQL call per
// row) and an AFTER ROW one besides ("both"). A materialized view reads
// the table.
func BenchmarkTriggerCost(b *testing.B) {
	setups := map[string][]string{
		"none":       nil,
		"other":      {"CREATE TRIGGER o BEFORE UPDATE ON u FOR EACH ROW EXECUTE FUNCTION keep()"},
		"before-row": {"CREATE TRIGGER k BEFORE UPDATE ON t FOR EACH ROW EXECUTE FUNCTION keep()"},
		"both": {"CREATE TRIGGER k BEFORE UPDATE ON t FOR EACH ROW EXECUTE FUNCTION keep()",
			"CREATE TRIGGER l AFTER UPDATE ON t FOR EACH ROW EXECUTE FUNCTION keep()"},
	}
	for _, mode := range []string{"none", "other", "before-row", "both"} {
		for _, api := range []string{"update", "replace"} {
			b.Run(mode+"/"+api, func(b *testing.B) {
				e := engine.New()
				s := e.NewSession()
				defer s.Close()
				exec := stmtRunner(b, s)
				exec("CREATE TABLE t (id int PRIMARY KEY, v int)")
				exec("CREATE TABLE u (id int PRIMARY KEY, v int)")
				exec("CREATE FUNCTION keep() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$")
				exec("CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n, sum(v) AS total FROM t")
				exec("INSERT INTO t SELECT g, 0 FROM generate_series(0, 999) g")
				for _, q := range setups[mode] {
					exec(q)
				}
				updates := make([]*sql.Stmt, 1000)
				for i := range updates {
					var err error
					if updates[i], err = sql.Parse(fmt.Sprintf("UPDATE t SET v = v + 1 WHERE id = %d", i)); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					if api == "update" {
						if _, err := s.Exec(updates[i%1000]); err != nil {
							b.Fatal(err)
						}
						continue
					}
					if err := s.Replace("t", value.Row{value.NewInt(value.Int4, int64(i%1000)), value.NewInt(value.Int4, int64(i))}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// stmtRunner returns a function that parses one statement and runs it in
// s, failing tb when either fails.
func stmtRunner(tb testing.TB, s *engine.Session) func(q string) {
	return func(q string) {
		st, err := sql.Parse(q)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := s.Exec(st); err != nil {
			tb.Fatal(err)
		}
	}
}
