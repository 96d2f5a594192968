package op

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// BenchmarkWindowChange measures one committed change in a partition of
// 100000 rows (id, v) ordered by id, at its head, in its middle and at
// its tail: "update" changes v of a row in place, "insert" alternately
// inserts a row there and deletes it again.
func BenchmarkWindowChange(b *testing.B) {
	const n = 100000
	id := &expr.Col{Idx: 0, T: value.Int8Type, Name: "id"}
	v := &expr.Col{Idx: 1, T: value.Int8Type, Name: "v"}
	order := []dataflow.SortKey{{Expr: id}}
	for _, c := range []struct {
		name string
		fn   plan.WinFunc
	}{
		{"row_number", plan.WinFunc{Kind: plan.WinRowNumber}},
		{"lag", plan.WinFunc{Kind: plan.WinLag, Arg: v, N: 1}},
		{"rows_3_preceding_sum", plan.WinFunc{Kind: plan.WinAgg, Agg: plan.AggSum, Arg: v, Type: value.NumericType,
			Frame: plan.Frame{Rows: true, Start: plan.OffsetPreceding, StartOff: 3, End: plan.CurrentRow}}},
		{"rows_3_preceding_max", plan.WinFunc{Kind: plan.WinAgg, Agg: plan.AggMax, Arg: v, Type: value.Int8Type,
			Frame: plan.Frame{Rows: true, Start: plan.OffsetPreceding, StartOff: 3, End: plan.CurrentRow}}},
		{"running_sum", plan.WinFunc{Kind: plan.WinAgg, Agg: plan.AggSum, Arg: v, Type: value.NumericType, Frame: plan.DefaultFrame}},
		{"running_max", plan.WinFunc{Kind: plan.WinAgg, Agg: plan.AggMax, Arg: v, Type: value.Int8Type,
			Frame: plan.Frame{Rows: true, Start: plan.UnboundedPreceding, End: plan.CurrentRow}}},
	} {
		for _, kind := range []string{"update", "insert"} {
			for _, at := range []int64{0, n / 2, n - 1} {
				b.Run(fmt.Sprintf("%s/%s/at=%d", c.name, kind, at), func(b *testing.B) {
					w := NewWindow(nil, order, c.fn)
					var z zset.ZSet
					for i := int64(0); i < n; i++ {
						z = append(z, zset.Entry{Row: ints(2*i, i%1000), W: 1})
					}
					if _, err := w.Step([]zset.ZSet{z}); err != nil {
						b.Fatal(err)
					}
					w.Commit()
					cur := at % 1000
					for i := 0; b.Loop(); i++ {
						var ch zset.ZSet
						if kind == "update" {
							next := cur + 1 - 2*int64(i%2)
							ch = zset.ZSet{{Row: ints(2*at, cur), W: -1}, {Row: ints(2*at, next), W: 1}}
							cur = next
						} else {
							ch = zset.ZSet{{Row: ints(2*at+1, 7), W: 1 - 2*int64(i%2)}}
						}
						if _, err := w.Step([]zset.ZSet{zset.Consolidate(ch)}); err != nil {
							b.Fatal(err)
						}
						w.Commit()
					}
				})
			}
		}
	}
}
