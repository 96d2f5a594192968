package intmap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMap runs random sets and drops against a map, with keys dense
// (an array), sparse (a map), moving between the two, and at the ends of
// int64, and checks every key after every phase.
func TestMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := New[uint64]()
	want := map[int64]uint64{}
	check := func(phase string) {
		t.Helper()
		if x.Len() != len(want) {
			t.Fatalf("%s: len %d, want %d", phase, x.Len(), len(want))
		}
		for k, id := range want {
			if got, ok := x.Get(k); !ok || got != id {
				t.Fatalf("%s: get(%d) = %d, %v, want %d", phase, k, got, ok, id)
			}
		}
		for range 100 {
			k := rng.Int64N(5000) - 1000
			if _, held := want[k]; !held {
				if _, ok := x.Get(k); ok {
					t.Fatalf("%s: get(%d) found a key never set", phase, k)
				}
			}
		}
	}
	id := uint64(0)
	set := func(k int64) {
		id++
		x.Set(k, id)
		want[k] = id
	}
	drop := func(k int64) {
		x.Delete(k, want[k]+1) // another row's id: no effect
		x.Delete(k, want[k])
		delete(want, k)
	}
	for k := int64(1); k <= 2000; k++ { // ascending, as a serial column
		set(k)
	}
	if x.dense == nil {
		t.Fatal("serial keys are not in an array")
	}
	check("serial")
	for k := int64(0); k > -500; k-- { // growing down
		set(k)
	}
	check("down")
	for range 3000 { // updates and deletes in place
		k := rng.Int64N(2500) - 500
		if _, ok := want[k]; ok && rng.IntN(2) == 0 {
			drop(k)
		} else {
			set(k)
		}
	}
	check("random")
	set(math.MaxInt64) // far away: a map
	set(math.MinInt64)
	if x.dense != nil {
		t.Fatal("extreme keys kept in an array")
	}
	check("extremes")
	drop(math.MaxInt64)
	drop(math.MinInt64)
	for len(want) > 10 { // draining: back to a map
		for k := range want {
			drop(k)
			break
		}
	}
	if x.dense != nil {
		t.Fatal("10 keys still in an array")
	}
	check("drained")
	for k := range want {
		drop(k)
	}
	for k := int64(100); k < 300; k++ { // dense again
		set(k)
	}
	if x.dense == nil {
		t.Fatal("dense keys are not back in an array")
	}
	check("dense again")
	x.Clear()
	clear(want)
	check("cleared")
}

// TestMapAll checks that All visits every key once, dense or sparse.
func TestMapAll(t *testing.T) {
	for _, step := range []int64{1, 1000} {
		x := New[*int]()
		want := map[int64]bool{}
		for i := int64(0); i < 300; i++ {
			v := new(int)
			x.Set(i*step, v)
			want[i*step] = true
		}
		if dense := x.dense != nil; dense != (step == 1) {
			t.Fatalf("step %d: dense %v", step, dense)
		}
		x.All(func(k int64, v *int) bool {
			if !want[k] || v == nil {
				t.Fatalf("step %d: key %d visited unexpectedly", step, k)
			}
			delete(want, k)
			return true
		})
		if len(want) != 0 {
			t.Fatalf("step %d: %d keys not visited", step, len(want))
		}
	}
}
