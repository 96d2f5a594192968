package op

import (
	"runtime"
	"slices"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/zset"
)

// countsLoad is what counts.load builds counts from: the rows of a cold
// start's batches already in the slots the slab will hold them in, in the
// order they came, with their hashes (as the counts hash them), each
// taken while its batch's rows are at hand. The load takes the slab over
// and only builds the index: the batches are not copied a second time.
type countsLoad struct {
	slots []countSlot
	hs    []uint32 // the rows' hashes: counts hash to 32 bits (hashOf)
	n     int      // rows in slots
	bytes int64    // their RowBytes
	// want is the slab's first capacity (expect): a slab grown by
	// append would be copied as it grows.
	want int
}

// expect sizes the slab the first batch starts for n rows.
func (l *countsLoad) expect(n int) { l.want = n }

// add keeps a batch's entries, hashed as c hashes them; z may be reused
// once add returns (its rows are immutable and are kept).
func (l *countsLoad) add(c *counts, z zset.ZSet) {
	if len(z) == 0 {
		return
	}
	if l.slots == nil && l.want > len(z) && len(z) >= l.want/64 {
		// A first batch this big is a cold start's feed of about want
		// rows in batches; a smaller one (a few groups) would leave most
		// of the slab unused, and grows it instead.
		l.slots = make([]countSlot, 0, l.want)
		l.hs = make([]uint32, 0, l.want)
	}
	l.slots = slices.Grow(l.slots, len(z))
	l.hs = slices.Grow(l.hs, len(z))
	for _, e := range z {
		l.slots = append(l.slots, slotOf(e.Row, e.W))
		l.hs = append(l.hs, uint32(c.hashOf(e.Row)))
		l.bytes += dataflow.RowBytes(e.Row)
	}
	l.n += len(z)
}

// load fills empty counts with l's rows in one build, leaving what adding
// them one by one would leave (equal rows' weights summed, rows whose
// weights cancel left out): the slab is l's, taken over, the index is
// sized once for all of them, and each row is put in it in the order the
// rows came, equal rows found on the way and merged into the first, whose
// slot keeps the sum (the later one's slot is freed), without the index's
// growth. The index is written at random, a cache miss a row, which costs
// less than ordering the rows by their place in it first (two passes over
// the rows and a buffer of them). Many rows on two cores or more are put
// in the index's two halves at once (loadHalves). l is spent.
func (c *counts) load(l *countsLoad) {
	if c.live != 0 || len(c.slots) != 0 || l.n >= 1<<31-1 {
		for i := range l.slots {
			c.add(l.slots[i].rowOf(), l.slots[i].n)
		}
		return
	}
	if l.n == 0 {
		return
	}
	fresh := *c // empty: what a load marked long starts again from
	c.index.reserve(l.n)
	c.bytes += l.bytes
	c.slots = l.slots
	var cancelled bool
	if l.n >= minSplitLoad && runtime.GOMAXPROCS(0) >= 2 {
		cancelled = c.loadHalves(l)
	} else {
		cancelled = c.loadInOrder(l)
	}
	if c.long {
		// Rows of one key piled up: they are loaded again, each hashed
		// whole (counts_keyed.go). The slab holds the same multiset as
		// before (a row merged left its weight in the equal row's slot):
		// its rows, packed, with the sums that cancelled left out, are
		// the load.
		again := countsLoad{slots: c.slots[:0], hs: l.hs[:0]}
		for _, s := range c.slots {
			if s.p == nil || s.n == 0 {
				continue
			}
			again.slots = append(again.slots, slotOf(s.rowOf(), s.n))
			again.hs = append(again.hs, uint32(rowHash(s.rowOf())))
			again.bytes += dataflow.RowBytes(s.rowOf())
		}
		again.n = len(again.slots)
		clear(c.slots[again.n:])
		*c = fresh
		c.key = nil
		c.load(&again)
		return
	}
	c.freeMerged()
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
		return
	}
	if spare := cap(c.slots) - len(c.slots); spare > len(c.slots)/16 && spare > 1024 {
		// Fewer rows came than expected: the slab is cut to them, as the
		// state accounts every slot of its capacity.
		c.slots = slices.Clip(slices.Clone(c.slots))
	}
}

// freeMerged chains the slots that rows merged into equal ones left
// empty into the free list, lowest first.
func (c *counts) freeMerged() {
	if c.live == len(c.slots) {
		return
	}
	for i := len(c.slots) - 1; i >= 0; i-- {
		if c.slots[i].p == nil {
			c.slots[i].next = c.free
			c.free = int32(i)
		}
	}
}

// loadInOrder puts the rows of the slab, taken over from l, into the
// sized index in the order they came, and reports whether some weights
// summed to zero.
func (c *counts) loadInOrder(l *countsLoad) (cancelled bool) {
	x := &c.index
	for k := range c.slots {
		r := &c.slots[k]
		h := uint64(l.hs[k])
		p := c.probe(h, r.rowOf())
		if c.long {
			return false
		}
		c.total += r.n
		if s := x.tab[p].s; s != 0 {
			// A row seen before: the first one's slot keeps the sum.
			c.slots[s-1].n += r.n
			c.bytes -= dataflow.RowBytes(r.rowOf())
			cancelled = cancelled || c.slots[s-1].n == 0
			*r = countSlot{}
			continue
		}
		x.tab[p] = slotEntry{h: uint32(h), s: int32(k) + 1}
		x.n++
		c.live++
	}
	return cancelled
}
