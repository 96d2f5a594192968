package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/engine"
	"pgregory.net/rapid"
)

// reserveViews are top-k and MIN/MAX views over one table, refilling from
// its shared indexes: filters, projections that merge rows, ties, NULLs,
// offsets, partitions, groups and FILTER; some share an order.
var reserveViews = []string{
	`CREATE MATERIALIZED VIEW r1 AS SELECT id, v FROM t WHERE v % 3 <> 0 ORDER BY v DESC, id LIMIT 3`,
	`CREATE MATERIALIZED VIEW r2 AS SELECT * FROM t ORDER BY v, id LIMIT 2 OFFSET 1`,
	`CREATE MATERIALIZED VIEW r3 AS SELECT id FROM t WHERE g = 1 ORDER BY v DESC, id LIMIT 2`,
	`CREATE MATERIALIZED VIEW r4 AS SELECT v FROM t ORDER BY v NULLS FIRST LIMIT 3`,
	`CREATE MATERIALIZED VIEW r5 AS SELECT g, v * 2 AS w FROM t WHERE id > 3 ORDER BY v DESC LIMIT 3`,
	`CREATE MATERIALIZED VIEW r6 AS SELECT DISTINCT ON (g) g, id, v FROM t ORDER BY g, v DESC, id`,
	`CREATE MATERIALIZED VIEW r7 AS SELECT g, v FROM t ORDER BY g DESC, v LIMIT 4`,
	`CREATE MATERIALIZED VIEW r8 AS SELECT g, min(v) AS lo, max(v) AS hi, max(s) AS hs, count(*) AS n FROM t WHERE id <> 5 GROUP BY g`,
	`CREATE MATERIALIZED VIEW r9 AS SELECT max(v) AS hi, min(v) FILTER (WHERE g = 1) AS lo1, max(s) AS hs FROM t`,
	`CREATE MATERIALIZED VIEW r10 AS SELECT s, max(v) FROM t WHERE v <> 4 GROUP BY s`,
	`CREATE MATERIALIZED VIEW r11 AS SELECT * FROM t WHERE v > 2 ORDER BY g LIMIT 4`,
	`CREATE MATERIALIZED VIEW r12 AS SELECT g, s FROM t ORDER BY g LIMIT 5`,
}

// TestReservesRefillFromSharedIndex runs random changes under reserves of
// one row or value, so that the views refill from the table's indexes all the
// time, and checks every view against its recomputation after each
// commit.
func TestReservesRefillFromSharedIndex(t *testing.T) {
	saved, savedMM := op.DefaultTopKReserve, op.DefaultReserve
	op.DefaultTopKReserve, op.DefaultReserve = 1, 1
	defer func() { op.DefaultTopKReserve, op.DefaultReserve = saved, savedMM }()
	rapid.Check(t, func(rt *rapid.T) {
		e := engine.New()
		sess := e.NewSession()
		exec := func(s string) {
			if err := sess.ExecScript(s, func(engine.Result) error { return nil }); err != nil {
				rt.Fatalf("%s: %v", s, err)
			}
		}
		exec(`CREATE TABLE t (id int PRIMARY KEY, g int, v int, s text)`)
		val := func() string {
			if rapid.IntRange(0, 9).Draw(rt, "null") == 0 {
				return "NULL"
			}
			return fmt.Sprint(rapid.IntRange(0, 12).Draw(rt, "v"))
		}
		for id := range 15 {
			exec(fmt.Sprintf(`INSERT INTO t VALUES (%d, %d, %s, 's%d')`, id, id%3, val(), id%4))
		}
		for _, v := range reserveViews {
			exec(v)
		}
		for range rapid.IntRange(1, 25).Draw(rt, "steps") {
			var s string
			id := rapid.IntRange(0, 25).Draw(rt, "id")
			switch rapid.IntRange(0, 4).Draw(rt, "op") {
			case 0:
				s = fmt.Sprintf(`INSERT INTO t VALUES (%d, %d, %s, 's%d') ON CONFLICT (id) DO NOTHING`, id, id%3, val(), id%5)
			case 1:
				s = fmt.Sprintf(`DELETE FROM t WHERE id = %d`, id)
			case 2:
				s = fmt.Sprintf(`UPDATE t SET v = %s WHERE id %% 4 = %d`, val(), id%4)
			case 3:
				s = fmt.Sprintf(`DELETE FROM t WHERE v >= %d`, rapid.IntRange(0, 12).Draw(rt, "cut"))
			default:
				s = fmt.Sprintf(`DELETE FROM t WHERE v <= %d OR v IS NULL`, rapid.IntRange(0, 6).Draw(rt, "cut"))
			}
			exec(s)
			for i := range reserveViews {
				name := fmt.Sprintf("r%d", i+1)
				_, got, err := e.ViewRows(name)
				if err != nil {
					rt.Fatal(err)
				}
				want, err := e.Recompute(name)
				if err != nil {
					rt.Fatal(err)
				}
				if g, w := keys(got), keys(want); !slices.Equal(g, w) {
					rt.Fatalf("after %s: view %s holds %v, recomputed %v", s, name, g, w)
				}
			}
		}
		for _, v := range []string{"r3", "r8", "r9"} {
			var plan []string
			if err := sess.ExecScript(`EXPLAIN MATERIALIZED VIEW `+v, func(r engine.Result) error {
				for _, row := range r.Rows {
					plan = append(plan, row[0].String())
				}
				return nil
			}); err != nil {
				rt.Fatal(err)
			}
			if !strings.Contains(strings.Join(plan, "\n"), "refills from the shared index of t") {
				rt.Fatalf("EXPLAIN %s:\n%s", v, strings.Join(plan, "\n"))
			}
		}
	})
}

