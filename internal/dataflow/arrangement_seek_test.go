package dataflow

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestScanFrom checks ScanFrom against Scan with the rows before the bound
// skipped, over small runs and B+trees, ascending and descending, with
// NULLs and values absent from the arrangement as bounds.
func TestScanFrom(t *testing.T) {
	for _, n := range []int{0, 5, 31, 200, 5000} {
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d/%v", n, desc), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(n), 3))
				sk := SortKey{Expr: &expr.Col{Idx: 1, T: value.Int8Type}, Desc: desc, NullsFirst: desc}
				a := NewArrangement(ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}, Sort: []SortKey{sk}})
				var rows zset.ZSet
				for i := range n {
					v := value.NewInt(value.Int8, rng.Int64N(60))
					if rng.IntN(10) == 0 {
						v = value.Null
					}
					rows = append(rows, zset.Entry{Row: value.Row{value.NewInt(value.Int8, int64(i%2)), v, value.NewInt(value.Int8, int64(i))}, W: 1})
				}
				a.Claim()
				if err := a.Stage(rows); err != nil {
					t.Fatal(err)
				}
				a.Commit()
				key := value.Row{value.NewInt(value.Int8, 1)}
				var all []value.Row
				a.Scan(key, false, func(r value.Row, _ int64) bool { all = append(all, r); return true })
				for b := int64(-1); b <= 61; b++ {
					from := value.NewInt(value.Int8, b)
					if b == 61 {
						from = value.Null
					}
					var want, got []value.Row
					for _, r := range all {
						if compareSort(&sk, r[1], from) >= 0 {
							want = append(want, r)
						}
					}
					a.ScanFrom(key, []value.Value{from}, func(r value.Row, _ int64) bool { got = append(got, r); return true })
					if !slices.EqualFunc(got, want, func(x, y value.Row) bool { return value.CompareRows(x, y) == 0 }) {
						t.Fatalf("from %v: got %d rows, want %d", from, len(got), len(want))
					}
				}
			})
		}
	}
}
