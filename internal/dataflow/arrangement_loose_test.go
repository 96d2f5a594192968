package dataflow

import (
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestCommitBigLooseTies checks the batches of an arrangement without sort
// expressions, whose sort leaves the entries of one key and one first
// value in the order of their weights (sortStaged): keys of hundreds of
// rows (B-tree runs) and of a few (small runs), many rows sharing a first
// value, and steps that replace rows (a retraction and an assertion of the
// same first value) as a table's change does. After every step the
// arrangement holds what the steps' sum holds, with its weights, totals and
// row bytes, each run in order.
func TestCommitBigLooseTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	spec := ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int8Type}}}
	a := NewArrangement(spec)
	a.Claim()
	if !a.looseTies() {
		t.Fatal("an arrangement without sort expressions leaves its ties loose")
	}
	held := map[string]zset.Entry{}
	var live []value.Row
	row := func(id int64) value.Row {
		k := rng.Int64N(3) // three big runs
		if rng.IntN(4) == 0 {
			k = 10 + rng.Int64N(200) // and small ones
		}
		return value.Row{value.NewInt(value.Int8, id), value.NewInt(value.Int8, k),
			value.NewText(value.Text, string(rune('a'+rng.IntN(26))))}
	}
	for step := range 40 {
		var delta zset.ZSet
		for range 70 + rng.IntN(300) {
			switch {
			case len(live) > 0 && rng.IntN(2) == 0:
				// A replacement: the same first value, another row.
				i := rng.IntN(len(live))
				old := live[i]
				nw := row(old[0].Int())
				if rng.IntN(2) == 0 {
					nw[1] = old[1] // in the same run
				}
				live[i] = nw
				delta = append(delta, zset.Entry{Row: old, W: -1}, zset.Entry{Row: nw, W: 1})
			default:
				r := row(rng.Int64N(50)) // first values shared by many rows
				live = append(live, r)
				delta = append(delta, zset.Entry{Row: r, W: 1})
			}
		}
		delta = zset.Consolidate(delta)
		if err := a.Stage(delta); err != nil {
			t.Fatal(err)
		}
		a.Commit()
		for _, e := range delta {
			f := zset.FormatRow(e.Row)
			x := held[f]
			x.Row, x.W = e.Row, x.W+e.W
			if x.W == 0 {
				delete(held, f)
			} else {
				held[f] = x
			}
		}
		var total, bytes int64
		for _, e := range held {
			total += e.W
			bytes += RowBytes(e.Row) - rowHeaderBytes // as RowBytes counts them
			if got := a.Weight(e.Row); got != e.W {
				t.Fatalf("step %d: %s has weight %d, want %d", step, zset.FormatRow(e.Row), got, e.W)
			}
		}
		if a.Len() != len(held) || a.Total() != total || a.RowBytes() != bytes {
			t.Fatalf("step %d: %d rows of total weight %d and %d bytes, want %d, %d and %d",
				step, a.Len(), a.Total(), a.RowBytes(), len(held), total, bytes)
		}
		var prev value.Row
		a.Scan(nil, false, func(r value.Row, _ int64) bool {
			if prev != nil && value.Compare(prev[1], r[1]) == 0 && a.cmp(&arrEntry{k0: mustK0(t, a, prev), r: refOf(prev)}, &arrEntry{k0: mustK0(t, a, r), r: refOf(r)}) >= 0 {
				t.Fatalf("step %d: %v before %v", step, prev, r)
			}
			prev = r
			return true
		})
	}
	var big int
	a.ints.All(func(_ int64, r *run) bool {
		if r.tr != nil {
			big++
		}
		return true
	})
	if big == 0 {
		t.Fatal("no run became a tree: the test misses its point")
	}
}
