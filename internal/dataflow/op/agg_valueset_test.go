package op

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestValueSetMerge checks a flat value set against a map of
// multiplicities after every merge: logs whose changes cancel each other,
// fall before, between and after the base's values, hit them, and bring
// them to zero.
func TestValueSetMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, domain := range []int64{4, 60, 3000} {
		var s valueSet
		var scr setScratch
		want := map[int64]int64{}
		for range 20000 {
			k := rng.Int64N(domain)
			n := int64(1)
			if want[k] > 0 && rng.IntN(2) == 0 {
				n = -1
			}
			want[k] += n
			if want[k] == 0 {
				delete(want, k)
			}
			s.add(k, n, &scr)
			if len(s.log) > 0 || s.tr != nil {
				continue
			}
			var keys []int64
			for k := range want {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if len(s.base) != len(keys) {
				t.Fatalf("domain %d: %d values, want %d", domain, len(s.base), len(keys))
			}
			for i, k := range keys {
				if s.base[i] != (valCount{k: k, n: want[k]}) {
					t.Fatalf("domain %d: entry %d is %v, want %v", domain, i, s.base[i], valCount{k: k, n: want[k]})
				}
			}
		}
	}
}

// BenchmarkValueSetAdd is groupby's MIN and MAX over the harness's t: a
// thousand groups of a thousand values each, an op a value moved from one
// group to another (a retraction and an assertion).
func BenchmarkValueSetAdd(b *testing.B) {
	const groups, per = 1000, 1000
	rng := rand.New(rand.NewPCG(1, 2))
	sets := make([]valueSet, groups)
	var scr setScratch
	vals := make([]int64, groups*per) // each row's value; row r is in group r%groups
	for r := range vals {
		vals[r] = rng.Int64N(1_000_000)
		sets[r%groups].add(vals[r], 1, &scr)
	}
	b.ResetTimer()
	cpu0 := cpuNanos()
	for range b.N {
		r := rng.IntN(len(vals))
		sets[r%groups].add(vals[r], -1, &scr)
		vals[r] = rng.Int64N(1_000_000)
		sets[r%groups].add(vals[r], 1, &scr)
	}
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
}
