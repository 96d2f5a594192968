package engine

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRadixSortKeys checks radixSortKeys against a stable sort, by bytes
// and by digits of 11 bits, over keys in ranges that leave bits alike or
// not, with repeated keys whose order must stay.
func TestRadixSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var buf []sortKey
	for _, n := range []int{0, 1, 2, 3, 100, wideDigitMin - 1, wideDigitMin, 3 * wideDigitMin} {
		for _, span := range []uint64{1, 7, 1 << 20, 1 << 22, 1 << 40, 0} {
			keys := make([]sortKey, n)
			base := rng.Uint64()
			for i := range keys {
				d := rng.Uint64()
				if span != 0 {
					d %= span
				}
				keys[i] = sortKey{k: base + d, i: int32(i)}
			}
			want := slices.Clone(keys)
			slices.SortStableFunc(want, func(a, b sortKey) int { return cmp.Compare(a.k, b.k) })
			var got []sortKey
			got, buf = radixSortKeys(keys, buf)
			if !slices.Equal(got, want) {
				t.Fatalf("%d keys in a span of %d: not sorted stably", n, span)
			}
		}
	}
}
