package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCutKeys: cutKeys puts every key below its pivot before every other
// key, the first in call order and the others in reverse call order, so
// that each share sorted stably (the second reversed first) is the
// serial sort's keys cut at the same place.
func TestCutKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{2, 3, 255, 256, 257, 1024, 10_000} {
		for _, span := range []int{1, 2, 100, 1 << 30} {
			keys := make([]sortKey, n)
			for i := range keys {
				keys[i] = sortKey{k: uint64(rng.IntN(span)) ^ 1<<63, i: int32(i)}
			}
			out := make([]sortKey, n)
			cut := cutKeys(keys, out)
			if span > 100 && n >= 256 && (cut < n/4 || cut > 3*n/4) {
				t.Errorf("n=%d span=%d: cut at %d", n, span, cut)
			}
			lo, hi := slices.Clone(out[:cut]), slices.Clone(out[cut:])
			slices.Reverse(hi)
			for _, half := range [][]sortKey{lo, hi} {
				if !slices.IsSortedFunc(half, func(a, b sortKey) int { return int(a.i - b.i) }) {
					t.Fatalf("n=%d span=%d: a share is not in call order", n, span)
				}
			}
			sorted, _ := radixSortKeys(slices.Clone(keys), nil)
			loSorted, _ := radixSortKeys(lo, nil)
			hiSorted, _ := radixSortKeys(hi, nil)
			if got := append(loSorted, hiSorted...); !slices.Equal(got, sorted) {
				t.Fatalf("n=%d span=%d: the shares sorted are not the keys sorted", n, span)
			}
		}
	}
}
