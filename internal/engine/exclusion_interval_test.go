package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestIvlTree checks the interval tree against a list scanned with
// RangeOverlaps, under random inserts and removes of int4 ranges with
// inclusive, exclusive and unbounded bounds.
func TestIvlTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	bound := func(lower bool) value.RangeBound {
		if r.IntN(10) == 0 {
			return value.RangeBound{Inf: true}
		}
		return value.RangeBound{Val: value.NewInt(value.Int4, int64(r.IntN(60))), Inc: r.IntN(2) == 0}
	}
	rng := func() value.Value {
		for {
			v, err := value.MakeRange(value.Int4Range, bound(true), bound(false), false)
			if err == nil {
				return v
			}
		}
	}
	tr := newIvlTree()
	live := map[uint64]value.Value{}
	for step := 0; step < 20000; step++ {
		id := uint64(r.IntN(300))
		if v, ok := live[id]; ok && r.IntN(2) == 0 {
			if lo, _, ok := span(v); ok {
				tr.remove(lo, id)
			}
			delete(live, id)
		} else if !ok {
			v := rng()
			if lo, hi, ok := span(v); ok {
				tr.insert(lo, hi, id)
			}
			live[id] = v
		}
		q := rng()
		var got []uint64
		if lo, hi, ok := span(q); ok {
			got = tr.appendOverlapping(nil, lo, hi)
		}
		var want []uint64
		for id, v := range live {
			if value.RangeOverlaps(v, q) {
				want = append(want, id)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: overlapping %s: got %v, want %v", step, value.AppendText(nil, q), got, want)
		}
	}
}
