package op

import (
	"runtime"

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

// add keeps a batch's entries, hashed as c hashes them; z may be reused
// once add returns.
func (l *countsLoad) add(c *counts, z zset.ZSet) {
	if len(z) == 0 {
		return
	}
	ch := make([]homed, len(z))
	for i, e := range z {
		ch[i] = homed{h: c.hashOf(e.Row), row: e.Row, w: e.W}
		l.bytes += dataflow.RowBytes(e.Row)
	}
	l.chunks = append(l.chunks, ch)
	l.n += len(z)
}

// load fills empty counts with l's rows in one build, leaving what adding
// them one by one would leave (equal rows' weights summed, rows whose
// weights cancel left out): the index is sized once for all of them, and
// each row is put in it in the order the rows came and its slot appended
// to the slab, equal rows found on the way and merged, without the
// index's growth or a slot's reuse. The slab is then written from one end
// to the other; the index is written at random, a cache miss a row, which
// costs less than ordering the rows by their place in it first (two passes
// over the rows and a buffer of them). Many rows on two cores or more are
// put in the index's two halves at once (loadHalves).
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
	fresh := *c // empty: what a load marked long starts again from
	c.index.reserve(l.n)
	c.bytes += l.bytes
	var cancelled bool
	if l.n >= minSplitLoad && runtime.GOMAXPROCS(0) >= 2 {
		cancelled = c.loadHalves(l)
	} else {
		cancelled = c.loadInOrder(l)
	}
	if c.long {
		// Rows of one key piled up: they are loaded again, each hashed
		// whole (counts_keyed.go).
		*c = fresh
		c.key = nil
		for _, ch := range l.chunks {
			for k := range ch {
				ch[k].h = rowHash(ch[k].row)
			}
		}
		c.load(l)
		return
	}
	if cancelled {
		// Rows whose weights summed to zero leave, as add removes them.
		for i := range c.slots {
			if s := &c.slots[i]; s.n == 0 && s.p != nil {
				c.remove(c.hashOf(s.rowOf()), int32(i))
			}
		}
	}
	if c.live == 0 { // every weight cancelled
		c.slots, c.index, c.free = nil, slotIndex{}, -1
	}
}

// loadInOrder puts l's rows into the sized index and the empty slab, in
// the order they came, and reports whether some weights summed to zero.
func (c *counts) loadInOrder(l *countsLoad) (cancelled bool) {
	x := &c.index
	c.slots = make([]countSlot, 0, l.n)
	for _, ch := range l.chunks {
		for k := range ch {
			r := &ch[k]
			p := c.probe(r.h, r.row)
			if c.long {
				return false
			}
			c.total += r.w
			if s := x.tab[p].s; s != 0 {
				// A row seen before: the first one's slot keeps the sum.
				c.slots[s-1].n += r.w
				c.bytes -= dataflow.RowBytes(r.row)
				cancelled = cancelled || c.slots[s-1].n == 0
				continue
			}
			x.tab[p] = slotEntry{h: uint32(r.h), s: int32(len(c.slots)) + 1}
			x.n++
			c.live++
			c.slots = append(c.slots, slotOf(r.row, r.w))
		}
	}
	return cancelled
}
