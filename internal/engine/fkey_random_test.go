package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestForeignKeysRandom runs random changes of a parent, a child, a
// grandchild and a self-referencing table, whose constraints use every
// action, in deltaview and in PostgreSQL, and compares the SQLSTATE of
// each statement (a constraint's failure undoes it whole), every table
// and a view over all of them after each.
func TestForeignKeysRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 59)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TABLE p (id int PRIMARY KEY, u int UNIQUE, v int);
CREATE TABLE c (id int PRIMARY KEY, pid int DEFAULT 1 REFERENCES p ON DELETE CASCADE ON UPDATE CASCADE, pu int REFERENCES p (u) ON DELETE SET NULL ON UPDATE RESTRICT, pv int REFERENCES p ON DELETE SET DEFAULT ON UPDATE SET NULL, UNIQUE (id, pid));
CREATE TABLE g (id int PRIMARY KEY, cid int REFERENCES c ON DELETE NO ACTION ON UPDATE CASCADE, a int, b int, FOREIGN KEY (a, b) REFERENCES c (id, pid) MATCH FULL ON DELETE SET NULL (b) ON UPDATE CASCADE);
CREATE TABLE n (id int PRIMARY KEY, up int REFERENCES n ON DELETE CASCADE ON UPDATE SET NULL, pid int REFERENCES p ON DELETE RESTRICT);
CREATE MATERIALIZED VIEW tree AS SELECT p.id, count(c.id) AS cs, count(g.id) AS gs, sum(g.a) AS sa FROM p LEFT JOIN c ON c.pid = p.id LEFT JOIN g ON g.cid = c.id GROUP BY p.id;
INSERT INTO p VALUES (1, 1, 0), (2, 2, 0), (3, 3, 0)`
	setupBoth(t, run, runPG, setup)
	tables := []string{"p", "c", "g", "n"}
	views := []string{"tree"}
	k := func() int { return 1 + r.IntN(8) }
	nul := func() string {
		if r.IntN(5) == 0 {
			return "NULL"
		}
		return fmt.Sprint(k())
	}
	stmt := func() string {
		switch r.IntN(16) {
		case 0, 1:
			return fmt.Sprintf("INSERT INTO p VALUES (%d, %d, 0)", k(), k())
		case 2:
			return fmt.Sprintf("UPDATE p SET id = %d WHERE id = %d", k(), k())
		case 3:
			return fmt.Sprintf("UPDATE p SET u = %s WHERE id = %d", nul(), k())
		case 4:
			return fmt.Sprintf("DELETE FROM p WHERE id IN (%d, %d)", k(), k())
		case 5, 6:
			return fmt.Sprintf("INSERT INTO c VALUES (%d, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET pid = excluded.pid", k(), nul(), nul(), nul())
		case 7:
			return fmt.Sprintf("UPDATE c SET id = %d WHERE id = %d", k(), k())
		case 8:
			return fmt.Sprintf("DELETE FROM c WHERE id = %d", k())
		case 9, 10:
			return fmt.Sprintf("INSERT INTO g VALUES (%d, %s, %s, %s)", k(), nul(), nul(), nul())
		case 11:
			return fmt.Sprintf("UPDATE g SET cid = %s, a = %s WHERE id = %d", nul(), nul(), k())
		case 12:
			return fmt.Sprintf("DELETE FROM g WHERE id = %d", k())
		case 13:
			return fmt.Sprintf("INSERT INTO n VALUES (%d, %s, %s)", k(), nul(), nul())
		case 14:
			return fmt.Sprintf("UPDATE n SET id = id + %d WHERE id > %d", r.IntN(3), k())
		}
		return fmt.Sprintf("DELETE FROM n WHERE id = %d", k())
	}
	n := 400
	if testing.Short() {
		n = 100
	}
	codes := map[string]int{}
	for i := 0; i < n; i++ {
		s := stmt()
		_, code := run(s)
		_, want := runPG(s)
		if code != want {
			t.Fatalf("%s: deltaview %q, PostgreSQL %q", s, code, want)
		}
		codes[code]++
		for _, tbl := range tables {
			got, _ := run("SELECT * FROM " + tbl)
			exp, _ := runPG("SELECT * FROM " + tbl)
			if !slices.Equal(sorted(got), sorted(exp)) {
				t.Fatalf("after %s: %s holds\n%s\nPostgreSQL holds\n%s", s, tbl, show(sorted(got)), show(sorted(exp)))
			}
		}
		applyBoth(t, e, run, runPG, "SELECT 1", views)
	}
	t.Logf("statements by SQLSTATE: %v", codes)
	if codes[""] < n/5 || codes["23503"] < n/10 {
		t.Fatalf("too few statements succeed or fail on a constraint: %v", codes)
	}
}
