package op

import (
	"sync"

	"github.com/deltaview/deltaview/internal/dataflow"
)

// A view of a million rows (a join's) ends its cold start with its
// Integrate's load: a cache miss a row in an index of tens of megabytes,
// on one core while the other waits. loadHalves builds the index in its
// two halves at once: each goroutine takes the rows whose place is in its
// half (their homes: rows equal to each other have one hash, so one
// half), probes no further than the half's end, and enters each row's
// slot of the slab (the load's, where the rows lie in the order they
// came), freeing the slot of a row merged into an equal one before it, as
// loadInOrder does. A row whose probe reaches its half's end (its run
// crosses into the other half, or would wrap around) is put in afterwards,
// on the caller's goroutine, as loadInOrder would.

// minSplitLoad is the fewest rows loaded in two halves at once.
const minSplitLoad = 1 << 15

// halfLoad is what one goroutine of loadHalves found.
type halfLoad struct {
	live      int
	total     int64 // the weights' sum
	bytes     int64 // the bytes of the rows merged into equal ones
	cancelled bool
	long      bool    // a probe met more than longKey rows of its hash
	spilled   []int32 // the slots of the rows left, in the order they came
}

// loadHalves is loadInOrder in the index's two halves at once; c.index
// is sized and empty, and c.slots is l's slab.
func (c *counts) loadHalves(l *countsLoad) (cancelled bool) {
	x := &c.index
	half := len(x.tab) / 2
	var parts [2]halfLoad
	var wg sync.WaitGroup
	wg.Go(func() { c.loadHalf(l, half, len(x.tab), &parts[1]) })
	c.loadHalf(l, 0, half, &parts[0])
	wg.Wait()
	if parts[0].long || parts[1].long {
		c.long = true
		return false
	}
	for i := range parts {
		p := &parts[i]
		c.live += p.live
		c.total += p.total
		c.bytes -= p.bytes
		cancelled = cancelled || p.cancelled
		for _, k := range p.spilled {
			zero := c.putSpilled(l, k)
			if c.long {
				return false
			}
			cancelled = cancelled || zero
		}
	}
	x.n = c.live
	return cancelled
}

// loadHalf puts the rows whose homes lie in [lo, hi) of the index into
// it, within it; p gathers the rest. A row merged into an equal one
// before it frees its slot.
func (c *counts) loadHalf(l *countsLoad, lo, hi int, p *halfLoad) {
	x := &c.index
	for k, h32 := range l.hs {
		h := uint64(h32)
		at := x.home(h)
		if at < lo || at >= hi {
			continue
		}
		r := &c.slots[k]
		met := 0
		for ; at < hi && x.tab[at].s != 0; at++ {
			if e := x.tab[at]; e.h == h32 {
				if c.same(c.slots[e.s-1].rowOf(), r.rowOf()) {
					break
				}
				met++
			}
		}
		if met > longKey {
			p.long = true // the load starts again, hashing whole rows
			return
		}
		if at == hi {
			p.spilled = append(p.spilled, int32(k))
			continue
		}
		p.total += r.n
		if s := x.tab[at].s; s != 0 {
			// A row seen before: the first one's slot keeps the sum.
			c.slots[s-1].n += r.n
			p.bytes += dataflow.RowBytes(r.rowOf())
			p.cancelled = p.cancelled || c.slots[s-1].n == 0
			*r = countSlot{}
			continue
		}
		x.tab[at] = slotEntry{h: h32, s: int32(k) + 1}
		p.live++
	}
}

// putSpilled puts the row of slot k, which a half left, probing past the
// half's end, and reports whether it was merged into an equal row whose
// weight then summed to zero.
func (c *counts) putSpilled(l *countsLoad, k int32) (zero bool) {
	x, r := &c.index, &c.slots[k]
	h := uint64(l.hs[k])
	p := c.probe(h, r.rowOf())
	c.total += r.n
	if s := x.tab[p].s; s != 0 {
		c.slots[s-1].n += r.n
		c.bytes -= dataflow.RowBytes(r.rowOf())
		*r = countSlot{}
		return c.slots[s-1].n == 0
	}
	x.tab[p] = slotEntry{h: uint32(h), s: k + 1}
	c.live++
	return false
}
