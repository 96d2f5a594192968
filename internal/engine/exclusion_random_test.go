package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestExclusionRandom runs random inserts (some ON CONFLICT DO NOTHING),
// updates, deletes and ALTER TABLE … ADD and DROP CONSTRAINT of EXCLUDE
// constraints (the booking example, a range alone, a WHERE predicate)
// in deltaview and in PostgreSQL: each statement must succeed or fail
// with the same SQLSTATE in both, and the table and a view over it must
// hold PostgreSQL's rows after each.
func TestExclusionRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 67)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setupBoth(t, run, runPG, `CREATE EXTENSION btree_gist;
CREATE TABLE bk (id int PRIMARY KEY, room int, during int4range, kind text,
  EXCLUDE USING gist (room WITH =, during WITH &&));
CREATE MATERIALIZED VIEW bk_rooms AS SELECT room, count(*) AS n FROM bk GROUP BY room;
CREATE MATERIALIZED VIEW bk_all AS SELECT id, room, during, kind FROM bk`)
	views := []string{"bk_rooms", "bk_all"}
	opt := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	rng := func() string {
		if r.IntN(12) == 0 {
			return opt("NULL", "'empty'")
		}
		lo := r.IntN(40)
		return fmt.Sprintf("'[%d,%d)'", lo, lo+1+r.IntN(6))
	}
	room := func() string {
		if r.IntN(10) == 0 {
			return "NULL"
		}
		return fmt.Sprint(r.IntN(4))
	}
	var ids []int
	next := 1
	fails := 0
	const steps = 200
	for step := 0; step < steps; step++ {
		var stmt string
		switch k := r.IntN(14); {
		case k == 0:
			stmt = opt("ALTER TABLE bk ADD CONSTRAINT x_kind EXCLUDE USING gist (kind WITH =, during WITH &&) WHERE (kind <> 'shared')",
				"ALTER TABLE bk ADD CONSTRAINT x_id EXCLUDE (id WITH =, room WITH =)",
				"ALTER TABLE bk ADD CONSTRAINT x_ne EXCLUDE USING gist (room WITH <>, during WITH =)")
		case k == 1:
			stmt = "ALTER TABLE bk DROP CONSTRAINT IF EXISTS " + opt("x_kind", "x_id", "x_ne")
		case k == 2 && len(ids) > 0:
			i := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM bk WHERE id = %d", ids[i])
			ids = slices.Delete(ids, i, i+1)
		case k < 6 && len(ids) > 0:
			stmt = fmt.Sprintf("UPDATE bk SET %s WHERE id = %d", opt("during = "+rng(), "room = "+room(), "during = during + '[0,1)'::int4range",
				"kind = "+opt("'a'", "'b'", "'shared'")), ids[r.IntN(len(ids))])
		case k == 6 && len(ids) > 0:
			stmt = fmt.Sprintf("UPDATE bk SET room = %s WHERE room = %s", room(), room())
		default:
			stmt = fmt.Sprintf("INSERT INTO bk VALUES (%d, %s, %s, %s)%s", next, room(), rng(), opt("'a'", "'b'", "'shared'", "NULL"),
				opt("", "", " ON CONFLICT DO NOTHING", " ON CONFLICT ON CONSTRAINT bk_room_during_excl DO NOTHING"))
		}
		code := sameCode(t, run, runPG, stmt)
		if code != "" {
			fails++
		} else if stmt[:6] == "INSERT" {
			ids = append(ids, next)
		}
		if stmt[:6] == "INSERT" {
			next++
		}
		for _, v := range views {
			compareView(t, e, stmt, v, runPG)
		}
	}
	if fails == 0 || fails == steps {
		t.Fatalf("%d of %d statements failed: the test exercises too little", fails, steps)
	}
}
