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
// half), probes no further than the half's end, and puts each row in the
// slot of its place in the order the rows came, so that the slab is the
// one loadInOrder writes, with a free slot where a row was merged into an
// equal one before it. A row whose probe reaches its half's end (its run
// crosses into the other half, or would wrap around) is put in afterwards,
// on the caller's goroutine, as loadInOrder would.

// minSplitLoad is the fewest rows loaded in two halves at once.
const minSplitLoad = 1 << 15

// halfLoad is what one goroutine of loadHalves found.
type halfLoad struct {
	live, merged int
	total        int64 // the weights' sum
	bytes        int64 // the bytes of the rows merged into equal ones
	cancelled    bool
	long         bool         // a probe met more than longKey rows of its hash
	spilled      []spilledRow // in the order the rows came
}

// spilledRow is a row put in after the halves: its place in the order
// the rows came, and the row.
type spilledRow struct {
	k int32
	r *homed
}

// loadHalves is loadInOrder in the index's two halves at once; c.index
// is sized and empty.
func (c *counts) loadHalves(l *countsLoad) (cancelled bool) {
	x := &c.index
	c.slots = make([]countSlot, l.n)
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
	merged := 0
	for i := range parts {
		p := &parts[i]
		c.live += p.live
		c.total += p.total
		c.bytes -= p.bytes
		merged += p.merged
		cancelled = cancelled || p.cancelled
		for _, sp := range p.spilled {
			m, zero := c.putSpilled(sp)
			if c.long {
				return false
			}
			if m {
				merged++
			}
			cancelled = cancelled || zero
		}
	}
	x.n = c.live
	if merged > 0 {
		// The slots of rows merged are free, lowest first.
		for i := len(c.slots) - 1; i >= 0; i-- {
			if c.slots[i].p == nil {
				c.slots[i].next = c.free
				c.free = int32(i)
			}
		}
	}
	return cancelled
}

// loadHalf puts the rows whose homes lie in [lo, hi) of the index into
// it, within it, each in the slot of its place; p gathers the rest.
func (c *counts) loadHalf(l *countsLoad, lo, hi int, p *halfLoad) {
	x := &c.index
	k := int32(-1)
	for _, ch := range l.chunks {
		for i := range ch {
			k++
			r := &ch[i]
			at := x.home(r.h)
			if at < lo || at >= hi {
				continue
			}
			met := 0
			for ; at < hi && x.tab[at].s != 0; at++ {
				if e := x.tab[at]; uint64(e.h) == r.h {
					if c.same(c.slots[e.s-1].rowOf(), r.row) {
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
				p.spilled = append(p.spilled, spilledRow{k: k, r: r})
				continue
			}
			p.total += r.w
			if s := x.tab[at].s; s != 0 {
				// A row seen before: the first one's slot keeps the sum.
				c.slots[s-1].n += r.w
				p.bytes += dataflow.RowBytes(r.row)
				p.merged++
				p.cancelled = p.cancelled || c.slots[s-1].n == 0
				continue
			}
			x.tab[at] = slotEntry{h: uint32(r.h), s: k + 1}
			p.live++
			c.slots[k] = slotOf(r.row, r.w)
		}
	}
}

// putSpilled puts a row that a half left in, probing past the half's
// end, and reports whether it was merged into an equal row, and whether
// their weights then summed to zero.
func (c *counts) putSpilled(sp spilledRow) (merged, zero bool) {
	x, r := &c.index, sp.r
	p := c.probe(r.h, r.row)
	c.total += r.w
	if s := x.tab[p].s; s != 0 {
		c.slots[s-1].n += r.w
		c.bytes -= dataflow.RowBytes(r.row)
		return true, c.slots[s-1].n == 0
	}
	x.tab[p] = slotEntry{h: uint32(r.h), s: sp.k + 1}
	c.live++
	c.slots[sp.k] = slotOf(r.row, r.w)
	return false, false
}
