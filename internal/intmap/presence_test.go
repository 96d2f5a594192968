package intmap

import (
	"math/rand/v2"
	"testing"
)

// TestPresence checks, after each phase, that Has of a map made by
// NewPresence agrees with a plain map for every key in and around the
// range, through each way the keys move: an array filled, grown at both
// ends, a far key turning it into a hash map, the hash map back into an
// array, deletes leaving the array below a quarter full, and a clear.
func TestPresence(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := NewPresence[uint64]()
	want := map[int64]bool{}
	const far = 1 << 40
	check := func(phase string, dense bool) {
		t.Helper()
		if x.Dense() != dense {
			t.Fatalf("%s: dense %v, want %v", phase, x.Dense(), dense)
		}
		for k := int64(-1200); k < 4200; k++ {
			if got := x.Has(k); got != want[k] {
				t.Fatalf("%s: Has(%d) = %v, want %v", phase, k, got, want[k])
			}
		}
		if got := x.Has(far); got != want[far] {
			t.Fatalf("%s: Has(far) = %v, want %v", phase, got, want[far])
		}
	}
	set := func(lo, hi int64) {
		for _, i := range rng.Perm(int(hi - lo)) {
			k := lo + int64(i)
			x.Set(k, uint64(k)+far)
			want[k] = true
		}
	}
	del := func(lo, hi int64, n int) {
		for range n {
			k := lo + rng.Int64N(hi-lo)
			if v, ok := x.Get(k); ok {
				x.Delete(k, v)
				delete(want, k)
			}
		}
	}
	set(0, 500)
	check("filled", true)
	del(0, 500, 100)
	for k := int64(500); k < 1500; k++ {
		x.Set(k, uint64(k))
		want[k] = true
	}
	for k := int64(-1); k >= -500; k-- {
		x.Set(k, uint64(k)+far)
		want[k] = true
	}
	check("grown at both ends", true)
	del(-500, 1500, 300)
	check("deletes", true)
	x.Set(far, 1)
	want[far] = true
	check("far key", false)
	x.Delete(far, 1)
	delete(want, far)
	set(1500, 4000)
	check("back to an array", true)
	del(-500, 4000, 40000)
	check("emptied", false)
	x.Clear()
	clear(want)
	for k := int64(-1000); k < -500; k++ {
		x.Set(k, uint64(k)+far)
		want[k] = true
	}
	check("cleared and filled", true)
}
