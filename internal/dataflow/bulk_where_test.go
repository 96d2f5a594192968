package dataflow

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestLoadRowsWhere loads arrangements, plain and bounded, from a table's
// slice of rows (holes, equal rows, NULLs) through LoadRowsWhere, on one
// goroutine and split in two, and checks that each holds what LoadRows of
// the rows keep accepts holds (its rows, its state, a bounded one's reads
// past its region), that keep saw every row once, each part's rows in
// order, and that a split load of many rows used both parts.
func TestLoadRowsWhere(t *testing.T) {
	old := SetBoundMin(16)
	defer SetBoundMin(old)
	spec := ArrangementSpec{Sort: []SortKey{
		{Expr: &expr.Col{Idx: 1, T: value.Int8Type}, Desc: true, NullsFirst: true},
		{Expr: &expr.Col{Idx: 0, T: value.Int8Type}},
	}}
	rng := rand.New(rand.NewPCG(5, 9))
	for _, n := range []int{10, 500, 40_000} {
		rows := make([]value.Row, n)
		for i := 1; i < n; i++ {
			switch {
			case rng.IntN(9) == 0: // a hole
			case rng.IntN(50) == 0:
				rows[i] = value.Row{value.NewInt(value.Int8, int64(i%7)), value.Null}
			default:
				rows[i] = value.Row{value.NewInt(value.Int8, int64(i%(n/3+1))), value.NewInt(value.Int8, int64(rng.IntN(1000)))}
			}
		}
		pass := func(r value.Row) bool { return r[1].IsNull() || r[1].Int()%3 != 0 }
		var kept []value.Row
		for _, r := range rows {
			if r != nil && pass(r) {
				kept = append(kept, r)
			}
		}
		for _, bounded := range []bool{false, true} {
			for _, split := range []bool{false, true} {
				want, got := NewArrangement(spec), NewArrangement(spec)
				if bounded {
					src := func() ([]value.Row, zset.ZSet, error) { return kept, nil, nil }
					want.Bound(src)
					got.Bound(src)
				}
				if err := want.LoadRows(kept); err != nil {
					t.Fatal(err)
				}
				var mu sync.Mutex
				seen := [2][]int{}
				index := map[*value.Value]int{}
				for i, r := range rows {
					if r != nil {
						index[&r[0]] = i
					}
				}
				err := got.LoadRowsWhere(rows, func(part int, r value.Row) bool {
					mu.Lock()
					seen[part] = append(seen[part], index[&r[0]])
					mu.Unlock()
					return pass(r)
				}, split)
				if err != nil {
					t.Fatal(err)
				}
				what := fmt.Sprintf("%d rows, bounded %v, split %v", n, bounded, split)
				all := append(slices.Clone(seen[0]), seen[1]...)
				if !slices.IsSorted(seen[0]) || !slices.IsSorted(seen[1]) || len(all) != len(index) {
					t.Errorf("%s: keep saw %d and %d rows, in order %v %v; want %d in all", what,
						len(seen[0]), len(seen[1]), slices.IsSorted(seen[0]), slices.IsSorted(seen[1]), len(index))
				}
				if split && n >= bulkSplit && len(seen[1]) == 0 {
					t.Errorf("%s: keep never called for the second half", what)
				}
				if !split && len(seen[1]) != 0 {
					t.Errorf("%s: keep called for a second part", what)
				}
				if g, w := got.State(), want.State(); g != w {
					t.Errorf("%s: state %+v, want %+v", what, g, w)
				}
				if g, w := got.String(), want.String(); g != w {
					t.Errorf("%s: holds\n%s\nwant\n%s", what, g, w)
				}
			}
		}
	}
}
