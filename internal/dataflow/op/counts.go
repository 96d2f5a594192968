package op

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// counts is a multiset of rows, row → nonzero weight, the state of
// Distinct, SetOp and Integrate. It is a hash index (value.HashRow, or a
// key's hash (counts_keyed.go), cut to 32 bits → slot,
// see slotIndex) over a slab of (row, weight) slots: finding a row costs a
// hash and a cache miss or two whatever the size, where a B-tree costs a
// comparison per level, each a cache miss in a big tree, and a change to a
// view costs two or three of these. A slot costs one pointer (the row's
// backing array) and no allocation besides the row itself. Freed slots are
// reused. Ordered reads (scan) sort the rows: they read every row anyway,
// while changes, the hot path, need no order. Rows equal in SQL but printed
// differently (1.5 and 1.50) are entries apart with one hash, so one probe
// run finds them all (shown).
type counts struct {
	same  func(a, b value.Row) bool // row equality: as Z-set rows
	cmp   func(a, b value.Row) int  // the order scan reads in, consistent with same
	index slotIndex                 // row hash → slot
	slots []countSlot
	free  int32 // first free slot, -1 when none
	live  int
	total int64 // sum of weights
	bytes int64 // RowBytes of the rows held

	// key, when set, are the columns the rows are hashed by instead of
	// the whole row (counts_keyed.go); long, when set, says a probe met
	// more rows of one key than a key should have.
	key  []int
	long bool
}

// countSlot holds a row as its first value's address and its length, not
// as a slice: 24 bytes where a slice header made it 40.
type countSlot struct {
	p    *value.Value // the row's values; nil in a free slot
	n    int64
	cols int32 // the row's length
	next int32 // in a free slot, the next free slot, -1 at the end
}

// slotOf returns a slot holding row r with weight w.
func slotOf(r value.Row, w int64) countSlot {
	p := unsafe.SliceData(r)
	if p == nil {
		p = &noValues // a row of no columns is held too
	}
	return countSlot{p: p, n: w, cols: int32(len(r)), next: -1}
}

// noValues is where a slot's row of no columns points.
var noValues value.Value

// rowOf returns the slot's row; nil in a free slot.
func (s *countSlot) rowOf() value.Row {
	if s.p == nil {
		return nil
	}
	return unsafe.Slice(s.p, s.cols)
}

// zsetEqual reports whether a and b are one Z-set row. Rows made of the
// same values, bit for bit (a retraction built from the values of the row
// it retracts, the usual case: a view's old row from the table's old row
// and the other side's row), are one row without comparing each value by
// its kind, twice (zset.CompareRows compares the values, then their
// representations): a value is equal to itself under both.
func zsetEqual(a, b value.Row) bool {
	if len(a) == len(b) && sameValues(a, b) {
		return true
	}
	return zset.CompareRows(a, b) == 0
}

// sameValues reports whether a and b, of one length, hold the same
// values bit for bit.
func sameValues(a, b value.Row) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// newIdentityCounts returns counts whose rows are equal only when they
// are equal as Z-set rows (zset.CompareRows): the state of a multiset that
// must print exactly the rows it was given.
func newIdentityCounts() counts {
	return counts{same: zsetEqual, cmp: zset.CompareRows, free: -1}
}

// find returns r's hash and slot, -1 when absent.
func (c *counts) find(r value.Row) (uint64, int32) {
	h := c.hashOf(r)
	x := &c.index
	if x.tab == nil {
		return h, -1
	}
	// It marks no counts long (counts_keyed.go): readers call it, and
	// the steps' probes (findHashed) do the marking.
	for p := x.home(h); x.tab[p].s != 0; p = x.next(p) {
		if e := x.tab[p]; uint64(e.h) == h && c.same(c.slots[e.s-1].rowOf(), r) {
			return h, e.s - 1
		}
	}
	return h, -1
}

// probe returns the position in the index of the row equal to r (hash
// h), or of the empty entry its probe ends at.
func (c *counts) probe(h uint64, r value.Row) int {
	x := &c.index
	p, met := x.home(h), 0
	for ; x.tab[p].s != 0; p = x.next(p) {
		if e := x.tab[p]; uint64(e.h) == h {
			if c.same(c.slots[e.s-1].rowOf(), r) {
				break
			}
			met++
		}
	}
	if met > longKey {
		c.long = true
	}
	return p
}

