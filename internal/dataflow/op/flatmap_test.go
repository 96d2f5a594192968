package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestFlatMapWeights expands each row into its array's elements with the
// row's weight, numbered, so that a retraction cancels its assertion.
func TestFlatMapWeights(t *testing.T) {
	arr := func(xs ...int64) value.Value {
		es := make([]value.Value, len(xs))
		for i, x := range xs {
			es[i] = value.NewInt(value.Int4, x)
		}
		return value.NewArray(value.ArrayOf(value.Int4), es)
	}
	srf, err := expr.ResolveSRF("unnest", []expr.Expr{&expr.Col{Idx: 1, T: value.ArrayType(value.Int4)}})
	if err != nil {
		t.Fatal(err)
	}
	m := NewFlatMap([]*expr.SRF{srf}, true, 2)
	one := value.NewInt(value.Int4, 1)
	out, err := m.Step([]zset.ZSet{{
		{Row: value.Row{one, arr(5, 6)}, W: 2},
		{Row: value.Row{value.NewInt(value.Int4, 2), arr()}, W: 1},
		{Row: value.Row{value.NewInt(value.Int4, 3), arr(7)}, W: -1},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, e := range out {
		got += e.Row.String() + "×" + value.NewInt(value.Int8, e.W).String() + " "
	}
	want := "(1, {5,6}, 5, 1)×2 (1, {5,6}, 6, 2)×2 (3, {7}, 7, 1)×-1 "
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// The same row asserted and retracted in one step leaves nothing.
	out, err = m.Step([]zset.ZSet{{{Row: value.Row{one, arr(5)}, W: 1}, {Row: value.Row{one, arr(5)}, W: -1}}})
	if err != nil || len(out) != 0 {
		t.Errorf("cancelling changes: %v %v", out, err)
	}
}
