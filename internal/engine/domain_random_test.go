package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestDomainRandom runs random inserts, updates and deletes, some of them
// violating a domain's constraints, and random ALTER DOMAIN … ADD and DROP
// CONSTRAINT (checked against the rows there are) over a table whose
// columns are of domains, in deltaview and in PostgreSQL: each statement
// must succeed or fail with the same SQLSTATE in both, and the views over
// the table must hold what PostgreSQL computes after each.
func TestDomainRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 41)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setupBoth(t, run, runPG, `CREATE DOMAIN pos AS int CHECK (VALUE > 0);
CREATE DOMAIN bounded AS pos NOT NULL DEFAULT 7 CHECK (VALUE < 50);
CREATE DOMAIN label AS text CHECK (VALUE IN ('a', 'b', 'c', 'dd'));
CREATE DOMAIN wide AS int CHECK (VALUE > -100);
CREATE TABLE dr (id int PRIMARY KEY, g label, x bounded, y pos);
CREATE MATERIALIZED VIEW dr_groups AS SELECT g, sum(x) AS sx, count(y) AS cy, max(y) AS my FROM dr GROUP BY g;
CREATE MATERIALIZED VIEW dr_big AS SELECT id, x::wide + y AS xy, g || '!' AS gl FROM dr WHERE x > 10;
CREATE MATERIALIZED VIEW dr_join AS SELECT a.id, b.id AS other FROM dr a JOIN dr b ON a.x = b.y`)
	views := []string{"dr_groups", "dr_big", "dr_join"}
	opt := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	num := func(lo, hi int) string {
		if r.IntN(10) == 0 {
			return "NULL"
		}
		return fmt.Sprint(lo + r.IntN(hi-lo+1))
	}
	var ids []int
	next := 1
	fails := 0
	for step := 0; step < 150; step++ {
		var stmt string
		switch k := r.IntN(10); {
		case k == 0:
			stmt = fmt.Sprintf("ALTER DOMAIN %s ADD CONSTRAINT c%d CHECK (VALUE %s %d)%s", opt("pos", "bounded"), r.IntN(3),
				opt("<>", "<", ">"), r.IntN(40), opt("", "", " NOT VALID"))
		case k == 1:
			stmt = fmt.Sprintf("ALTER DOMAIN %s DROP CONSTRAINT IF EXISTS c%d", opt("pos", "bounded"), r.IntN(3))
		case k == 2 && len(ids) > 0:
			i := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM dr WHERE id = %d", ids[i])
			ids = slices.Delete(ids, i, i+1)
		case k < 6 && len(ids) > 0:
			stmt = fmt.Sprintf("UPDATE dr SET %s WHERE id %% %d = %d", opt("x = x + "+opt("-10", "-3", "2", "15"), "y = "+num(-1, 30), "g = "+opt("'a'", "'dd'", "'zz'", "NULL"), "id = id"),
				1+r.IntN(3), r.IntN(2))
		default:
			cols, vals := "id, g, x, y", fmt.Sprintf("%d, %s, %s, %s", next, opt("'a'", "'b'", "'c'", "'dd'", "'zz'", "NULL"), num(-2, 55), num(-1, 30))
			if r.IntN(5) == 0 {
				cols, vals = "id, g", fmt.Sprintf("%d, %s", next, opt("'a'", "'b'"))
			}
			stmt = fmt.Sprintf("INSERT INTO dr (%s) VALUES (%s)", cols, vals)
		}
		code := sameCode(t, run, runPG, stmt)
		if code != "" {
			fails++
		} else if len(stmt) > 6 && stmt[:6] == "INSERT" {
			ids = append(ids, next)
			next++
		}
		for _, v := range views {
			compareView(t, e, stmt, v, runPG)
		}
	}
	if fails == 0 || fails == 150 {
		t.Fatalf("%d of 150 statements failed: the test exercises too little", fails)
	}
}
