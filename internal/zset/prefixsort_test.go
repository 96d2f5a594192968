package zset

import (
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"pgregory.net/rapid"
)

// TestPrefixSorter checks that the permutation orders keys as comparing
// them whole does, with keys of one value and of two, integers, texts that
// share their first 8 bytes, and NULLs (a second class).
func TestPrefixSorter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		width := rapid.IntRange(1, 2).Draw(t, "width")
		texts := rapid.Bool().Draw(t, "texts")
		nulls := rapid.Bool().Draw(t, "nulls")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		keys := make([]value.Row, n)
		for i := range keys {
			k := make(value.Row, width)
			for c := range k {
				x := rapid.IntRange(-5, 5).Draw(t, "x")
				switch {
				case nulls && x == 5:
					k[c] = value.Null
				case texts:
					k[c] = value.NewText(value.Text, "prefix__"+string(rune('a'+x+5)))
				default:
					k[c] = value.NewInt(value.Int8, int64(x)<<40)
				}
			}
			keys[i] = k
		}
		var s PrefixSorter
		perm := s.Sort(n, width == 1,
			func(i int) (uint8, uint64, bool) { return value.Prefix(keys[i][0]) },
			func(i, j int) int { return value.CompareRows(keys[i], keys[j]) })
		if len(perm) != n {
			t.Fatalf("%d places for %d keys", len(perm), n)
		}
		seen := make([]bool, n)
		for j, i := range perm {
			if seen[i] {
				t.Fatalf("key %d placed twice", i)
			}
			seen[i] = true
			if j > 0 && value.CompareRows(keys[perm[j-1]], keys[i]) > 0 {
				t.Fatalf("place %d: %v after %v", j, keys[i], keys[perm[j-1]])
			}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, value.CompareRows)
		for j, i := range perm {
			if value.CompareRows(keys[i], want[j]) != 0 {
				t.Fatalf("place %d: %v, want %v", j, keys[i], want[j])
			}
		}
	})
}
