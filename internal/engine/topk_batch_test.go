package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestTopKBatchedAsSingles checks that top-k views over a table give the
// same answers whether a stream of replacements is committed in
// transactions of up to thousands of changes or one change a transaction:
// after each batched transaction, its delta equals the sum of the deltas
// of the same changes committed one by one, and the views read the same.
// A third of the changes sink a row of the window, so that the reserves
// drain and refill from the table's index, which merges the changes it
// holds (dataflow.Arrangement.HoldCommits) before a refill reads it.
func TestTopKBatchedAsSingles(t *testing.T) {
	views := map[string]string{
		"top":      `SELECT id, val FROM t ORDER BY val DESC, id LIMIT 4`,
		"top_even": `SELECT id, grp, val FROM t WHERE grp % 2 = 0 ORDER BY val DESC, id LIMIT 3 OFFSET 1`,
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range views {
			if !yield(n) {
				return
			}
		}
	})
	type side struct {
		e      *engine.Engine
		s      *engine.Session
		deltas map[string]zset.ZSet // since the last look
	}
	const n = 3000
	open := func() *side {
		e := engine.New()
		x := &side{e: e, s: e.NewSession(), deltas: map[string]zset.ZSet{}}
		script := fmt.Sprintf(`CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
			INSERT INTO t SELECT g, g %% 7, (g * 7919) %% 100000 FROM generate_series(1, %d) g;`, n)
		for _, v := range names {
			script += fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS %s;\n", v, views[v])
		}
		if err := x.s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
		for _, v := range names {
			if _, err := e.Subscribe(v, func(_ uint64, d zset.ZSet) {
				x.deltas[v] = append(x.deltas[v], d...)
			}); err != nil {
				t.Fatal(err)
			}
		}
		return x
	}
	read := func(x *side, v string) string { return sortedResult(t, x.s, "SELECT * FROM "+v) }
	batched, single := open(), open()
	vals := make([]int64, n+1)
	for g := int64(1); g <= n; g++ {
		vals[g] = (g * 7919) % 100000
	}
	i4 := func(v int64) value.Value { return value.NewInt(value.Int4, v) }
	rng := rand.New(rand.NewPCG(5, 17))
	for txn := range 40 {
		size := 1 + rng.IntN(30)
		if txn%3 == 2 {
			size = 1000 + rng.IntN(3000)
		}
		// The rows of the window and just below it, as the transaction
		// starts.
		ids := make([]int64, n)
		for i := range ids {
			ids[i] = int64(i + 1)
		}
		slices.SortFunc(ids, func(a, b int64) int {
			if vals[a] != vals[b] {
				return int(vals[b] - vals[a])
			}
			return int(a - b)
		})
		top := ids[:40]
		if err := batched.s.Begin(); err != nil {
			t.Fatal(err)
		}
		for range size {
			id := 1 + rng.Int64N(n)
			v := rng.Int64N(100000)
			if rng.IntN(3) == 0 {
				id, v = top[rng.IntN(len(top))], rng.Int64N(1000) // sinks
			}
			row := value.Row{i4(id), i4(id % 7), i4(v)}
			if err := batched.s.Replace("t", row); err != nil {
				t.Fatal(err)
			}
			if err := single.s.Begin(); err != nil {
				t.Fatal(err)
			}
			if err := single.s.Replace("t", row); err != nil {
				t.Fatal(err)
			}
			if err := single.s.Commit(); err != nil {
				t.Fatal(err)
			}
			vals[id] = v
		}
		if err := batched.s.Commit(); err != nil {
			t.Fatal(err)
		}
		for _, v := range names {
			got := zset.Consolidate(batched.deltas[v]).String()
			want := zset.Consolidate(single.deltas[v]).String()
			if got != want {
				t.Fatalf("transaction %d (%d changes), view %s: delta\n%s\nwant the singles' sum\n%s", txn, size, v, got, want)
			}
			batched.deltas[v], single.deltas[v] = nil, nil
			if g, w := read(batched, v), read(single, v); g != w {
				t.Fatalf("transaction %d, view %s reads %s, want %s", txn, v, g, w)
			}
		}
	}
	// The reserves drained and refilled, in both engines.
	for _, x := range []*side{batched, single} {
		var refills []string
		if err := x.s.ExecScript("SELECT name, refills FROM deltaview_views ORDER BY name", func(r engine.Result) error {
			for _, row := range r.Rows {
				refills = append(refills, fmt.Sprint(row))
				if row[1].Int() == 0 {
					t.Errorf("view %s never refilled", row[0])
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		t.Logf("refills: %v", refills)
	}
	// The views against a query of the table.
	for _, v := range names {
		var want []string
		if err := single.s.ExecScript(views[v], func(r engine.Result) error {
			for _, row := range r.Rows {
				want = append(want, fmt.Sprint(row))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		slices.Sort(want)
		if g := read(batched, v); g != strings.Join(want, " ") {
			t.Fatalf("view %s reads %s, the query %s", v, g, strings.Join(want, " "))
		}
	}
}