// TestReserveIndexHoldsFilteredRows checks that the index a filtered
// top-k or MIN/MAX refills from holds only the table's rows that pass the
// filter, as rows move in and out of it: a change to a row outside the
// filter leaves the index alone. Views with the same filter and order
// share one index; another filter gets its own.
func TestReserveIndexHoldsFilteredRows(t *testing.T) {
	saved := op.DefaultTopKReserve
	op.DefaultTopKReserve = 1 // refills all the time
	defer func() { op.DefaultTopKReserve = saved }()
	e := engine.New()
	sess := e.NewSession()
	exec := func(s string) {
		t.Helper()
		if err := sess.ExecScript(s, func(engine.Result) error { return nil }); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	exec(`CREATE TABLE t (id int PRIMARY KEY, g int, v int);
		INSERT INTO t SELECT i, i % 10, (i * 37) % 101 FROM generate_series(1, 1000) i;
		CREATE MATERIALIZED VIEW a AS SELECT id, v FROM t WHERE g < 3 ORDER BY v DESC, id LIMIT 5;
		CREATE MATERIALIZED VIEW b AS SELECT id FROM t WHERE g < 3 ORDER BY v DESC, id LIMIT 2`)
	rows := func() int64 { return e.Memory().Tables["t"].Rows }
	if n := rows(); n != 300 {
		t.Fatalf("the index of g < 3 holds %d rows, want 300", n)
	}
	// Rows leave the filter, enter it, and change outside it.
	exec(`UPDATE t SET g = 9 WHERE id <= 50`)          // 15 leave
	exec(`UPDATE t SET g = 0, v = 200 WHERE id > 990`) // 7 enter, 3 stay
	exec(`UPDATE t SET v = v + 1 WHERE g >= 3`)
	exec(`DELETE FROM t WHERE id % 7 = 0`)
	var want int64
	if err := sess.ExecScript(`SELECT count(*) FROM t WHERE g < 3`, func(r engine.Result) error {
		want = r.Rows[0][0].Int()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != want {
		t.Fatalf("the index holds %d rows, %d pass the filter", n, want)
	}
	for _, v := range []string{"a", "b"} {
		_, got, err := e.ViewRows(v)
		if err != nil {
			t.Fatal(err)
		}
		w, err := e.Recompute(v)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := keys(got), keys(w); !slices.Equal(g, w) {
			t.Fatalf("view %s holds %v, recomputed %v", v, g, w)
		}
	}
	exec(`CREATE MATERIALIZED VIEW c AS SELECT id FROM t WHERE g >= 8 ORDER BY v DESC, id LIMIT 2`)
	var more int64
	if err := sess.ExecScript(`SELECT count(*) FROM t WHERE g >= 8`, func(r engine.Result) error {
		more = r.Rows[0][0].Int()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != want+more {
		t.Fatalf("two indexes hold %d rows, want %d + %d", n, want, more)
	}
	// An index of every row, once built, serves later views whatever
	// their filters.
	exec(`CREATE MATERIALIZED VIEW d AS SELECT id FROM t ORDER BY v DESC, id LIMIT 2`)
	all := rows() - want - more
	exec(`CREATE MATERIALIZED VIEW f AS SELECT id FROM t WHERE g = 5 ORDER BY v DESC, id LIMIT 2`)
	if n := rows(); n != want+more+all {
		t.Fatalf("after a view of g = 5, the indexes hold %d rows, want %d", n, want+more+all)
	}
	exec(`UPDATE t SET g = 5 WHERE id % 3 = 0`)
	_, got, err := e.ViewRows("f")
	if err != nil {
		t.Fatal(err)
	}
	if w, err := e.Recompute("f"); err != nil || !slices.Equal(keys(got), keys(w)) {
		t.Fatalf("view f holds %v, recomputed %v (%v)", keys(got), keys(w), err)
	}
}
