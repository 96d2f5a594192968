package zset

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/value"
)

// TestConsolidateByFirst checks ConsolidateByFirst against the naive
// consolidation on what a Map that keeps its input's first column first
// gives it: the projection of a consolidated batch of three columns onto
// its first and third (rows of one first value out of order, equal rows
// apart among them; floats 0 and -0, equal by value, printed apart),
// sometimes with two entries swapped, of lengths on both sides of the
// prefix sort's threshold.
func TestConsolidateByFirst(t *testing.T) {
	first := func(t *rapid.T, l string) value.Value {
		switch rapid.IntRange(0, 3).Draw(t, l+".kind") {
		case 0:
			return value.Null
		case 1:
			return value.NewFloat(value.Float8, rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1}).Draw(t, l+".f"))
		}
		return value.NewInt(value.Int8, rapid.Int64Range(-3, 3).Draw(t, l+".i"))
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 3*prefixSortMin).Draw(t, "len")
		full := make(ZSet, n)
		for i := range full {
			l := "row"
			full[i] = Entry{value.Row{first(t, l), value.NewInt(value.Int4, rapid.Int64Range(0, 3).Draw(t, l+".b")), first(t, l+".c")},
				rapid.Int64Range(-2, 2).Draw(t, l+".w")}
		}
		full = Consolidate(full)
		proj := make(ZSet, len(full))
		for i, e := range full {
			proj[i] = Entry{value.Row{e.Row[0], e.Row[2]}, e.W}
		}
		if len(proj) > 1 && rapid.IntRange(0, 4).Draw(t, "swap") == 0 {
			i, j := rapid.IntRange(0, len(proj)-1).Draw(t, "i"), rapid.IntRange(0, len(proj)-1).Draw(t, "j")
			proj[i], proj[j] = proj[j], proj[i]
		}
		want := naiveConsolidate(proj)
		got := ConsolidateByFirst(slices.Clone(proj))
		if !Equal(got, want) || len(got) != len(want) || !IsConsolidated(got) {
			t.Fatalf("ConsolidateByFirst(%v) = %v, want %v", proj, got, want)
		}
	})
}
