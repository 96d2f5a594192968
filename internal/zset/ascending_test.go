package zset

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"pgregory.net/rapid"
)

// TestConsolidateAscending: a batch already consolidated (sorted, no two
// rows equal, no zero weight), as a cold start feeds a table's rows in key
// order, comes back as it is; the same batch with two equal rows, a zero
// weight or two entries out of order consolidates as comparing whole rows
// does. The first values are of every kind whose prefixes tie or order
// oddly: NULL, integers, strings sharing their first 8 bytes, floats with
// -0 and NaN.
func TestConsolidateAscending(t *testing.T) {
	first := func(t *rapid.T, l string) value.Value {
		switch rapid.IntRange(0, 4).Draw(t, l+".kind") {
		case 0:
			return value.Null
		case 1:
			return value.NewInt(value.Int8, rapid.Int64Range(-1000, 1000).Draw(t, l+".i"))
		case 2:
			return value.NewText(value.Text, rapid.SampledFrom([]string{"", "a", "abcdefgh", "abcdefgh1", "abcdefgh2", "b"}).Draw(t, l+".s"))
		case 3:
			return value.NewFloat(value.Float8, rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, math.NaN(), math.Inf(-1)}).Draw(t, l+".f"))
		}
		return value.NewBool(rapid.Bool().Draw(t, l+".b"))
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(prefixSortMin, 4*prefixSortMin).Draw(t, "len")
		z := make(ZSet, n)
		for i := range z {
			l := fmt.Sprint("row", i)
			z[i] = Entry{value.Row{first(t, l), value.NewInt(value.Int4, rapid.Int64Range(0, 3).Draw(t, l+".tie"))},
				rapid.SampledFrom([]int64{-2, -1, 1, 2}).Draw(t, l+".w")}
		}
		slices.SortFunc(z, compareEntries)
		z = merge(z, nil)
		if len(z) < 2 {
			return
		}
		j := rapid.IntRange(0, len(z)-2).Draw(t, "at")
		switch rapid.IntRange(0, 3).Draw(t, "change") {
		case 1:
			z[j+1].Row = z[j].Row
		case 2:
			z[j].W = 0
		case 3:
			z[j], z[j+1] = z[j+1], z[j]
		}
		in := slices.Clone(z)
		want := slices.Clone(z)
		slices.SortFunc(want, compareEntries)
		want = merge(want, nil)
		got := Consolidate(z)
		if len(got) != len(want) {
			t.Fatalf("%d entries, want %d", len(got), len(want))
		}
		for i := range got {
			if CompareRows(got[i].Row, want[i].Row) != 0 || got[i].W != want[i].W {
				t.Fatalf("entry %d: %v, want %v (of %v)", i, got[i], want[i], in)
			}
		}
	})
}
