package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestWindowWork checks that a change recomputes only the rows whose
// result may change, over one partition of 10000 rows (id, v) ordered by
// id: the recomputed range and the output, for a change at the head, in
// the middle and at the tail.
func TestWindowWork(t *testing.T) {
	const n = 10000
	id := &expr.Col{Idx: 0, T: value.Int8Type, Name: "id"}
	v := &expr.Col{Idx: 1, T: value.Int8Type, Name: "v"}
	order := []dataflow.SortKey{{Expr: id}}
	rows := func(lo, hi int64) zset.ZSet {
		var z zset.ZSet
		for i := lo; i < hi; i++ {
			z = append(z, zset.Entry{Row: ints(2*i, i), W: 1})
		}
		return z
	}
	cases := []struct {
		name     string
		fn       plan.WinFunc
		change   zset.ZSet // against rows 0…n-1 at even ids
		maxRange int       // rows recomputed at most
		out      int       // output entries
	}{
		{"row_number at the tail", plan.WinFunc{Kind: plan.WinRowNumber}, zset.ZSet{{Row: ints(2*n+1, 0), W: 1}}, 3, 1},
		{"row_number at the head", plan.WinFunc{Kind: plan.WinRowNumber}, zset.ZSet{{Row: ints(-1, 0), W: 1}}, n + 1, 2*n + 1},
		{"row_number, an update in place", plan.WinFunc{Kind: plan.WinRowNumber},
			zset.ZSet{{Row: ints(2*500, 500), W: -1}, {Row: ints(2*500, 7), W: 1}}, 4, 2},
		{"rank, a row moved", plan.WinFunc{Kind: plan.WinRank},
			zset.ZSet{{Row: ints(2*500, 500), W: -1}, {Row: ints(2*520+1, 500), W: 1}}, 30, 42},
		{"lag 2 in the middle", plan.WinFunc{Kind: plan.WinLag, Arg: v, N: 2},
			zset.ZSet{{Row: ints(2*500, 500), W: -1}, {Row: ints(2*500, 9), W: 1}}, 8, 4},
		{"sliding sum in the middle", plan.WinFunc{Kind: plan.WinAgg, Agg: plan.AggSum, Arg: v, Type: value.NumericType,
			Frame: plan.Frame{Rows: true, Start: plan.OffsetPreceding, StartOff: 1, End: plan.OffsetFollowing, EndOff: 1}},
			zset.ZSet{{Row: ints(2*500, 500), W: -1}, {Row: ints(2*500, 9), W: 1}}, 8, 6},
		{"running sum at the tail", plan.WinFunc{Kind: plan.WinAgg, Agg: plan.AggSum, Arg: v, Type: value.NumericType, Frame: plan.DefaultFrame},
			zset.ZSet{{Row: ints(2*n+1, 5), W: 1}}, 3, 1},
		{"running sum at the head", plan.WinFunc{Kind: plan.WinAgg, Agg: plan.AggSum, Arg: v, Type: value.NumericType, Frame: plan.DefaultFrame},
			zset.ZSet{{Row: ints(-1, 5), W: 1}}, n + 1, 2*n + 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := NewWindow(nil, order, c.fn)
			if _, err := w.Step([]zset.ZSet{rows(0, n)}); err != nil {
				t.Fatal(err)
			}
			w.Commit()
			out, err := w.Step([]zset.ZSet{zset.Consolidate(c.change)})
			if err != nil {
				t.Fatal(err)
			}
			var pt *winPart
			for _, p := range w.staged {
				pt = p
			}
			if got := pt.to - pt.from; got > c.maxRange {
				t.Errorf("recomputed %d rows, want at most %d", got, c.maxRange)
			}
			if len(out) != c.out {
				t.Errorf("output %d entries, want %d:\n%v", len(out), c.out, out)
			}
			// Abort restores the partition; the same change again gives
			// the same output.
			w.Abort()
			if w.parts[""].t.len() != n {
				t.Fatalf("abort left %d rows, want %d", w.parts[""].t.len(), n)
			}
			again, err := w.Step([]zset.ZSet{zset.Consolidate(c.change)})
			if err != nil {
				t.Fatal(err)
			}
			if len(again) != c.out {
				t.Errorf("after abort: output %d entries, want %d", len(again), c.out)
			}
			w.Commit()
		})
	}
}
