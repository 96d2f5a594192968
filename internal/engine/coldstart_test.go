package engine_test

import (
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestColdStartJoinsInBulk builds join views over tables big enough that
// the cold start keeps its batches aside and loads them at once (a join's
// indexes, the view's Integrate, several batches of the bigger table),
// with NULL keys, rows repeated in the output, an aggregate above the join
// (whose retractions stop the Integrate's deferral) and an outer join, and
// checks every view against a recomputation after the build and after
// changes to both tables.
func TestColdStartJoinsInBulk(t *testing.T) {
	e := engine.New()
	sess := e.NewSession()
	exec := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		for _, v := range e.Views() {
			_, got, err := e.ViewRows(v)
			if err != nil {
				t.Fatal(err)
			}
			want, err := e.Recompute(v)
			if err != nil {
				t.Fatal(err)
			}
			g, w := make([]string, len(got)), make([]string, len(want))
			for i, r := range got {
				g[i] = zset.FormatRow(r)
			}
			for i, r := range want {
				w[i] = zset.FormatRow(r)
			}
			slices.Sort(g)
			slices.Sort(w)
			if !slices.Equal(g, w) {
				t.Fatalf("%s, view %s: %d rows maintained, %d recomputed, or they differ", when, v, len(g), len(w))
			}
		}
	}
	exec(`CREATE TABLE t (id int PRIMARY KEY, k int, v int);
		CREATE TABLE u (id int PRIMARY KEY, name text);
		INSERT INTO u SELECT i, 'n' || (i % 50) FROM generate_series(1, 3000) i;
		INSERT INTO t SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE i % 3500 END, i % 7 FROM generate_series(1, 150000) i;
		CREATE MATERIALIZED VIEW j1 AS SELECT t.id, t.v, u.name FROM t JOIN u ON t.k = u.id;
		CREATE MATERIALIZED VIEW j2 AS SELECT u.name, t.v FROM t JOIN u ON t.k = u.id;
		CREATE MATERIALIZED VIEW j3 AS SELECT t.v, count(*) AS n FROM t JOIN u ON t.k = u.id GROUP BY t.v;
		CREATE MATERIALIZED VIEW j4 AS SELECT u.id, t.id AS tid FROM u LEFT JOIN t ON t.k = u.id;
		CREATE MATERIALIZED VIEW j5 AS SELECT a.id, b.id AS bid FROM t a JOIN t b ON a.k = b.id WHERE b.v = 3;`)
	check("after the build")
	exec(`UPDATE t SET k = k + 1 WHERE id % 10 = 0;
		DELETE FROM u WHERE id % 7 = 0;
		INSERT INTO u VALUES (3001, 'new'), (3002, NULL);
		UPDATE t SET k = 3001 WHERE id % 1000 = 1;`)
	check("after changes")
}
