package op

import (
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestMapCutRows checks that a map cutting its rows from slabs
// (Map.CutRows) gives the rows, weights and order of one allocating each,
// over random steps of projections of columns and of evaluated
// expressions, big and small, with rows that cancel once projected; and
// that a row cut from a slab ends with its capacity, so that appending to
// it cannot write into the next row.
func TestMapCutRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 4))
	for _, exprs := range [][]expr.Expr{
		{&expr.Col{Idx: 0, T: value.Int8Type}, &expr.Col{Idx: 2, T: value.Int8Type}},
		{&expr.Col{Idx: 1, T: value.Int8Type}},
		{col{i: 2}, &expr.Col{Idx: 0, T: value.Int8Type}, col{i: 1}},
	} {
		plain, cut := NewMap(exprs), NewMap(exprs)
		cut.CutRows()
		for step := range 300 {
			n := 1 + rng.IntN(4)
			if step%10 == 0 {
				n = 500 + rng.IntN(1500)
			}
			var in zset.ZSet
			for range n {
				r := value.Row{value.NewInt(value.Int8, rng.Int64N(50)), value.NewInt(value.Int8, rng.Int64N(3)),
					value.NewInt(value.Int8, rng.Int64N(20))}
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
			b, err := cut.Step([]zset.ZSet{in})
			if err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Fatalf("step %d: cut rows %s, allocated %s", step, b, a)
			}
			for _, e := range b {
				if cap(e.Row) != len(e.Row) {
					t.Fatalf("step %d: a cut row of %d values has capacity %d", step, len(e.Row), cap(e.Row))
				}
			}
			plain.Commit()
			cut.Commit()
		}
	}
}
