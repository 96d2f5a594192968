package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestInheritanceRandom runs random changes through a three-level
// inheritance hierarchy with a diamond (INSERT into each table; UPDATE,
// DELETE and TRUNCATE of a parent with and without ONLY, with subqueries,
// FROM and USING that read the hierarchy; NOT NULL and CHECK constraints
// added to and dropped from a table of it; a child detached
// and attached again), in deltaview and in PostgreSQL, and compares the
// SQLSTATE of each statement, what each table reads with and without
// ONLY, and views over the root, over a middle table and over a join of
// two levels, after each.
func TestInheritanceRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 83)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TABLE r (id int, v int NOT NULL, k text, CHECK (v < 50));
CREATE TABLE a (x int) INHERITS (r);
CREATE TABLE b (k text, y int DEFAULT 3) INHERITS (r);
CREATE TABLE ab (z int) INHERITS (a, b);
CREATE TABLE c (w int) INHERITS (a);
CREATE TABLE fk (id int);
INSERT INTO fk VALUES (1), (3), (4);
CREATE MATERIALIZED VIEW per_k AS SELECT k, count(*) AS n, sum(v) AS s FROM r GROUP BY k;
CREATE MATERIALIZED VIEW big_a AS SELECT id, v, x FROM a WHERE v > 10;
CREATE MATERIALIZED VIEW only_r AS SELECT id, v FROM ONLY r;
CREATE MATERIALIZED VIEW joined AS SELECT r.id, r.v, b.y FROM r JOIN b ON b.id = r.id`
	setupBoth(t, run, runPG, setup)
	tables := []string{"r", "a", "b", "ab", "c"}
	views := []string{"per_k", "big_a", "only_r", "joined"}
	id := func() int { return 1 + r.IntN(8) }
	k := func() string { return []string{"'p'", "'q'", "NULL"}[r.IntN(3)] }
	only := func() string {
		if r.IntN(3) == 0 {
			return "ONLY "
		}
		return ""
	}
	attached := true
	stmt := func() string {
		tbl := tables[r.IntN(len(tables))]
		switch r.IntN(14) {
		case 0, 1, 2, 3:
			vals := ""
			for range map[string]int{"r": 0, "a": 1, "b": 1, "ab": 3, "c": 2}[tbl] {
				vals += fmt.Sprintf(", %d", r.IntN(9))
			}
			return fmt.Sprintf("INSERT INTO %s VALUES (%d, %d, %s%s)", tbl, id(), r.IntN(55), k(), vals)
		case 4, 5:
			return fmt.Sprintf("UPDATE %s%s SET v = v + %d, k = %s WHERE id = %d", only(), tbl, r.IntN(9)-2, k(), id())
		case 6:
			return fmt.Sprintf("UPDATE %s%s SET v = v * 2 WHERE v > %d RETURNING id, v", only(), tbl, r.IntN(30))
		case 7, 8:
			return fmt.Sprintf("DELETE FROM %s%s WHERE id = %d", only(), tbl, id())
		case 9:
			return fmt.Sprintf("DELETE FROM %s%s WHERE v < %d AND id IN (SELECT id FROM fk) RETURNING *", only(), tbl, r.IntN(20))
		case 11:
			// Reads of the hierarchy the statement changes see every
			// table as the statement found it.
			src := tables[r.IntN(len(tables))]
			if r.IntN(2) == 0 {
				return fmt.Sprintf("UPDATE %s%s t SET v = t.v + (SELECT count(*) FROM %s WHERE id = t.id) WHERE t.id IN (SELECT id FROM %s WHERE v > %d) RETURNING t.id, t.v", only(), tbl, src, src, r.IntN(30))
			}
			return fmt.Sprintf("UPDATE %s%s t SET v = t.v + 1 FROM %s s WHERE s.id = t.id + 1 AND s.v < %d", only(), tbl, src, r.IntN(40))
		case 12:
			src := tables[r.IntN(len(tables))]
			return fmt.Sprintf("DELETE FROM %s%s t USING %s s WHERE s.id = t.id - 1 AND s.v > %d RETURNING t.id", only(), tbl, src, r.IntN(40))
		case 10:
			if r.IntN(4) == 0 {
				return fmt.Sprintf("TRUNCATE %s%s", only(), tbl)
			}
			return fmt.Sprintf("UPDATE %s SET v = v - 1", tbl)
		}
		if r.IntN(3) > 0 {
			// NOT NULL and CHECK constraints of a table reach its
			// descendants.
			return fmt.Sprintf([]string{"ALTER TABLE %s ALTER COLUMN k SET NOT NULL", "ALTER TABLE %s ALTER COLUMN k DROP NOT NULL",
				"ALTER TABLE %s ADD CONSTRAINT small CHECK (v < 45)", "ALTER TABLE %s DROP CONSTRAINT small"}[r.IntN(4)], tbl)
		}
		attached = !attached
		if attached {
			return "ALTER TABLE c INHERIT a"
		}
		return "ALTER TABLE c NO INHERIT a"
	}
	n := 300
	if testing.Short() {
		n = 80
	}
	codes := map[string]int{}
	for i := 0; i < n; i++ {
		s := stmt()
		got, code := run(s)
		exp, want := runPG(s)
		if code != want {
			t.Fatalf("%s: deltaview %q, PostgreSQL %q", s, code, want)
		}
		if !slices.Equal(sorted(got), sorted(exp)) {
			t.Fatalf("%s returns\n%s\nPostgreSQL returns\n%s", s, show(sorted(got)), show(sorted(exp)))
		}
		codes[code]++
		for _, tb := range tables {
			for _, q := range []string{"SELECT * FROM " + tb, "SELECT * FROM ONLY " + tb} {
				got, _ := run(q)
				exp, _ := runPG(q)
				if !slices.Equal(sorted(got), sorted(exp)) {
					t.Fatalf("after %s: %s reads\n%s\nPostgreSQL reads\n%s", s, q, show(sorted(got)), show(sorted(exp)))
				}
			}
		}
		applyBoth(t, e, run, runPG, "SELECT 1", views)
	}
	t.Logf("statements by SQLSTATE: %v", codes)
	if codes[""] < n/2 || codes["23514"] == 0 {
		t.Fatalf("too few statements succeed or fail on the inherited CHECK: %v", codes)
	}
}
