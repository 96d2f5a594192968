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

// TestExclusionRangeRandom runs random transactions over tables whose
// EXCLUDE constraints are `&&` alone (no `=` element, so the interval
// tree holds the whole table): a tsrange one checked at each write and an
// int4range one DEFERRABLE INITIALLY DEFERRED, with empty, unbounded and
// NULL ranges, SET CONSTRAINTS, savepoints, COMMIT and ROLLBACK, in
// deltaview and in PostgreSQL: each statement must succeed or fail with
// the same SQLSTATE, and the tables and views hold PostgreSQL's rows after
// each transaction.
func TestExclusionRangeRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 71)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setupBoth(t, run, runPG, `CREATE TABLE tr (id int PRIMARY KEY, during tsrange, EXCLUDE USING gist (during WITH &&));
CREATE TABLE ir (id int PRIMARY KEY, r int4range, CONSTRAINT ir_r EXCLUDE USING gist (r WITH &&) DEFERRABLE INITIALLY DEFERRED);
CREATE MATERIALIZED VIEW tr_all AS SELECT id, during FROM tr;
CREATE MATERIALIZED VIEW ir_all AS SELECT id, r FROM ir`)
	opt := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	bound := func() string {
		if r.IntN(8) == 0 {
			return ""
		}
		return fmt.Sprint(r.IntN(60))
	}
	irange := func() string {
		switch r.IntN(14) {
		case 0:
			return "NULL"
		case 1:
			return "'empty'"
		}
		lo, hi := bound(), bound()
		if lo != "" && hi != "" && lo > hi {
			lo, hi = hi, lo
		}
		return "'" + opt("[", "(") + lo + "," + hi + opt(")", "]") + "'"
	}
	trange := func() string {
		if r.IntN(14) == 0 {
			return opt("NULL", "'empty'")
		}
		lo := r.IntN(200)
		hi := "'2020-01-01'::timestamp + interval '" + fmt.Sprint(lo+1+r.IntN(8)) + " hours'"
		if r.IntN(10) == 0 {
			hi = "NULL"
		}
		return fmt.Sprintf("tsrange('2020-01-01'::timestamp + interval '%d hours', %s, '%s')", lo, hi, opt("[)", "[]", "()"))
	}
	next := 1
	fails := 0
	stmt := func() string {
		tbl, rng := "ir", irange
		if r.IntN(3) == 0 {
			tbl, rng = "tr", trange
		}
		col := map[string]string{"ir": "r", "tr": "during"}[tbl]
		switch k := r.IntN(10); {
		case k == 0:
			return fmt.Sprintf("DELETE FROM %s WHERE id %% 7 = %d", tbl, r.IntN(7))
		case k < 4:
			return fmt.Sprintf("UPDATE %s SET %s = %s WHERE id = %d", tbl, col, rng(), 1+r.IntN(next))
		case k == 4 && tbl == "ir":
			return "UPDATE ir SET r = r + '[0,1)'::int4range WHERE id % 3 = " + fmt.Sprint(r.IntN(3))
		}
		next++
		return fmt.Sprintf("INSERT INTO %s VALUES (%d, %s)", tbl, next, rng())
	}
	check := func(s string) {
		for _, q := range []string{"SELECT * FROM ir", "SELECT * FROM tr"} {
			got, _ := run(q)
			want, _ := runPG(q)
			if !slices.Equal(sorted(got), sorted(want)) {
				t.Fatalf("after %s: %s gives\n%s\nPostgreSQL\n%s", s, q, show(sorted(got)), show(sorted(want)))
			}
		}
		compareView(t, e, s, "ir_all", runPG)
		compareView(t, e, s, "tr_all", runPG)
	}
	const txs = 80
	for i := 0; i < txs; i++ {
		if r.IntN(4) == 0 {
			s := stmt()
			if sameCode(t, run, runPG, s) != "" {
				fails++
			}
			check(s)
			continue
		}
		sameCode(t, run, runPG, "BEGIN")
		end := opt("COMMIT", "COMMIT", "COMMIT", "ROLLBACK")
		failed := false
		for j, n := 0, 1+r.IntN(6); j < n && !failed; j++ {
			s := stmt()
			switch r.IntN(8) {
			case 0:
				s = opt("SET CONSTRAINTS ALL IMMEDIATE", "SET CONSTRAINTS ir_r IMMEDIATE", "SET CONSTRAINTS ALL DEFERRED")
			case 1:
				s = "SAVEPOINT s"
			case 2:
				s = "ROLLBACK TO SAVEPOINT s"
			}
			code := sameCode(t, run, runPG, s)
			failed = code != ""
		}
		if failed {
			fails++
			end = "ROLLBACK"
		}
		if sameCode(t, run, runPG, end) != "" {
			fails++
		}
		check(end)
	}
	if fails == 0 || fails == txs {
		t.Fatalf("%d of %d transactions failed: the test exercises too little", fails, txs)
	}
}