// shown returns the first representation (value.CompareRepr) with a
// positive weight among the rows held equal to r under value.CompareRows
// (one per representation, in an identity multiset), and their total
// weight, before and after adding delta: rows equal to r, consolidated. A
// representation is nil when none is positive. It costs a hash, and a
// probe per representation held.
func (c *counts) shown(r value.Row, delta zset.ZSet) (oldRep value.Row, oldN int64, newRep value.Row, newN int64) {
	// The rows compared are all equal to r: only their representations
	// differ.
	first := func(rep, row value.Row, w int64) value.Row {
		if w > 0 && (rep == nil || value.CompareReprs(row, rep) < 0) {
			return row
		}
		return rep
	}
	var matched uint64 // delta's first 64 entries found held
	h := c.hashOf(r)
	if x := &c.index; x.tab != nil {
		for p := x.home(h); x.tab[p].s != 0; p = x.next(p) {
			e := x.tab[p]
			if uint64(e.h) != h {
				continue
			}
			s := &c.slots[e.s-1]
			if value.CompareRows(s.rowOf(), r) != 0 {
				continue
			}
			w := s.n
			for k, d := range delta {
				if value.CompareReprs(d.Row, s.rowOf()) == 0 {
					w += d.W
					if k < 64 {
						matched |= 1 << k
					}
					break
				}
			}
			oldN += s.n
			newN += w
			oldRep, newRep = first(oldRep, s.rowOf(), s.n), first(newRep, s.rowOf(), w)
		}
	}
	for k, d := range delta {
		if k < 64 && matched&(1<<k) != 0 || k >= 64 && c.get(d.Row) != 0 {
			continue
		}
		newN += d.W
		newRep = first(newRep, d.Row, d.W)
	}
	return oldRep, oldN, newRep, newN
}

// weightAt returns the weight in slot i, 0 for -1.
func (c *counts) weightAt(i int32) int64 {
	if i < 0 {
		return 0
	}
	return c.slots[i].n
}

// get returns r's weight, 0 when absent.
func (c *counts) get(r value.Row) int64 {
	if _, i := c.find(r); i >= 0 {
		return c.slots[i].n
	}
	return 0
}

// add adds w to r's weight, removing r when it reaches zero.
func (c *counts) add(r value.Row, w int64) {
	h, i := c.find(r)
	c.addAt(h, i, r, w)
}

// addAt is add for a row find has located at slot i (-1: absent) under
// hash h, with no change to the counts since.
func (c *counts) addAt(h uint64, i int32, r value.Row, w int64) {
	c.total += w
	switch {
	case i < 0:
		c.insert(h, r, w)
	case c.slots[i].n+w == 0:
		c.remove(h, i)
	default:
		c.slots[i].n += w
	}
}

// grow makes room for n more rows: a big step (a cold start's) then
// fills the slab and the index without growing them row by row.
func (c *counts) grow(n int) {
	if free := cap(c.slots) - len(c.slots); n > free && c.free < 0 {
		c.slots = slices.Grow(c.slots, max(n, len(c.slots)))
	}
	c.index.reserve(n)
}

func (c *counts) insert(h uint64, r value.Row, w int64) {
	s := slotOf(r, w)
	i := c.free
	if i >= 0 {
		c.free = c.slots[i].next
		c.slots[i] = s
	} else {
		i = int32(len(c.slots))
		c.slots = append(c.slots, s)
	}
	c.index.insert(h, i)
	c.live++
	c.bytes += dataflow.RowBytes(r)
}

func (c *counts) remove(h uint64, i int32) {
	c.bytes -= dataflow.RowBytes(c.slots[i].rowOf())
	c.index.delete(h, i)
	c.slots[i] = countSlot{next: c.free}
	c.free = i
	c.live--
}

// compact rebuilds the slab once three quarters of it are free slots (and
// drops it when no row is left), so that a multiset that shrank gives its
// memory back; the rebuild is paid for by the removals that freed them. Its owner calls it between steps:
// it moves every row to a new slot.
func (c *counts) compact() {
	if c.live == 0 && c.slots != nil {
		c.slots, c.free, c.index = nil, -1, slotIndex{}
		return
	}
	if len(c.slots) < 1024 || c.live > len(c.slots)/4 {
		return
	}
	old := c.slots
	c.slots = make([]countSlot, 0, c.live)
	c.index = slotIndex{}
	c.free = -1
	for _, s := range old {
		if s.p == nil {
			continue
		}
		c.index.insert(c.hashOf(s.rowOf()), int32(len(c.slots)))
		c.slots = append(c.slots, slotOf(s.rowOf(), s.n))
	}
}

// state reports the rows held and their bytes: the rows (less the slice
// headers the slots hold), the whole slab, free slots and spare capacity
// included, and the index.
func (c *counts) state() dataflow.StateSize {
	n := int64(c.live)
	slab := int64(cap(c.slots)) * int64(unsafe.Sizeof(countSlot{}))
	return dataflow.StateSize{Rows: n, Bytes: c.bytes - n*int64(unsafe.Sizeof(value.Row(nil))) + slab + c.index.bytes()}
}

// scan calls fn for each row held, with its weight, in c.cmp order, until
// fn returns false. It sorts the rows: O(rows · log rows).
func (c *counts) scan(fn func(r value.Row, w int64) bool) {
	order := make([]int32, 0, c.live)
	for i := range c.slots {
		if c.slots[i].p != nil {
			order = append(order, int32(i))
		}
	}
	slices.SortFunc(order, func(a, b int32) int { return c.cmp(c.slots[a].rowOf(), c.slots[b].rowOf()) })
	for _, i := range order {
		if !fn(c.slots[i].rowOf(), c.slots[i].n) {
			return
		}
	}
}

// String prints the multiset as a Z-set.
func (c *counts) String() string {
	var b strings.Builder
	c.scan(func(r value.Row, w int64) bool {
		if w > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.FormatInt(w, 10))
		b.WriteByte(' ')
		b.WriteString(zset.FormatRow(r))
		b.WriteByte('\n')
		return true
	})
	return b.String()
}
