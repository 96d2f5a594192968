package op

import (
	"slices"
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// findAll appends to at each row of z's hash and slot, as find gives them
// (slot -1: absent).
func (c *counts) findAll(z zset.ZSet, at []slotRef) []slotRef {
	tab := c.index.tab
	if tab == nil {
		for _, e := range z {
			at = append(at, slotRef{c.hashOf(e.Row), -1})
		}
		return at
	}
	if len(z) < minGrouped {
		for _, e := range z {
			h := c.hashOf(e.Row)
			at = append(at, slotRef{h, c.findHashed(h, e.Row)})
		}
		return at
	}
	base := len(at)
	at = slices.Grow(at, len(z))[:base+len(z)]
	c.findInto(z, at[base:], &c.long)
	return at
}

// findInto sets refs[k] to the hash and slot of z[k], as find gives them
// (slot -1: absent), a group of entries at a time, and sets *long when a
// probe meets more rows of one hash than a key should have. It only reads
// the counts: parts of one batch may be found at once, each with its own
// refs and long (integrate_split.go).
func (c *counts) findInto(z zset.ZSet, refs []slotRef, long *bool) {
	tab := c.index.tab
	for k, e := range z {
		refs[k] = slotRef{h: c.hashOf(e.Row), i: -1}
	}
	mask := uint64(len(tab) - 1)
	var sink uintptr
	for g := 0; g < len(refs); g += groupSize {
		grp := refs[g:min(g+groupSize, len(refs))]
		for _, r := range grp {
			sink += uintptr(tab[r.h&mask].s)
		}
		for _, r := range grp {
			if e := tab[r.h&mask]; e.s != 0 && uint64(e.h) == r.h {
				sink += uintptr(unsafe.Pointer(c.slots[e.s-1].p))
			}
		}
		for _, r := range grp {
			if e := tab[r.h&mask]; e.s != 0 && uint64(e.h) == r.h {
				sink += touchRow(c.slots[e.s-1].rowOf())
			}
		}
		for k := range grp {
			grp[k].i = c.findHashedIn(grp[k].h, z[g+k].Row, long)
		}
	}
	touched.Store(sink)
}

// findHashed is find for a row whose hash h is known.
func (c *counts) findHashed(h uint64, r value.Row) int32 {
	return c.findHashedIn(h, r, &c.long)
}

// findHashedIn is findHashed, marking *long rather than the counts.
func (c *counts) findHashedIn(h uint64, r value.Row, long *bool) int32 {
	x := &c.index
	met := 0
	for p := x.home(h); x.tab[p].s != 0; p = x.next(p) {
		if e := x.tab[p]; uint64(e.h) == h {
			if c.same(c.slots[e.s-1].rowOf(), r) {
				return e.s - 1
			}
			met++
		}
	}
	if met > longKey {
		*long = true
	}
	return -1
}

// addAll adds each entry of z to the counts, at the hash and slot at
// gives it (findAll's, with no change to the counts since; z is
// consolidated, so that adding one entry moves no other's slot). A big
// batch first loads, a group at a time, what addAt reads and writes: the
// slot of a row held (and the row, which a removal measures), or the index
// entry at the home of a row to insert. Between Step and Commit the other
// operators of the circuit have run, and the cache no longer holds what
// findAll found.
func (c *counts) addAll(z zset.ZSet, at []slotRef) {
	tab := c.index.tab
	if len(z) < minGrouped || tab == nil {
		for k := 0; k < len(z); k++ {
			if c.addPair(z, at, k) {
				k++
				continue
			}
			c.addAt(at[k].h, at[k].i, z[k].Row, z[k].W)
		}
		return
	}
	mask := uint64(len(tab) - 1)
	var sink uintptr
	for g := 0; g < len(z); {
		end := min(g+groupSize, len(z))
		grp := at[g:end]
		for _, r := range grp {
			if r.i >= 0 {
				sink += uintptr(unsafe.Pointer(c.slots[r.i].p))
			} else {
				sink += uintptr(tab[r.h&mask].s)
			}
		}
		for _, r := range grp {
			if r.i >= 0 {
				sink += touchRow(c.slots[r.i].rowOf()) + uintptr(tab[r.h&mask].s)
			}
		}
		k := g
		for ; k < end; k++ {
			if c.addPair(z, at, k) {
				// The pair's second row may open the next group, which
				// then starts after it.
				k++
				continue
			}
			c.addAt(at[k].h, at[k].i, z[k].Row, z[k].W)
		}
		g = k
	}
	touched.Store(sink)
}
