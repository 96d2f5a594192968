package op

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"pgregory.net/rapid"
)

// topkRow is (p, a, b): a partition, a nullable sort key and a tiebreak.
func topkRow(p, a, b int64) value.Row {
	r := ints(p, a, b)
	if a < 0 {
		r[1] = value.Null
	}
	return r
}

// naiveTopK sorts each partition of input and takes its window.
func naiveTopK(t *TopK, input zset.ZSet) zset.ZSet {
	parts := map[string][]value.Row{}
	for _, e := range input {
		key := ""
		if len(t.part) > 0 {
			key = e.Row[0].String()
		}
		for range e.W {
			parts[key] = append(parts[key], e.Row)
		}
	}
	var out zset.ZSet
	for _, rows := range parts {
		slices.SortFunc(rows, t.Compare)
		lo, hi := min(int(t.offset), len(rows)), min(int(t.offset+t.limit), len(rows))
		for _, r := range rows[lo:hi] {
			out = append(out, zset.Entry{Row: r, W: 1})
		}
	}
	return zset.Consolidate(out)
}

// TestTopKTwin steps random batches through a TopK, partitioned or not,
// with random sort directions, limits, offsets and reserves (1 refills all
// the time), big batches of assertions and of replacements among them, and checks after every step that the delta is the change of
// the naive window, and that failed steps change nothing.
func TestTopKTwin(t *testing.T) {
	var refills int64
	rapid.Check(t, func(rt *rapid.T) { refills += topkTwin(rt) })
	if refills == 0 {
		t.Fatal("no refills")
	}
	t.Logf("%d refills", refills)
}

func topkTwin(rt *rapid.T) int64 {
	var part []expr.Expr
	if rapid.Bool().Draw(rt, "partitioned") {
		part = []expr.Expr{col{i: 0}}
	}
	order := []dataflow.SortKey{{Expr: col{i: 1}, Desc: rapid.Bool().Draw(rt, "desc"), NullsFirst: rapid.Bool().Draw(rt, "nullsfirst")}}
	if rapid.Bool().Draw(rt, "second") {
		order = append(order, dataflow.SortKey{Expr: col{i: 2}, Desc: true})
	}
	idx := dataflow.NewArrangement(dataflow.ArrangementSpec{Key: part, Sort: order})
	tk, err := NewTopK(TopKSpec{
		Partition: part, Order: order,
		Limit:   rapid.Int64Range(0, 4).Draw(rt, "limit"),
		Offset:  rapid.Int64Range(0, 2).Draw(rt, "offset"),
		Reserve: rapid.SampledFrom([]int64{1, 2, 16}).Draw(rt, "reserve"),
		Index:   idx, OwnIndex: true,
	})
	if err != nil {
		rt.Fatalf("%v", err)
	}
	c := dataflow.NewCircuit()
	node := c.Add(tk, c.Input("t"))
	var input, view zset.ZSet
	draw := func(l string) value.Row {
		return topkRow(rapid.Int64Range(0, 2).Draw(rt, l+".p"), rapid.Int64Range(-1, 6).Draw(rt, l+".a"), rapid.Int64Range(0, 2).Draw(rt, l+".b"))
	}
	steps := rapid.IntRange(1, 30).Draw(rt, "steps")
	for s := 0; s < steps; s++ {
		var batch zset.ZSet
		pick := func() (value.Row, bool) {
			if len(input) == 0 {
				return nil, false
			}
			return input[rapid.IntRange(0, len(input)-1).Draw(rt, "pick")].Row, true
		}
		switch rapid.IntRange(0, 7).Draw(rt, "kind") {
		case 0:
			for i, n := 0, rapid.IntRange(1, 6).Draw(rt, "n"); i < n; i++ {
				batch = append(batch, zset.Entry{Row: draw("ins"), W: rapid.Int64Range(1, 2).Draw(rt, "w")})
			}
		case 5: // enough rows to be sorted by prefix
			for i := range 2 * prefixSortMin {
				r := draw("ins")
				r[2] = value.NewInt(value.Int8, int64(i))
				batch = append(batch, zset.Entry{Row: r, W: 1})
			}
		case 1: // delete the window's rows
			for _, e := range view {
				if rapid.Bool().Draw(rt, "del") {
					batch = append(batch, zset.Entry{Row: e.Row, W: -e.W})
				}
			}
		case 2: // update sort keys, across the window's boundary
			for i, n := 0, rapid.IntRange(1, 3).Draw(rt, "n"); i < n; i++ {
				if r, ok := pick(); ok {
					nr := slices.Clone(r)
					nr[1] = value.NewInt(value.Int8, rapid.Int64Range(0, 6).Draw(rt, "a"))
					batch = append(batch, zset.Entry{Row: r, W: -1}, zset.Entry{Row: nr, W: 1})
				}
			}
		case 3: // empty a partition
			p := rapid.Int64Range(0, 2).Draw(rt, "p")
			for _, e := range input {
				if part == nil || e.Row[0].Int() == p {
					batch = append(batch, zset.Entry{Row: e.Row, W: -e.W})
				}
			}
		case 4: // cancel
			r := draw("c")
			batch = append(batch, zset.Entry{Row: r, W: 1}, zset.Entry{Row: r, W: -1})
		case 7: // a big batch of replacements, the window's rows among them, as a batch of updates feeds
			for _, e := range view {
				if rapid.Bool().Draw(rt, "big.del") {
					batch = append(batch, zset.Entry{Row: e.Row, W: -e.W})
				}
			}
			for i, n := 0, rapid.IntRange(32, 100).Draw(rt, "n"); i < n; i++ {
				if r, ok := pick(); ok && rapid.Bool().Draw(rt, "big.old") {
					batch = append(batch, zset.Entry{Row: r, W: -1})
				}
				r := topkRow(rapid.Int64Range(0, 2).Draw(rt, "big.p"), rapid.Int64Range(-1, 40).Draw(rt, "big.a"), rapid.Int64Range(0, 30).Draw(rt, "big.b"))
				batch = append(batch, zset.Entry{Row: r, W: 1})
			}
		case 6: // a big batch of assertions, as a cold start feeds
			for i, n := 0, rapid.IntRange(64, 200).Draw(rt, "n"); i < n; i++ {
				r := topkRow(rapid.Int64Range(0, 2).Draw(rt, "big.p"), rapid.Int64Range(-1, 40).Draw(rt, "big.a"), rapid.Int64Range(0, 30).Draw(rt, "big.b"))
				batch = append(batch, zset.Entry{Row: r, W: 1})
			}
		}
		batch = zset.Consolidate(batch)
		for _, e := range zset.Add(input, batch) {
			if e.W < 0 {
				batch = zset.Add(batch, zset.ZSet{{Row: e.Row, W: -e.W}})
			}
		}
		bad := rapid.IntRange(0, 9).Draw(rt, "bad") == 0
		if bad {
			// Retract more rows than the partition holds.
			var total int64
			for _, e := range zset.Add(input, batch) {
				if part == nil || e.Row[0].Int() == 0 {
					total += e.W
				}
			}
			batch = zset.Add(batch, zset.ZSet{{Row: topkRow(0, 3, 99), W: -total - 1}})
		}
		before := tk.String()
		err := c.Step(map[string]zset.ZSet{"t": batch})
		if bad {
			if pgerr.Code(err) != pgerr.Internal {
				rt.Fatalf("step %d: err %v", s, err)
			}
			if after := tk.String(); after != before {
				rt.Fatalf("step %d: a failed step (%v) changed the state:\n%s\nwas\n%s", s, err, after, before)
			}
			continue
		}
		if err != nil {
			rt.Fatalf("step %d: %v", s, err)
		}
		input = zset.Add(input, batch)
		delta := c.Output(node)
		if !zset.IsConsolidated(delta) {
			rt.Fatalf("step %d: delta not consolidated:\n%s", s, delta)
		}
		want := naiveTopK(tk, input)
		if got := zset.Add(view, delta); !zset.Equal(got, want) {
			rt.Fatalf("step %d: batch\n%sdelta\n%sview\n%swant\n%skept\n%s", s, batch, delta, got, want, tk)
		}
		view = want
		var n int64
		for _, e := range view {
			n += e.W
		}
		parts := int64(1)
		if part != nil {
			parts = 3
		}
		if n > tk.limit*parts {
			rt.Fatalf("window holds %d rows", n)
		}
	}
	return tk.Refills()
}

