package op

import "unsafe"

// slotIndex is counts' hash index: an open-addressing table from a row's
// hash to its slot in the slab, with linear probing. An entry is 8 bytes,
// the hash's 32 bits and the slot, so a probe reads one cache line where a
// Go map reads its control word and then its slot, and eight entries share
// a line; a hash shared by two rows costs a comparison of the rows. Each row has its own entry
// (rows whose hashes collide sit side by side), and a deletion shifts the
// entries after it back, so there are no tombstones. The table doubles
// past three quarters full.
type slotIndex struct {
	tab []slotEntry // power-of-two length, or nil
	n   int
}

type slotEntry struct {
	h uint32 // the row's hash: counts hash to 32 bits (counts.hashOf)
	s int32  // the slot plus one; 0 is an empty entry
}

// next returns the position after p.
func (x *slotIndex) next(p int) int { return (p + 1) & (len(x.tab) - 1) }

// home returns where an entry of hash h is first looked for.
func (x *slotIndex) home(h uint64) int { return int(h & uint64(len(x.tab)-1)) }

// insert adds slot under h.
func (x *slotIndex) insert(h uint64, slot int32) {
	if 4*(x.n+1) > 3*len(x.tab) {
		x.resize(max(16, 2*len(x.tab)))
	}
	x.put(slotEntry{h: uint32(h), s: slot + 1})
	x.n++
}

// reserve sizes the table for n more entries at once.
func (x *slotIndex) reserve(n int) {
	if 4*(x.n+n) <= 3*len(x.tab) {
		return
	}
	size := max(16, 2*len(x.tab))
	for 4*(x.n+n) > 3*size {
		size *= 2
	}
	x.resize(size)
}

// put stores e at the first empty position of its probe run.
func (x *slotIndex) put(e slotEntry) {
	p := x.home(uint64(e.h))
	for x.tab[p].s != 0 {
		p = x.next(p)
	}
	x.tab[p] = e
}

// delete removes the entry of slot under h, which must be there.
func (x *slotIndex) delete(h uint64, slot int32) {
	p := x.home(h)
	for x.tab[p].s != slot+1 {
		p = x.next(p)
	}
	// Shift back each following entry of the probe run that may sit at p:
	// one whose home is not cyclically in (p, q].
	for q := x.next(p); x.tab[q].s != 0; q = x.next(q) {
		home := x.home(uint64(x.tab[q].h))
		if p <= q && (p < home && home <= q) || p > q && (p < home || home <= q) {
			continue
		}
		x.tab[p] = x.tab[q]
		p = q
	}
	x.tab[p] = slotEntry{}
	x.n--
}

// resize moves the entries to a table of size entries (a power of two).
func (x *slotIndex) resize(size int) {
	old := x.tab
	x.tab = make([]slotEntry, size)
	for _, e := range old {
		if e.s != 0 {
			x.put(e)
		}
	}
}

// bytes returns the table's size.
func (x *slotIndex) bytes() int64 { return int64(len(x.tab)) * int64(unsafe.Sizeof(slotEntry{})) }
