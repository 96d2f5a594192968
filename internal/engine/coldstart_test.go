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
	exec, check := coldStartCheckers(t, e)
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

// TestColdStartJoinCountedIndex builds joins over a table whose index on
// the join key is loaded by counting (dataflow's loadCounted: integer keys
// of a narrow range, a few rows each, rows read by id), NULL and negative
// keys among them, and over one whose keys are too many a value for it,
// then checks the views against their queries after the build and after
// changes that move keys, delete and insert rows.
func TestColdStartJoinCountedIndex(t *testing.T) {
	e := engine.New()
	exec, check := coldStartCheckers(t, e)
	exec(`CREATE TABLE u (id int PRIMARY KEY, name text);
		INSERT INTO u SELECT i, 'n' || (i % 50) FROM generate_series(-2000, 12000) i;
		CREATE TABLE t (id int PRIMARY KEY, k int, v int);
		INSERT INTO t SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE (i * 7919) % 12000 - 1500 END, i % 7 FROM generate_series(1, 100000) i;
		CREATE TABLE w (id int PRIMARY KEY, k int, v int);
		INSERT INTO w SELECT i, i % 1500, i % 5 FROM generate_series(1, 60000) i;
		CREATE MATERIALIZED VIEW c1 AS SELECT t.id, t.v, u.name FROM t JOIN u ON t.k = u.id;
		CREATE MATERIALIZED VIEW c2 AS SELECT u.name, t.v, t.k FROM t JOIN u ON t.k = u.id WHERE t.v < 4;
		CREATE MATERIALIZED VIEW c3 AS SELECT w.id, u.name FROM w JOIN u ON w.k = u.id;`)
	check("after the build")
	exec(`UPDATE t SET k = k + 1 WHERE id % 10 = 0;
		UPDATE t SET v = v + 1 WHERE id % 3 = 0;
		DELETE FROM u WHERE id % 7 = 0;
		DELETE FROM t WHERE id % 11 = 0;
		INSERT INTO u VALUES (12001, 'new'), (12002, NULL);
		INSERT INTO t VALUES (100001, 12001, 1), (100002, -1999, 2), (100003, NULL, 3);
		UPDATE t SET k = 12001 WHERE id % 1000 = 1;
		UPDATE w SET k = -5 WHERE id % 100 = 0;`)
	check("after changes")
}

// coldStartCheckers returns a function that runs a script in a session of
// e and one that fails the test unless every view of e holds the rows its
// query recomputes.
func coldStartCheckers(t *testing.T, e *engine.Engine) (exec, check func(string)) {
	sess := e.NewSession()
	exec = func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	check = func(when string) {
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
	return exec, check
}

// TestColdStartCountsCollapsed builds groupings whose aggregates are all
// count(*), whose cold start's batches collapse to one record a group
// (op's collapseRecs): integer keys dense, negative, NULL among them (no
// collapse for their batch), of int2 and int8, sparse ones (c5, sorted as
// before), and a key through an expression; then checks them against
// their queries after the build and after changes in batches big and
// small that move rows between groups, empty groups and make new ones.
func TestColdStartCountsCollapsed(t *testing.T) {
	e := engine.New()
	exec, check := coldStartCheckers(t, e)
	exec(`CREATE TABLE t (id int8 PRIMARY KEY, grp int8, g2 int2, sp int8, v int4);
		INSERT INTO t SELECT i, i % 1000 - 300, (i % 37)::int2, i::int8 * 1000003, i % 7 FROM generate_series(1, 100000) i;
		INSERT INTO t SELECT i, NULL, NULL, NULL, 1 FROM generate_series(100001, 100050) i;
		CREATE MATERIALIZED VIEW c1 AS SELECT grp, count(*) AS n FROM t GROUP BY grp;
		CREATE MATERIALIZED VIEW c2 AS SELECT g2, count(*) AS n, count(*) AS m FROM t GROUP BY g2;
		CREATE MATERIALIZED VIEW c3 AS SELECT sp % 5000 AS s, count(*) AS n FROM t GROUP BY sp % 5000;
		CREATE MATERIALIZED VIEW c4 AS SELECT v, count(*) AS n FROM t WHERE grp > 0 GROUP BY v HAVING count(*) > 3;
		CREATE MATERIALIZED VIEW c5 AS SELECT sp, count(*) AS n FROM t GROUP BY sp;`)
	check("after the build")
	exec(`UPDATE t SET grp = grp + 1 WHERE id % 10 = 0;
		DELETE FROM t WHERE grp = 5 OR g2 = 3;
		UPDATE t SET grp = NULL, g2 = 100 WHERE id % 1001 = 0;
		INSERT INTO t VALUES (200001, 5000, 36, 1, 1), (200002, -5000, 0, 2, 2);
		UPDATE t SET v = 8 WHERE id = 7;`)
	check("after changes")
}
