package op

import (
	"testing"
	"unsafe"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestMapPrefixCutsInputRows checks that a projection of the input's
// leading columns cuts its rows from the input rows (no row allocated),
// ending each at its capacity so that appending to it copies, with the
// input's rows and weights; and that a projection of other columns still
// copies.
func TestMapPrefixCutsInputRows(t *testing.T) {
	c := func(i int) expr.Expr { return &expr.Col{Idx: i, T: value.Int8Type} }
	in := zset.ZSet{}
	for i := range 50 {
		in = append(in, zset.Entry{Row: value.Row{value.NewInt(value.Int8, int64(i)), value.NewInt(value.Int8, int64(i%7)),
			value.NewInt(value.Int8, int64(i%3)), value.NewText(value.Text, "pad")}, W: int64(1 + i%2)})
	}
	prefix := NewMap([]expr.Expr{c(0), c(1), c(2)})
	out, err := prefix.Step([]zset.ZSet{in})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("got %d rows, want %d", len(out), len(in))
	}
	for i, e := range out {
		src := in[i]
		if e.W != src.W || len(e.Row) != 3 || cap(e.Row) != 3 || zset.CompareRows(e.Row, src.Row[:3]) != 0 {
			t.Fatalf("row %d: got %v (cap %d) weight %d, want %v weight %d", i, e.Row, cap(e.Row), e.W, src.Row[:3], src.W)
		}
		if unsafe.SliceData(e.Row) != unsafe.SliceData(src.Row) {
			t.Fatalf("row %d: a projection of the leading columns copied its row", i)
		}
	}
	if n := testing.AllocsPerRun(20, func() { prefix.Step([]zset.ZSet{in}) }); n > 0 {
		t.Errorf("a projection of the leading columns allocates %v times a step", n)
	}
	for _, exprs := range [][]expr.Expr{{c(1), c(2)}, {c(0), c(2)}} {
		m := NewMap(exprs)
		out, err := m.Step([]zset.ZSet{in})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range out {
			for _, src := range in {
				if unsafe.SliceData(e.Row) == unsafe.SliceData(src.Row) {
					t.Fatalf("%v: a projection of other columns shares its input row", exprs)
				}
			}
		}
	}
}
