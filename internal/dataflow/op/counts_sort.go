package op

import (
	"runtime"
	"sync"
)

// minParallelHomeSort is the fewest rows sortByHome sorts on two
// goroutines.
const minParallelHomeSort = 1 << 16

// homeDigit is the bits of a home that sortHomesInParallel distributes
// the rows by first.
const homeDigit = 11

// sortHomesInParallel is sortByHome on two goroutines, for an index of
// more than 2^homeDigit entries: the rows are first distributed by the
// top homeDigit bits of their home (each goroutine counting, then
// placing, the rows of half the chunks, the first half's rows of a
// bucket ahead of the second's), then each goroutine sorts the buckets
// of half the top digits by the remaining low bits, a counting sort per
// bucket, least significant digit first, into a buffer of the biggest
// bucket's size and back (a bucket holds about n/2^homeDigit rows and
// stays in cache), not into a second buffer of n rows. Rows of one home end up
// together, as sortByHome leaves them; their order within the home may
// differ, which counts.load does not depend on (equal rows are found in a
// home whatever its order, and merged).
func sortHomesInParallel(chunks [][]homed, n, b int) []homed {
	low := b - homeDigit
	top := func(x *homed) int { return int(x.h>>low) & (1<<homeDigit - 1) }
	// The chunks, split between the two goroutines by rows.
	cut, seen := len(chunks), 0
	for i, ch := range chunks {
		if seen >= n/2 {
			cut = i
			break
		}
		seen += len(ch)
	}
	parts := [2][][]homed{chunks[:cut], chunks[cut:]}
	var count [2][1 << homeDigit]int
	two := func(f func(g int)) {
		var wg sync.WaitGroup
		wg.Go(func() { f(1) })
		f(0)
		wg.Wait()
	}
	two(func(g int) {
		c := &count[g]
		for _, ch := range parts[g] {
			for i := range ch {
				c[top(&ch[i])]++
			}
		}
	})
	// Each bucket's start, and each goroutine's place in it.
	var starts [1<<homeDigit + 1]int
	sum := 0
	for d := range 1 << homeDigit {
		starts[d] = sum
		a, c := count[0][d], count[1][d]
		count[0][d], count[1][d] = sum, sum+a
		sum += a + c
	}
	starts[1<<homeDigit] = sum
	out := make([]homed, n)
	two(func(g int) {
		c := &count[g]
		for _, ch := range parts[g] {
			for i := range ch {
				d := top(&ch[i])
				out[c[d]] = ch[i]
				c[d]++
			}
		}
	})
	if low == 0 {
		return out
	}
	// Each bucket sorted by the low bits, 11 at a time, through a buffer
	// of its goroutine's biggest bucket, and back into out.
	passes := (low + homeDigit - 1) / homeDigit
	two(func(g int) {
		var cnt [1 << homeDigit]int
		half := 1 << (homeDigit - 1)
		big := 0
		for d := g * half; d < (g+1)*half; d++ {
			big = max(big, starts[d+1]-starts[d])
		}
		buf := make([]homed, big)
		for d := g * half; d < (g+1)*half; d++ {
			bucket := out[starts[d]:starts[d+1]]
			src, dst := bucket, buf[:len(bucket)]
			for p := range passes {
				shift := p * homeDigit
				width := min(homeDigit, low-shift)
				mask := uint64(1)<<width - 1
				clear(cnt[:mask+1])
				for i := range src {
					cnt[(src[i].h>>shift)&mask]++
				}
				s := 0
				for k := range cnt[:mask+1] {
					cnt[k], s = s, s+cnt[k]
				}
				for i := range src {
					k := (src[i].h >> shift) & mask
					dst[cnt[k]] = src[i]
					cnt[k]++
				}
				src, dst = dst, src
			}
			if passes%2 == 1 {
				copy(bucket, src)
			}
		}
	})
	return out
}

// parallelHomeSort reports whether sortByHome sorts n rows for an index
// of 2^b entries on two goroutines.
func parallelHomeSort(n, b int) bool {
	return n >= minParallelHomeSort && b > homeDigit && runtime.GOMAXPROCS(0) > 1
}
