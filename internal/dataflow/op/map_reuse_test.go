package op

import (
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestMapReuseRows checks that a map reusing its rows (Map.ReuseRows)
// gives the rows, weights and order of one allocating each, over random
// steps of projections of columns and of evaluated expressions, big
// (past the buffer it keeps) and small, with NULLs and rows that cancel
// once projected; that a reused row ends with its capacity, so that
// appending to it cannot write into the next row; and that the values
// past a step's rows are cleared, holding nothing alive.
func TestMapReuseRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 4))
	for _, exprs := range [][]expr.Expr{
		{&expr.Col{Idx: 0, T: value.Int8Type}, &expr.Col{Idx: 2, T: value.Int8Type}},
		{&expr.Col{Idx: 1, T: value.Int8Type}},
		{col{i: 2}, &expr.Col{Idx: 0, T: value.Int8Type}, col{i: 1}},
		{},
	} {
		plain, reused := NewMap(exprs), NewMap(exprs)
		reused.ReuseRows()
		for step := range 300 {
			n := 1 + rng.IntN(4)
			switch {
			case step%50 == 0:
				n = maxReusedValues/max(1, len(exprs)) + rng.IntN(500)
			case step%10 == 0:
				n = 500 + rng.IntN(1500)
			}
			var in zset.ZSet
			for range n {
				r := value.Row{value.NewInt(value.Int8, rng.Int64N(50)), value.NewInt(value.Int8, rng.Int64N(3)),
					value.NewInt(value.Int8, rng.Int64N(20))}
				if rng.IntN(7) == 0 {
					r[rng.IntN(3)] = value.Null
				}
				w := int64(1)
				if rng.IntN(2) == 0 {
					w = -1
				}
				in = append(in, zset.Entry{Row: r, W: w})
			}
			in = zset.Consolidate(in)
			a, err := plain.Step([]zset.ZSet{in})
			if err != nil {
				t.Fatal(err)
			}
			b, err := reused.Step([]zset.ZSet{in})
			if err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Fatalf("step %d: reused rows %s, allocated %s", step, b, a)
			}
			for _, e := range b {
				if cap(e.Row) != len(e.Row) {
					t.Fatalf("step %d: a reused row of %d values has capacity %d", step, len(e.Row), cap(e.Row))
				}
			}
			for i, v := range reused.vals[reused.used:] {
				if v != (value.Value{}) {
					t.Fatalf("step %d: value %d past the step's rows is %v", step, reused.used+i, v)
				}
			}
			plain.Commit()
			reused.Commit()
		}
	}
}
