package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestEnumRandom keeps views over a table keyed by an enum under random
// inserts, updates and deletes, and labels added at random places
// (BEFORE and AFTER others, so that the new values sort between the old
// ones), and compares every view with PostgreSQL after each statement:
// groups, top-k and min/max by enum order, a join on an enum, DISTINCT
// and range filters.
func TestEnumRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 41)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TYPE lvl AS ENUM ('b', 'd', 'f');
CREATE TABLE ev (k lvl, id int, g int, PRIMARY KEY (k, id));
CREATE TABLE names (k lvl PRIMARY KEY, name text);
CREATE MATERIALIZED VIEW ev_group AS SELECT k, count(*) AS c, sum(g) AS s FROM ev GROUP BY k;
CREATE MATERIALIZED VIEW ev_top AS SELECT k, id FROM ev ORDER BY k DESC, id LIMIT 3;
CREATE MATERIALIZED VIEW ev_span AS SELECT g, min(k) AS lo, max(k) AS hi FROM ev GROUP BY g;
CREATE MATERIALIZED VIEW ev_join AS SELECT n.name, count(*) AS c FROM ev JOIN names n ON n.k = ev.k GROUP BY n.name;
CREATE MATERIALIZED VIEW ev_distinct AS SELECT DISTINCT k FROM ev WHERE k BETWEEN 'b' AND 'f';
CREATE MATERIALIZED VIEW ev_text AS SELECT k::text AS t, id FROM ev WHERE k > 'd'`
	setupBoth(t, run, runPG, setup)
	labels := []string{"b", "d", "f"}
	views := []string{"ev_group", "ev_top", "ev_span", "ev_join", "ev_distinct", "ev_text"}
	type key struct {
		k  string
		id int
	}
	var rows []key
	for step := 0; step < 150; step++ {
		var stmt string
		switch {
		case r.IntN(12) == 0 && len(labels) < 20:
			l := fmt.Sprintf("n%d", step)
			where := []string{"BEFORE", "AFTER"}[r.IntN(2)]
			stmt = fmt.Sprintf("ALTER TYPE lvl ADD VALUE '%s' %s '%s'", l, where, labels[r.IntN(len(labels))])
			labels = append(labels, l)
		case r.IntN(8) == 0:
			l := labels[r.IntN(len(labels))]
			stmt = fmt.Sprintf("INSERT INTO names VALUES ('%s', 'name %s') ON CONFLICT (k) DO UPDATE SET name = 'x' || names.name", l, l)
		case len(rows) > 0 && r.IntN(4) == 0:
			i := r.IntN(len(rows))
			stmt = fmt.Sprintf("DELETE FROM ev WHERE k = '%s' AND id = %d", rows[i].k, rows[i].id)
			rows = slices.Delete(rows, i, i+1)
		case len(rows) > 0 && r.IntN(3) == 0:
			i := r.IntN(len(rows))
			nk := key{labels[r.IntN(len(labels))], rows[i].id}
			if slices.Contains(rows, nk) {
				continue
			}
			stmt = fmt.Sprintf("UPDATE ev SET k = '%s', g = %d WHERE k = '%s' AND id = %d", nk.k, r.IntN(3), rows[i].k, rows[i].id)
			rows[i] = nk
		default:
			nk := key{labels[r.IntN(len(labels))], r.IntN(6)}
			if slices.Contains(rows, nk) {
				continue
			}
			stmt = fmt.Sprintf("INSERT INTO ev VALUES ('%s', %d, %d)", nk.k, nk.id, r.IntN(3))
			rows = append(rows, nk)
		}
		applyBoth(t, e, run, runPG, stmt, views)
	}
}
