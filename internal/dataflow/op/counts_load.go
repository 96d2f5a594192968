package op

import (
	"math/bits"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// countsLoad is what counts.load builds counts from: rows with their
// hashes and weights, a chunk per batch, each hashed and measured while
// the batch's rows are at hand.
type countsLoad struct {
	chunks [][]homed
	n      int   // rows in the chunks
	bytes  int64 // their RowBytes
}

// homed is a row with its hash and weight.
type homed struct {
	h   uint64
	row value.Row
	w   int64
}

// add keeps a batch's entries; z may be reused once add returns.
func (l *countsLoad) add(z zset.ZSet) {
	if len(z) == 0 {
		return
	}
	ch := make([]homed, len(z))
	for i, e := range z {
		ch[i] = homed{h: value.HashRow(e.Row), row: e.Row, w: e.W}
		l.bytes += dataflow.RowBytes(e.Row)
	}
	l.chunks = append(l.chunks, ch)
	l.n += len(z)
}

// load fills empty counts with l's rows in one build, leaving what adding
// them one by one would leave (equal rows' weights summed, rows whose
// weights cancel left out), without looking any row up: the rows are
// ordered by their place in an index sized once for all of them (a radix
// sort of their hashes) and put there in that order, so that the index is
// written from one end to the other rather than at random, a cache miss a
// row. Equal rows have equal hashes and so meet in that order.
func (c *counts) load(l *countsLoad) {
	if c.live != 0 || len(c.slots) != 0 || l.n >= 1<<31-1 {
		for _, ch := range l.chunks {
			for _, x := range ch {
				c.add(x.row, x.w)
			}
		}
		return
	}
	if l.n == 0 {
		return
	}
	c.index.reserve(l.n)
	x := &c.index
	hs := sortByHome(l.chunks, l.n, bits.TrailingZeros(uint(len(x.tab))))
	c.slots = make([]countSlot, 0, l.n)
	c.bytes += l.bytes
	for g := 0; g < len(hs); {
		home := x.home(hs[g].h)
		j := g + 1
		for j < len(hs) && x.home(hs[j].h) == home {
			j++
		}
		// A home's rows (one or two, at the index's load): equal rows are
		// merged, the first one's slot keeping the sum.
		first := len(c.slots)
		for _, r := range hs[g:j] {
			k := first
			for ; k < len(c.slots); k++ {
				if hs[g+k-first].h == r.h && c.same(c.slots[k].row, r.row) {
					break
				}
			}
			if k < len(c.slots) {
				c.slots[k].n += r.w
				c.bytes -= dataflow.RowBytes(r.row)
				continue
			}
			// hs[g:j] is reused for the group's slots, in the slots'
			// order: never ahead of the row being read.
			hs[g+len(c.slots)-first] = r
			c.slots = append(c.slots, countSlot{row: r.row, n: r.w, next: -1})
		}
		kept := first
		for k := first; k < len(c.slots); k++ {
			s := c.slots[k]
			if s.n == 0 {
				c.bytes -= dataflow.RowBytes(s.row)
				continue
			}
			c.slots[kept] = s
			x.put(slotEntry{h: hs[g+k-first].h, s: int32(kept) + 1})
			x.n++
			c.live++
			c.total += s.n
			kept++
		}
		clear(c.slots[kept:])
		c.slots = c.slots[:kept]
		g = j
	}
	if c.live == 0 { // every weight cancelled
		c.slots, c.index = nil, slotIndex{}
	}
}

// sortByHome returns the n rows of chunks ordered by the low b bits of
// their hashes (their home in an index of 2^b entries): a radix sort,
// least significant digit first, 11 bits a pass, the first pass reading
// the chunks; on two goroutines for many rows (sortHomesInParallel).
func sortByHome(chunks [][]homed, n, b int) []homed {
	if parallelHomeSort(n, b) {
		return sortHomesInParallel(chunks, n, b)
	}
	out := make([]homed, n)
	var buf []homed
	for shift := 0; shift == 0 || shift < b; shift += 11 {
		mask := uint64(1)<<max(0, min(11, b-shift)) - 1
		var count [1 << 11]int
		digit := func(x *homed) uint64 { return (x.h >> shift) & mask }
		if shift == 0 {
			for _, ch := range chunks {
				for i := range ch {
					count[digit(&ch[i])]++
				}
			}
		} else {
			for i := range out {
				count[digit(&out[i])]++
			}
		}
		sum := 0
		for d := range count[:mask+1] {
			count[d], sum = sum, sum+count[d]
		}
		if shift == 0 {
			for _, ch := range chunks {
				for i := range ch {
					d := digit(&ch[i])
					out[count[d]] = ch[i]
					count[d]++
				}
			}
			continue
		}
		if buf == nil {
			buf = make([]homed, n)
		}
		for i := range out {
			d := digit(&out[i])
			buf[count[d]] = out[i]
			count[d]++
		}
		out, buf = buf, out
	}
	return out
}
