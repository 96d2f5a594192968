package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
)

// BenchmarkSavepointPerStatement measures what a savepoint around each
// statement of a transaction costs (psql's ON_ERROR_ROLLBACK, JDBC's
// autosave): an UPDATE by key in a block, alone, between SAVEPOINT and
// RELEASE, and between SAVEPOINT and ROLLBACK TO (which undoes it).
func BenchmarkSavepointPerStatement(b *testing.B) {
	for _, mode := range []string{"plain", "release", "rollback-to"} {
		b.Run(mode, func(b *testing.B) {
			e := engine.New()
			s := e.NewSession()
			defer s.Close()
			exec := func(st *sql.Stmt) {
				if _, err := s.Exec(st); err != nil {
					b.Fatal(err)
				}
			}
			parse := func(q string) *sql.Stmt {
				st, err := sql.Parse(q)
				if err != nil {
					b.Fatal(err)
				}
				return st
			}
			exec(parse("CREATE TABLE t (id int PRIMARY KEY, v int)"))
			exec(parse("CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n, sum(v) AS total FROM t"))
			exec(parse("INSERT INTO t SELECT g, 0 FROM generate_series(0, 999) g"))
			updates := make([]*sql.Stmt, 1000)
			for i := range updates {
				updates[i] = parse(fmt.Sprintf("UPDATE t SET v = v + 1 WHERE id = %d", i))
			}
			sp, rel, back := parse("SAVEPOINT a"), parse("RELEASE a"), parse("ROLLBACK TO a")
			begin, commit := parse("BEGIN"), parse("COMMIT")
			exec(begin)
			b.ResetTimer()
			for i := range b.N {
				if i%1000 == 999 {
					exec(commit)
					exec(begin)
				}
				switch mode {
				case "plain":
					exec(updates[i%1000])
				case "release":
					exec(sp)
					exec(updates[i%1000])
					exec(rel)
				default:
					exec(sp)
					exec(updates[i%1000])
					exec(back)
				}
			}
			b.StopTimer()
			exec(commit)
		})
	}
}
