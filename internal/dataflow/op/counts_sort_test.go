package op

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestSortHomesInParallel checks the two-goroutine sort by home against
// the one-goroutine sort over random hashes (index sizes needing one,
// two and three passes over the low bits, chunks of uneven sizes): the
// same rows, in order of their homes; and an Integrate-style load of
// counts (repeated rows, cancelling weights) from rows sorted either way
// holds the same rows and weights.
func TestSortHomesInParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range []int{12, 17, 22, 23, 34} {
		t.Run(fmt.Sprint(b), func(t *testing.T) {
			var chunks [][]homed
			n := 0
			for n < minParallelHomeSort+1000 {
				ch := make([]homed, 1+rng.IntN(9000))
				for i := range ch {
					ch[i] = homed{h: rng.Uint64(), w: int64(n + i)}
				}
				chunks = append(chunks, ch)
				n += len(ch)
			}
			if !parallelHomeSort(n, b) {
				t.Fatal("not sorted in parallel")
			}
			got := sortHomesInParallel(chunks, n, b)
			mask := uint64(1)<<b - 1
			for i := 1; i < len(got); i++ {
				if got[i-1].h&mask > got[i].h&mask {
					t.Fatalf("row %d's home %d after %d", i, got[i].h&mask, got[i-1].h&mask)
				}
			}
			runtime.GOMAXPROCS(1)
			want := sortByHome(chunks, n, b)
			runtime.GOMAXPROCS(2)
			byWeight := func(x, y homed) int { return int(x.w - y.w) }
			got, want = slices.Clone(got), slices.Clone(want)
			slices.SortFunc(got, byWeight)
			slices.SortFunc(want, byWeight)
			if !slices.EqualFunc(got, want, func(x, y homed) bool { return x.h == y.h && x.w == y.w }) {
				t.Fatal("the rows sorted differ")
			}
		})
	}
	load := func(procs int) []string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var l countsLoad
		for b := range 10 {
			var z zset.ZSet
			for i := range 9000 {
				k := int64((b*9000 + i) % 70000)
				w := int64(1)
				if b == 9 && i%2 == 0 {
					w = -1
				}
				z = append(z, zset.Entry{Row: value.Row{value.NewInt(value.Int8, k)}, W: w})
			}
			l.add(z)
		}
		c := newIdentityCounts()
		c.load(&l)
		var out []string
		c.scan(func(r value.Row, w int64) bool {
			out = append(out, fmt.Sprintf("%s %d", zset.FormatRow(r), w))
			return true
		})
		slices.Sort(out)
		return out
	}
	if serial, parallel := load(1), load(2); !slices.Equal(serial, parallel) || len(serial) == 0 {
		t.Fatalf("counts loaded in parallel hold %d rows, loaded serially %d, or they differ", len(parallel), len(serial))
	}
}
