package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// twinSide is one of two engines that a test feeds the same transactions,
// one with a way of maintaining views turned off, and the deltas each of
// their subscribers received, one string per row.
type twinSide struct {
	e      *Engine
	s      *Session
	deltas map[string][]string
}

// twinView is a materialized view both engines keep.
type twinView struct{ name, q string }

// openTwinSide makes a twin engine (openTwinEngine) with tables t (id,
// k, v, s) of nt rows and u (id, name) of nu rows, s of t given by sExpr
// over the series g, and the views. t's rows with v = 777 are left out: a
// view dividing by v - 777 fails on the rows a transaction makes so.
func openTwinSide(t *testing.T, workers, nt, nu int, sExpr string, views []twinView) *twinSide {
	t.Helper()
	return openTwinEngine(t, workers, fmt.Sprintf(`CREATE TABLE t (id int PRIMARY KEY, k int, v int NOT NULL, s text);
			CREATE TABLE u (id int PRIMARY KEY, name text);
			INSERT INTO u SELECT g, 'n' || g FROM generate_series(1, %d) g;
			INSERT INTO t SELECT g, CASE WHEN g %% 101 = 0 THEN NULL ELSE 1 + g %% %d END, (g * 7919) %% 1000, %s
				FROM generate_series(1, %d) g WHERE (g * 7919) %% 1000 <> 777;`, nu, nu+20, sExpr, nt), views)
}

// openTwinEngine makes an engine with workers (a parallel wave from the
// first row when there are several) whose commits go in chunks of 64
// keys, runs script in it, and creates the views, with a subscriber to
// each.
func openTwinEngine(t *testing.T, workers int, script string, views []twinView) *twinSide {
	t.Helper()
	e := New()
	e.SetWorkers(workers)
	if workers > 1 {
		e.parallelMin = 0
	}
	e.chunkRows = 64
	x := &twinSide{e: e, s: e.NewSession(), deltas: map[string][]string{}}
	for _, v := range views {
		script += fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS %s;\n", v.name, v.q)
	}
	if err := x.s.ExecScript(script, func(Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for _, v := range views {
		if _, err := e.Subscribe(v.name, func(ts uint64, d zset.ZSet) {
			for _, en := range d {
				x.deltas[v.name] = append(x.deltas[v.name], fmt.Sprintf("%d %s %d", ts, en.Row, en.W))
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	return x
}

// query returns the rows of q, sorted.
func (x *twinSide) query(q string) ([]string, error) {
	var out []string
	err := x.s.ExecScript(q, func(r Result) error {
		for _, row := range r.Rows {
			out = append(out, failingRow(row))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// twinReplacements draws 200 to 1699 typed replacements of rows of t
// with ids up to nt that x holds, each keeping its id; key gives the join
// key of a row's replacement (NULL for ids that are multiples of 101),
// and one in 300 sets v to 777, which fails the view "failing" in some
// chunk.
func twinReplacements(t *testing.T, x *twinSide, rng *rand.Rand, nt int, key func(id int64) int64) [][]value.Value {
	t.Helper()
	present, err := x.query(fmt.Sprintf("SELECT id FROM t WHERE id <= %d ORDER BY id", nt))
	if err != nil {
		t.Fatal(err)
	}
	var typed [][]value.Value
	for range 200 + rng.IntN(1500) {
		var id int64
		if _, err := fmt.Sscan(strings.Trim(present[rng.IntN(len(present))], "()"), &id); err != nil {
			t.Fatal(err)
		}
		v := int64(rng.IntN(1000))
		if rng.IntN(300) == 0 {
			v = 777
		}
		k := value.NewInt(value.Int4, key(id))
		if id%101 == 0 {
			k = value.Null
		}
		typed = append(typed, []value.Value{value.NewInt(value.Int4, id), k, value.NewInt(value.Int4, v), value.NewText(value.Text, "s")})
	}
	return typed
}

// applyTwins runs the transaction script (then the typed replacements of
// t, if any) in a and b and commits it, or rolls it back when it fails;
// it fails the test unless both fail with the same SQLSTATE or both
// commit, each view's subscribers received the same deltas, each view
// holds the same rows in both, and a's views equal their queries run
// afresh (but "failing", when its query fails). It returns the
// transaction's SQLSTATE, empty when it committed.
func applyTwins(t *testing.T, txn int, a, b *twinSide, script string, typed [][]value.Value, views []twinView) (code string) {
	t.Helper()
	var errs [2]string
	for i, x := range []*twinSide{a, b} {
		err := x.s.ExecScript(script, func(Result) error { return nil })
		if err == nil && typed != nil {
			err = x.s.ReplaceRows("t", typed)
		}
		if err == nil {
			err = x.s.Commit()
		} else {
			x.s.Rollback()
		}
		if err != nil {
			errs[i] = pgerr.Code(err)
		}
	}
	if errs[0] != errs[1] {
		t.Fatalf("txn %d: errors %q and %q", txn, errs[0], errs[1])
	}
	for _, v := range views {
		if !slices.Equal(a.deltas[v.name], b.deltas[v.name]) {
			t.Fatalf("txn %d: %s: deltas differ:\n%s\nagainst\n%s", txn, v.name,
				strings.Join(a.deltas[v.name], "\n"), strings.Join(b.deltas[v.name], "\n"))
		}
		got, err := a.query("SELECT * FROM " + v.name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := b.query("SELECT * FROM " + v.name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("txn %d: %s holds %d rows, its twin %d", txn, v.name, len(got), len(want))
		}
		fresh, err := a.query(v.q)
		if err != nil {
			if v.name == "failing" {
				continue // the table holds a row the view's query fails on
			}
			t.Fatal(err)
		}
		if !slices.Equal(got, fresh) {
			t.Fatalf("txn %d: %s holds %d rows, its query gives %d", txn, v.name, len(got), len(fresh))
		}
	}
	return errs[0]
}
