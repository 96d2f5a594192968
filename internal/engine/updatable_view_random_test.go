package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestUpdatableViewRandom runs random INSERT, UPDATE and DELETE through
// a random chain of automatically updatable views (random conditions,
// renamed and computed columns, random check options) in deltaview and
// in PostgreSQL. After each statement the outcome (the SQLSTATE of a
// failure), the rows it returned and the table must be the same; after
// each commit every materialized view over the table must hold the rows
// PostgreSQL computes from scratch.
func TestUpdatableViewRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 79)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	check := func() string {
		return []string{"", "", " WITH LOCAL CHECK OPTION", " WITH CASCADED CHECK OPTION"}[r.IntN(4)]
	}
	// v2's WHERE may hold a subquery, read by UPDATE, DELETE and the
	// check options.
	banned := []string{"", " AND id NOT IN (SELECT x FROM banned)", " AND EXISTS (SELECT 1 FROM banned WHERE x < v1.a)"}[r.IntN(3)]
	setup := []string{
		`CREATE TABLE t (id int PRIMARY KEY, a int NOT NULL CHECK (a > -50), b text DEFAULT 'd', c int DEFAULT 1)`,
		`CREATE TABLE banned (x int)`,
		`INSERT INTO banned VALUES (3), (7), (11)`,
		fmt.Sprintf(`CREATE VIEW v1 AS SELECT id, a, b, a * 2 AS a2 FROM t WHERE a %% %d <> 0%s`, 2+r.IntN(3), check()),
		fmt.Sprintf(`CREATE VIEW v2 AS SELECT b AS bb, id AS k, a FROM v1 WHERE a < %d%s%s`, 10+r.IntN(30), banned, check()),
		fmt.Sprintf(`CREATE VIEW v3 AS SELECT k, a, a + k AS s FROM v2 WHERE k > %d%s`, r.IntN(10), check()),
		`CREATE MATERIALIZED VIEW agg AS SELECT a % 4 AS g, count(*) AS n, sum(c) AS s FROM t GROUP BY a % 4`,
		`CREATE MATERIALIZED VIEW bs AS SELECT b, count(*) AS n FROM t GROUP BY b`,
	}
	for _, stmt := range setup {
		t.Log(stmt)
		if _, code := run(stmt); code != "" {
			t.Fatalf("%s: %s", stmt, code)
		}
		if _, code := runPG(strings.Replace(stmt, "MATERIALIZED ", "", 1)); code != "" {
			t.Fatalf("PostgreSQL: %s: %s", stmt, code)
		}
	}
	// Each view's name, its key column and its value column.
	targets := [][3]string{{"v1", "id", "a"}, {"v2", "k", "a"}, {"v3", "k", "a"}}
	views := []string{"agg", "bs"}
	steps := 300
	if testing.Short() {
		steps = 80
	}
	inBlock := false
	for range steps {
		tg := targets[r.IntN(len(targets))]
		v, key, val := tg[0], tg[1], tg[2]
		k := r.IntN(20)
		ret := []string{"", " RETURNING *"}[r.IntN(2)]
		var stmt string
		switch n := r.IntN(100); {
		case n < 5 && !inBlock:
			stmt = "BEGIN"
		case n < 30:
			var vals []string
			for range 1 + r.IntN(3) {
				vals = append(vals, fmt.Sprintf("(%d, %d)", r.IntN(25), r.IntN(60)-10))
			}
			stmt = fmt.Sprintf("INSERT INTO %s (%s, %s) VALUES %s%s", v, key, val, strings.Join(vals, ", "), ret)
		case n < 38:
			stmt = fmt.Sprintf("INSERT INTO %s (%s, %s) VALUES (%d, %d) ON CONFLICT (%s) DO UPDATE SET %s = %s.%s + excluded.%s%s",
				v, key, val, k, r.IntN(20), key, val, v, val, val, ret)
		case n < 42:
			stmt = fmt.Sprintf("INSERT INTO %s (%s, %s) VALUES (%d, %d) ON CONFLICT DO NOTHING%s", v, key, val, k, r.IntN(30), ret)
		case n < 60:
			stmt = fmt.Sprintf("UPDATE %s SET %s = %s + %d WHERE %s BETWEEN %d AND %d%s", v, val, val, r.IntN(15)-5, key, k, k+r.IntN(6), ret)
		case n < 66:
			stmt = fmt.Sprintf("UPDATE %s SET %s = %s + %d WHERE %s = %d%s", v, key, key, 1+r.IntN(5), key, k, ret)
		case n < 70:
			stmt = fmt.Sprintf("UPDATE %s SET %s = s.x FROM (VALUES (%d, %d), (%d, %d)) AS s (y, x) WHERE %s = s.y%s",
				v, val, k, r.IntN(40), k+1, r.IntN(40), key, ret)
		case n < 82:
			stmt = fmt.Sprintf("DELETE FROM %s WHERE %s BETWEEN %d AND %d%s", v, key, k, k+r.IntN(4), ret)
		case n < 85:
			stmt = fmt.Sprintf("DELETE FROM %s WHERE %s IN (SELECT id FROM t WHERE c > %d)%s", v, key, r.IntN(3), ret)
		case n < 88:
			stmt = fmt.Sprintf("UPDATE t SET c = c + 1, b = 'u%d' WHERE id = %d", r.IntN(3), k)
		case n < 92:
			if inBlock {
				stmt = "COMMIT"
			} else {
				stmt = "SELECT 1"
			}
		default:
			if inBlock {
				stmt = "ROLLBACK"
			} else {
				stmt = fmt.Sprintf("INSERT INTO banned VALUES (%d)", r.IntN(25))
			}
		}
		got, gotErr := run(stmt)
		want, wantErr := runPG(stmt)
		if gotErr != wantErr {
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", stmt, gotErr, wantErr)
		}
		if g, w := sorted(got), sorted(want); !slices.Equal(g, w) {
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", stmt, show(g), show(w))
		}
		switch {
		case stmt == "BEGIN":
			inBlock = true
		case stmt == "COMMIT", stmt == "ROLLBACK":
			inBlock = false
		case wantErr != "" && inBlock:
			// The block has failed: end it, as a client would.
			run("ROLLBACK")
			runPG("ROLLBACK")
			inBlock = false
		}
		for _, q := range []string{"SELECT * FROM t", "SELECT * FROM v3"} {
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
		}
	}
}
