package dataflow

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestDeferredLoadPages feeds batches of sizes around a page's
// (pendingPage) to an arrangement that defers its loads and to one that
// stages and commits them, checks that every page but the last is full,
// and compares the two after the load that reads the pages in place. The
// rows come in the order of their first column, as a table's scan gives
// them (Load's sort then orders by key alone), or shuffled.
func TestDeferredLoadPages(t *testing.T) {
	for _, ordered := range []bool{true, false} {
		for seed := range 1 {
			t.Run(fmt.Sprintf("ordered=%v/%d", ordered, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(seed), 31))
				spec := ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int8Type}}, DropNullKeys: true}
				deferred, staged := NewArrangement(spec), NewArrangement(spec)
				deferred.Claim()
				staged.Claim()
				deferred.DeferLoads()
				id := int64(0)
				var all zset.ZSet
				for _, n := range []int{1, pendingPage + 1000, pendingPage - 1, 7, pendingPage, 3 * pendingPage / 2} {
					var ch zset.ZSet
					for range n {
						id++
						k := value.NewInt(value.Int8, rng.Int64N(5000))
						if rng.IntN(100) == 0 {
							k = value.Null
						}
						ch = append(ch, zset.Entry{Row: value.Row{value.NewInt(value.Int8, id), k}, W: 1})
					}
					if !ordered {
						rng.Shuffle(len(ch), func(i, j int) { ch[i], ch[j] = ch[j], ch[i] })
					}
					all = append(all, ch...)
					for _, a := range []*Arrangement{deferred, staged} {
						if err := a.Stage(slices.Clone(ch)); err != nil {
							t.Fatal(err)
						}
						a.Commit()
					}
				}
				if deferred.npending != len(all) {
					t.Fatalf("%d entries pending, %d fed", deferred.npending, len(all))
				}
				for i, pg := range deferred.pending {
					if i < len(deferred.pending)-1 && len(pg) != pendingPage {
						t.Fatalf("page %d of %d holds %d entries", i, len(deferred.pending), len(pg))
					}
					for j, e := range pg {
						if f := all[i*pendingPage+j]; &e.Row[0] != &f.Row[0] {
							t.Fatalf("page %d entry %d is not the row fed there", i, j)
						}
					}
				}
				deferred.Trim()
				compareArrangements(t, deferred, staged)
				checkBytes(t, deferred)
			})
		}
	}
}

// TestRadixKeysOrdered checks that radixKeys sorts keys given in the
// order of their order components, whose passes over those components it
// skips, as it sorts them shuffled, and as the comparison sort does.
func TestRadixKeysOrdered(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	var keys []loadKey
	for i := range 20000 {
		k0 := uint64(i / 3) // ties broken by k1
		keys = append(keys, loadKey{kk: rng.Uint64N(700) << 20, k0: k0, k1: uint64(i % 3), i: int32(i), cls: uint8(rng.IntN(2))})
	}
	want := slices.Clone(keys)
	slices.SortStableFunc(want, func(x, y loadKey) int {
		return cmp.Or(cmp.Compare(x.kk, y.kk), cmp.Compare(x.cls, y.cls), cmp.Compare(x.k0, y.k0), cmp.Compare(x.k1, y.k1))
	})
	if got := radixKeys(slices.Clone(keys)); !slices.Equal(got, want) {
		t.Fatal("ordered keys sorted wrong")
	}
	// (k0, k1) tells every key apart: the order is total.
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	if got := radixKeys(keys); !slices.Equal(got, want) {
		t.Fatal("shuffled keys sorted wrong")
	}
}

// TestRadixKeysDigits checks radixKeys against the comparison sort over
// keys differing in bytes of every field, few and many, in their order
// components' order and not.
func TestRadixKeysDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for _, n := range []int{255, 256, 1000, 70000} {
		for _, masks := range [][4]uint64{
			{0, 0, 0, 0},
			{0xff << 8, 0, 0, 0},
			{^uint64(0), 1, 0xffff, 3},
			{0x0000ff00ff00ff00, 0xff00000000, ^uint64(0), 0},
		} {
			for _, inOrder := range []bool{false, true} {
				keys := make([]loadKey, n)
				for i := range keys {
					keys[i] = loadKey{kk: rng.Uint64() & masks[0], cls: uint8(rng.Uint64() & masks[1]),
						k0: rng.Uint64() & masks[2], k1: rng.Uint64() & masks[3], i: int32(i)}
					if inOrder {
						keys[i].k0, keys[i].k1 = uint64(i/2), uint64(i%2)
					}
				}
				want := slices.Clone(keys)
				slices.SortStableFunc(want, func(x, y loadKey) int {
					return cmp.Or(cmp.Compare(x.kk, y.kk), cmp.Compare(x.cls, y.cls), cmp.Compare(x.k0, y.k0), cmp.Compare(x.k1, y.k1))
				})
				got := radixKeys(keys)
				if n >= 256 && !slices.Equal(got, want) {
					t.Fatalf("n=%d masks=%x ordered=%v: sorted wrong", n, masks, inOrder)
				}
				// Under 256 keys the comparison sort, not stable: keys
				// equal in every field may come in any order.
				seen := make([]bool, n)
				for j, k := range got {
					w := want[j]
					k.i, w.i = 0, 0
					if k != w || seen[got[j].i] {
						t.Fatalf("n=%d masks=%x ordered=%v: key %d sorted wrong", n, masks, inOrder, j)
					}
					seen[got[j].i] = true
				}
			}
		}
	}
}

// BenchmarkRadixKeys sorts the keys of an index of a million rows on a
// key of 100,000 values, read in the order of their first column, as the
// benchmark's join loads t's index by k.
func BenchmarkRadixKeys(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]loadKey, 1_000_000)
	for i := range keys {
		keys[i] = loadKey{kk: rng.Uint64N(100_000), k0: uint64(i), i: int32(i)}
	}
	work := make([]loadKey, len(keys))
	b.ResetTimer()
	for range b.N {
		copy(work, keys)
		radixKeys(work)
	}
}