// TestTopKCancellation: changes that cancel, or that happen below the
// window, emit nothing.
func TestTopKCancellation(t *testing.T) {
	order := []dataflow.SortKey{{Expr: col{i: 1}}}
	idx := dataflow.NewArrangement(dataflow.ArrangementSpec{Sort: order})
	tk, err := NewTopK(TopKSpec{Order: order, Limit: 2, Index: idx, OwnIndex: true, Reserve: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := dataflow.NewCircuit()
	n := c.Add(tk, c.Input("t"))
	step(t, c, "t", zset.ZSet{e(ints(1, 1, 0), 1), e(ints(1, 2, 0), 1), e(ints(1, 3, 0), 1), e(ints(1, 4, 0), 1)})
	wantZ(t, "first", c.Output(n), "+1 (1, 1, 0)\n+1 (1, 2, 0)\n")
	for _, b := range []zset.ZSet{
		{e(ints(1, 0, 0), 1), e(ints(1, 0, 0), -1)},
		{e(ints(1, 4, 0), -1), e(ints(1, 9, 0), 1)}, // below the window
		{e(ints(1, 3, 0), -1)},                      // the reserve
	} {
		step(t, c, "t", zset.Consolidate(b))
		if out := c.Output(n); len(out) > 0 {
			t.Fatalf("emitted\n%s", out)
		}
	}
	// The window's row leaves: the reserve is empty, so the next row comes
	// from the index.
	before := tk.Refills()
	step(t, c, "t", zset.ZSet{e(ints(1, 1, 0), -1)})
	wantZ(t, "refill", c.Output(n), "-1 (1, 1, 0)\n+1 (1, 9, 0)\n")
	if tk.Refills() != before+1 {
		t.Fatalf("refills %d, want %d", tk.Refills(), before+1)
	}
	if info := tk.Info(); info.Kind != "TopK" || info.Detail != "order=[#1] limit=2" {
		t.Fatalf("info %+v", info)
	}
	_ = fmt.Sprint()
}
