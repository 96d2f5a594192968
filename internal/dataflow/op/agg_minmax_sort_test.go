package op

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestSortChangesAsCompare checks that MIN's and MAX's sort of a group's
// changes orders their values as value.Compare does, over changes of one
// integer kind (the Int() path), of dates, and of mixed kinds (the
// comparison path), and that sameGroupKey agrees with CompareRows.
func TestSortChangesAsCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	gen := map[string]func() value.Value{
		"int8": func() value.Value { return value.NewInt(value.Int8, rng.Int64N(41)-20) },
		"int4": func() value.Value { return value.NewInt(value.Int4, int64(rng.Int32())) },
		"date": func() value.Value { return value.NewDate(rng.Int64N(9) - 4) },
		"edges": func() value.Value {
			return value.NewInt(value.Int8, []int64{math.MinInt64, -1, 0, 1, math.MaxInt64}[rng.IntN(5)])
		},
		"mixed": func() value.Value {
			if rng.IntN(2) == 0 {
				return value.NewInt(value.Int4, rng.Int64N(5))
			}
			return value.NewFloat(value.Float8, float64(rng.Int64N(5)))
		},
	}
	for name, g := range gen {
		for _, max := range []bool{false, true} {
			a := &minMaxAcc{max: max}
			for range 200 {
				ch := make([]aggChange, 1+rng.IntN(40))
				for i := range ch {
					ch[i] = aggChange{vals: []value.Value{g()}, w: 1}
				}
				a.sortChanges(ch)
				for i := 1; i < len(ch); i++ {
					if a.cmp(ch[i-1].vals[0], ch[i].vals[0]) > 0 {
						t.Fatalf("%s, max %v: %s before %s", name, max, ch[i-1].vals[0], ch[i].vals[0])
					}
				}
				for i := 1; i < len(ch); i++ {
					x, y := value.Row{ch[i-1].vals[0]}, value.Row{ch[i].vals[0]}
					if got, want := sameGroupKey(x, y), value.CompareRows(x, y) == 0; got != want {
						t.Fatalf("%s: sameGroupKey(%s, %s) = %v, want %v", name, x, y, got, want)
					}
				}
				if !slices.IsSortedFunc(ch, func(x, y aggChange) int { return a.cmp(x.vals[0], y.vals[0]) }) {
					t.Fatalf("%s, max %v: not sorted", name, max)
				}
			}
		}
	}
}
