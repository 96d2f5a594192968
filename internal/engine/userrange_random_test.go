package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestUserRangeRandom keeps views over a table of user range values (a
// range over float8 and one over an enum) under random inserts, updates
// and deletes, and compares every view with PostgreSQL after each
// statement: groups by a range, containment and overlap filters, the
// range operators in projections, a join on overlapping ranges, DISTINCT
// and top-k by range order.
func TestUserRangeRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 43)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TYPE fr AS RANGE (subtype = float8);
CREATE TYPE lvl AS ENUM ('a', 'b', 'c', 'd');
CREATE TYPE lvlrange AS RANGE (subtype = lvl);
CREATE TABLE sp (id int PRIMARY KEY, r fr, l lvlrange);
CREATE TABLE probes (p int PRIMARY KEY, q fr);
CREATE MATERIALIZED VIEW sp_group AS SELECT r, count(*) AS c FROM sp GROUP BY r;
CREATE MATERIALIZED VIEW sp_hit AS SELECT id, r * fr(1, 3) AS cut, lower(r) AS lo, upper_inf(r) AS open FROM sp WHERE r @> 1.5::float8 OR r && fr(2.5, 4);
CREATE MATERIALIZED VIEW sp_lvl AS SELECT l @> 'b'::lvl AS has_b, count(*) AS c FROM sp GROUP BY 1;
CREATE MATERIALIZED VIEW sp_join AS SELECT p, count(*) AS c FROM probes JOIN sp ON sp.r && probes.q GROUP BY p;
CREATE MATERIALIZED VIEW sp_distinct AS SELECT DISTINCT l FROM sp;
CREATE MATERIALIZED VIEW sp_top AS SELECT id, r FROM sp ORDER BY r DESC, id LIMIT 3;
INSERT INTO probes VALUES (1, fr(0, 1)), (2, fr(1.5, 2.5, '[]')), (3, fr(3, NULL))`
	setupBoth(t, run, runPG, setup)
	views := []string{"sp_group", "sp_hit", "sp_lvl", "sp_join", "sp_distinct", "sp_top"}
	bound := func() string {
		if r.IntN(6) == 0 {
			return "NULL"
		}
		return fmt.Sprintf("%g", float64(r.IntN(9))/2)
	}
	rangeText := func() string {
		if r.IntN(8) == 0 {
			return "'empty'"
		}
		lo, hi := bound(), bound()
		if lo != "NULL" && hi != "NULL" && lo > hi {
			lo, hi = hi, lo
		}
		return fmt.Sprintf("fr(%s, %s, '%s')", lo, hi, []string{"[)", "[]", "()", "(]"}[r.IntN(4)])
	}
	lvlText := func() string {
		ls := "abcd"
		i, j := r.IntN(4), r.IntN(4)
		if i > j {
			i, j = j, i
		}
		return fmt.Sprintf("lvlrange('%c', '%c', '[]')", ls[i], ls[j])
	}
	ids := map[int]bool{}
	for step := 0; step < 120; step++ {
		id := r.IntN(12)
		var stmt string
		switch {
		case ids[id] && r.IntN(3) == 0:
			stmt = fmt.Sprintf("DELETE FROM sp WHERE id = %d", id)
			delete(ids, id)
		case ids[id]:
			stmt = fmt.Sprintf("UPDATE sp SET r = %s, l = %s WHERE id = %d", rangeText(), lvlText(), id)
		default:
			stmt = fmt.Sprintf("INSERT INTO sp VALUES (%d, %s, %s)", id, rangeText(), lvlText())
			ids[id] = true
		}
		applyBoth(t, e, run, runPG, stmt, views)
	}
}
