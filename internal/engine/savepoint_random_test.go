package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSavepointRandom runs random transactions in deltaview and in
// PostgreSQL: INSERT, UPDATE and DELETE (some of which fail on a key or a
// CHECK), statements that fail outright, SAVEPOINT, RELEASE and ROLLBACK
// TO of a few names (some of which do not exist), SET and SET LOCAL,
// COMMIT and ROLLBACK. After each statement the outcome (the SQLSTATE of
// a failure), the tables as the session sees them and a setting must be
// the same; after each commit, and after each statement outside a block,
// every view must hold the rows PostgreSQL computes, and inside a block
// the rows of the last commit.
func TestSavepointRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 43)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL CHECK (v >= 0));
CREATE TABLE u (id int PRIMARY KEY, w int);
CREATE MATERIALIZED VIEW tv AS SELECT id % 4 AS g, count(*) AS n, sum(v) AS s FROM t GROUP BY id % 4;
CREATE MATERIALIZED VIEW big AS SELECT id, v FROM t WHERE v >= 10;
CREATE MATERIALIZED VIEW tu AS SELECT t.id, t.v + u.w AS x FROM t JOIN u ON u.id = t.id`
	setupBoth(t, run, runPG, setup)
	views := []string{"tv", "big", "tu"}
	names := []string{"a", "b", "c"}
	steps := 1500
	if testing.Short() {
		steps = 300
	}
	inBlock := false
	committed := map[string][]string{}
	for _, v := range views {
		committed[v] = viewTexts(t, e, v)
	}
	for range steps {
		var stmt string
		tbl := []string{"t", "u"}[r.IntN(2)]
		col := map[string]string{"t": "v", "u": "w"}[tbl]
		k := r.IntN(20)
		switch n := r.IntN(100); {
		case n < 8 && !inBlock:
			stmt = "BEGIN"
		case n < 22:
			// A key that may be taken: 23505.
			stmt = fmt.Sprintf("INSERT INTO %s VALUES (%d, %d)", tbl, k, r.IntN(20))
		case n < 32:
			// May go below zero: 23514.
			stmt = fmt.Sprintf("UPDATE %s SET %s = %s + %d WHERE id BETWEEN %d AND %d", tbl, col, col, r.IntN(9)-5, k, k+r.IntN(5))
		case n < 38:
			stmt = fmt.Sprintf("DELETE FROM %s WHERE id BETWEEN %d AND %d", tbl, k, k+r.IntN(3))
		case n < 40:
			stmt = fmt.Sprintf("WITH d AS (DELETE FROM t WHERE id = %d RETURNING id, v) INSERT INTO u SELECT id + 20, v FROM d", k)
		case n < 42:
			stmt = "TRUNCATE u"
		case n < 46:
			stmt = []string{"SELECT 1/0", "INSERT INTO t VALUES (NULL, 1)", "SELECT * FROM nosuch"}[r.IntN(3)]
		case n < 60:
			stmt = "SAVEPOINT " + names[r.IntN(len(names))]
		case n < 74:
			stmt = "ROLLBACK TO SAVEPOINT " + names[r.IntN(len(names))]
		case n < 80:
			stmt = "RELEASE SAVEPOINT " + names[r.IntN(len(names))]
		case n < 86:
			local := []string{"", "LOCAL "}[r.IntN(2)]
			stmt = fmt.Sprintf("SET %slock_timeout = '%ds'", local, 1+r.IntN(9))
		case n < 93:
			stmt = "COMMIT"
		default:
			stmt = "ROLLBACK"
		}
		got, gotErr := run(stmt)
		want, wantErr := runPG(stmt)
		if gotErr != wantErr {
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", stmt, gotErr, wantErr)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", stmt, show(got), show(want))
		}
		switch stmt {
		case "BEGIN":
			inBlock = true
		case "COMMIT", "ROLLBACK":
			inBlock = false
		}
		// What the session sees: its tables and a setting (refused alike
		// in a failed block).
		for _, q := range []string{"SELECT * FROM t", "SELECT * FROM u", "SHOW lock_timeout"} {
			got, gotErr := run(q)
			want, wantErr := runPG(q)
			if gotErr != wantErr {
				t.Fatalf("after %s: %s: deltaview fails with %q, PostgreSQL with %q", stmt, q, gotErr, wantErr)
			}
			if g, w := sorted(got), sorted(want); !slices.Equal(g, w) {
				t.Fatalf("after %s: %s:\ndeltaview %s\nPostgreSQL %s", stmt, q, show(g), show(w))
			}
		}
		if !inBlock {
			checkViewsPG(t, e, runPG, stmt, views)
			for _, v := range views {
				committed[v] = viewTexts(t, e, v)
			}
			continue
		}
		// Inside the block the views hold the last commit.
		for _, v := range views {
			if got := viewTexts(t, e, v); !slices.Equal(got, committed[v]) {
				t.Fatalf("after %s, inside the block: view %s holds\n%s\nthe last commit left\n%s", stmt, v, show(got), show(committed[v]))
			}
		}
	}
}

// viewTexts returns a view's rows as rowTexts prints them, sorted.
func viewTexts(t *testing.T, e *engine.Engine, v string) []string {
	t.Helper()
	_, rows, err := e.ViewRows(v)
	if err != nil {
		t.Fatal(err)
	}
	return sorted(rowTexts(rows))
}

// checkViewsPG checks that each of views holds the rows PostgreSQL
// computes for it.
func checkViewsPG(t *testing.T, e *engine.Engine, runPG func(string) ([]string, string), after string, views []string) {
	t.Helper()
	for _, v := range views {
		_, rows, err := e.ViewRows(v)
		if err != nil {
			t.Fatal(err)
		}
		want, code := runPG("SELECT * FROM " + v)
		if code != "" {
			t.Fatalf("PostgreSQL: %s", code)
		}
		if got := sorted(rowTexts(rows)); !slices.Equal(got, sorted(want)) {
			t.Fatalf("after %s: view %s holds\n%s\nPostgreSQL computes\n%s", after, v, show(got), show(sorted(want)))
		}
	}
}
