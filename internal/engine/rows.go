package engine

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
)

// rowStore holds a table's rows by row id, in id order (insertion order):
// a slice indexed by id, so that reaching a row by id costs one memory
// access however large the table, where a tree costs a descent. A deleted
// row leaves a hole; compact closes the holes when they outnumber the
// rows.
//
// A replaced row's values are a new allocation, placed wherever the
// allocator finds room: after many replaces by random key, rows adjacent
// in id order lie all over the heap, and a pass over the table in id
// order (every cold start's, and every bulk load's) misses the cache and
// the TLB on nearly every row, where over a freshly loaded table it reads
// memory in order. moved counts those replaces; layout copies the rows
// that moved back into slabs in id order (see table.layout).
//
// at tells which rows have moved without the writers saying so: at[id]
// is where rows[id]'s values lay when the row was inserted or last laid
// out (their address over 8, its low 32 bits). A replace, by whatever
// path it writes the slot, puts a row elsewhere, and the row no longer
// matches. A false match (a new row at the very address of the one it
// replaced) only leaves that row where it is: it is the row all the
// same.
type rowStore struct {
	rows  []value.Row // rows[id]; nil is a hole (id 0 is never used)
	at    []uint32    // at[id]: where rows[id] lay when it was put in place
	n     int         // rows held
	moved int         // rows replaced since the last layout
	// slabbed[id/64] bit id%64: rows[id] was put in place by a layout,
	// in a slab that its other rows keep alive once it is replaced.
	slabbed []uint64
	// dead counts the rows copied out of a slab since the last layout
	// of them all: at most the rows whose room their slabs still hold.
	dead int
}

func newRowStore() *rowStore {
	return &rowStore{rows: make([]value.Row, 1), at: make([]uint32, 1)}
}

// addrKey returns the key at records for a row: the address of its values
// over 8, its low 32 bits; 0 for a row of no values.
func addrKey(r value.Row) uint32 {
	if len(r) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(&r[0])) >> 3)
}

// Get returns the row with id.
func (s *rowStore) Get(id uint64) (value.Row, bool) {
	if id >= uint64(len(s.rows)) || s.rows[id] == nil {
		return nil, false
	}
	return s.rows[id], true
}

// Set stores row under id.
func (s *rowStore) Set(id uint64, row value.Row) {
	if row == nil {
		row = value.Row{} // a row of no columns is still a row
	}
	for uint64(len(s.rows)) <= id {
		s.rows = append(s.rows, nil)
	}
	for len(s.at) < len(s.rows) {
		s.at = append(s.at, 0)
	}
	if s.rows[id] == nil {
		s.n++
		s.at[id] = addrKey(row) // a row inserted is where it is meant to be
	} else {
		s.moved++
	}
	s.rows[id] = row
}

// Delete removes the row with id and returns it.
func (s *rowStore) Delete(id uint64) (value.Row, bool) {
	row, ok := s.Get(id)
	if ok {
		s.rows[id] = nil
		s.n--
	}
	return row, ok
}

// Len returns the number of rows held.
func (s *rowStore) Len() int { return s.n }

// Scan calls fn for each row in id order until fn returns false.
func (s *rowStore) Scan(fn func(id uint64, row value.Row) bool) {
	for id, r := range s.rows {
		if r != nil && !fn(uint64(id), r) {
			return
		}
	}
}

// grow makes room for n more ids.
func (s *rowStore) grow(n int) {
	if cap(s.rows)-len(s.rows) < n {
		rows := make([]value.Row, len(s.rows), len(s.rows)+n)
		copy(rows, s.rows)
		s.rows = rows
	}
	if cap(s.at)-len(s.at) < n {
		at := make([]uint32, len(s.at), len(s.at)+n)
		copy(at, s.at)
		s.at = at
	}
}

// scattered reports whether enough rows have been replaced since the last
// layout (or the load) that a pass in id order is worth a layout first:
// an eighth of the rows, so that a layout, about the cost of one pass over
// scattered rows, is paid back by the passes of one cold start.
func (s *rowStore) scattered() bool {
	return s.moved >= minLayout && s.moved >= s.n/8
}

// minLayout is the fewest replaced rows worth a layout: below it, the
// rows out of place fit the cache.
const minLayout = 1 << 12

// slabValues is how many values a layout's slab holds: 8 KB, so that a
// slab stays alive no longer than its rows do by much (a row still
// referred to elsewhere, in a view's state, keeps its whole slab), and a
// pass in id order reads a page after another.
const slabValues = 8192 / int(unsafe.Sizeof(value.Value{}))

// layout copies the rows that are not where they were put (at), in id
// order, into new slabs, each row's values in place of its own
// allocation, so that a pass in id order reads memory in order again:
// the rows left in place, and the copies, each in id order, two streams
// that the caches prefetch. It returns the ids of the rows copied. The
// values are the same: a row is never changed in place, so whatever still
// refers to the former copies (the ordered indexes, which table.layout
// points at the new ones, a view's state, a delta) reads the same row,
// and the former copies are collected when nothing does.
//
// A row left in place keeps its slab alive, and with it the room of the
// rows of that slab that moved: once the rows copied out of a former
// layout's slabs since the last layout of them all (dead) would pass half
// the rows, every row is copied, and the former slabs are freed. A row
// copied from an allocation of its own (a row inserted, then replaced)
// leaves no such room: its former copy is freed with it.
//
// The rows are copied in the order of their addresses, not of their ids:
// read in id order, each would be a cache and TLB miss, one after the
// other; read by address, the reads go through memory in order, a page
// after another, and the writes, scattered over the new slabs, wait in the
// store buffer rather than stall the copy.
func (s *rowStore) layout() []int32 {
	l := s.planLayout()
	l.copyRows(s.rows, runtime.GOMAXPROCS(0))
	s.install(l)
	return l.ids
}

// rowLayout is one layout's work: the rows to copy, and what the store's
// count of rows left in former slabs becomes. planLayout only reads the
// store; copyRows puts the copies in its rows, install records them.
type rowLayout struct {
	ids  []int32 // the rows to copy, ascending
	dead int
}

// planLayout returns the rows a layout copies: those that moved, or every
// row once the rows copied out of former slabs would pass half of them.
//
// moved counts replaces, not rows: after a history of changes it is many
// times the rows (24M replaces of a table of 1M rows), and a list sized by
// it would reserve that many ids (a hundred MB, counted towards the
// collector's goal) for at most the rows held. The list takes at most
// the rows held, and serves again for every row.
func (s *rowStore) planLayout() *rowLayout {
	ids := s.ids(make([]int32, 0, min(s.moved+s.moved/8, s.n)), true)
	dead := s.dead
	for _, id := range ids {
		if int(id)/64 < len(s.slabbed) && s.slabbed[id/64]&(1<<(id%64)) != 0 {
			dead++
		}
	}
	if dead > s.n/2 {
		if cap(ids) < s.n {
			ids = make([]int32, 0, s.n)
		}
		return &rowLayout{ids: s.ids(ids[:0], false)}
	}
	return &rowLayout{ids: ids, dead: dead}
}

// ids appends to dst the ids of the rows held, only those that moved if
// moved is set.
func (s *rowStore) ids(dst []int32, moved bool) []int32 {
	for id, r := range s.rows {
		if len(r) > 0 && (!moved || s.at[id] != addrKey(r)) {
			dst = append(dst, int32(id))
		}
	}
	return dst
}

// copyRows replaces the rows of l.ids in rows by copies in new slabs
// (layoutRows): with workers over 1 and many rows, two halves of the ids
// on two goroutines, each reading and writing its own rows and slabs.
func (l *rowLayout) copyRows(rows []value.Row, workers int) {
	if half := len(l.ids) / 2; half >= 1<<15 && workers > 1 {
		var wg sync.WaitGroup
		wg.Go(func() { layoutRows(rows, l.ids[half:]) })
		layoutRows(rows, l.ids[:half])
		wg.Wait()
	} else {
		layoutRows(rows, l.ids)
	}
}

// install records l's copies, put in place by copyRows, as laid out.
func (s *rowStore) install(l *rowLayout) {
	if words := (len(s.rows) + 63) / 64; len(s.slabbed) < words {
		s.slabbed = append(s.slabbed, make([]uint64, words-len(s.slabbed))...)
	}
	for _, id := range l.ids {
		s.at[id] = addrKey(s.rows[id])
		s.slabbed[id/64] |= 1 << (id % 64)
	}
	s.dead = l.dead
	s.moved = 0
}

// layoutRows replaces rows[id], for each id of ids (ascending), by a copy
// in new slabs, in the order of ids.
//
// A row whose values are all flat (value.Value.FlatBytes: no pointer but,
// perhaps, to a string's bytes) is copied with its values' bytes after its
// values into a slab the garbage collector does not scan (flatSlab): the
// collector then marks the slab once, from whichever row refers to it,
// where it read every value of every row and followed each string's
// pointer to an allocation of its own, a cache miss each. Other rows are
// copied into slabs of values, which it scans.
//
// The passes in the order of the addresses read each row through its
// entry in addressOrder's list, which holds where the row's values are,
// not through rows[ids[j]]: the table's slice of rows (24 bytes an id) read
// in that order would be a cache miss a row of its own. The rows are
// pointed at their copies at the end, in id order.
func layoutRows(rows []value.Row, ids []int32) {
	order := addressOrder(rows, ids)
	// Each row's size in a flat slab, read in the order of the addresses
	// (value.FlatBytes reads the values' headers, not their bytes), then
	// the rows placed in id order, then copied in the order of the
	// addresses again. Between the last two passes a row's place is kept
	// as where its copy's values start (at[j]), a word where a row would
	// take three: the copy's length is the row's.
	words := make([]int32, len(ids))
	for _, o := range order {
		words[o.j] = flatWords(o.row())
	}
	at := make([]unsafe.Pointer, len(ids))
	var slab []value.Value
	var flat flatSlab
	for j, id := range ids {
		n := len(rows[id])
		if words[j] >= 0 {
			at[j] = unsafe.Pointer(unsafe.SliceData(flat.cut(n, int(words[j]))))
			continue
		}
		if cap(slab)-len(slab) < n {
			slab = make([]value.Value, 0, max(slabValues, n))
		}
		k := len(slab)
		slab = slab[:k+n]
		at[j] = unsafe.Pointer(&slab[k])
	}
	// The slabs are allocated, not yet written: a big build asking for
	// huge pages has them for the room the heap has just grown into.
	hugeHeap.grow()
	for _, o := range order {
		r := o.row()
		dst := unsafe.Slice((*value.Value)(at[o.j]), len(r))
		if words[o.j] >= 0 {
			copyFlat(dst, r)
		} else {
			copy(dst, r)
		}
	}
	for j, id := range ids {
		rows[id] = unsafe.Slice((*value.Value)(at[j]), len(rows[id]))
	}
}

// rowAt is a row of a layout, as addressOrder lists it: where its values
// are, how many, and its index j in the layout's ids.
type rowAt struct {
	p    unsafe.Pointer
	n, j int32
}

// row returns the row o lists.
func (o rowAt) row() value.Row { return unsafe.Slice((*value.Value)(o.p), o.n) }

// addressOrder returns the rows of src of ids, which all have values, in
// the order of their addresses, to within 64 KB: a counting sort by block
// (within a block the order does not matter: it fits the cache and a few
// TLB entries).
func addressOrder(src []value.Row, ids []int32) []rowAt {
	if len(ids) == 0 {
		return nil
	}
	lo, hi := ^uintptr(0), uintptr(0)
	for _, id := range ids {
		a := uintptr(unsafe.Pointer(&src[id][0]))
		lo, hi = min(lo, a), max(hi, a)
	}
	shift := uint(16)
	for (hi-lo)>>shift > uintptr(max(len(ids), 1<<12)) {
		shift++
	}
	starts := make([]int32, (hi-lo)>>shift+2)
	for _, id := range ids {
		starts[(uintptr(unsafe.Pointer(&src[id][0]))-lo)>>shift+1]++
	}
	for b := 1; b < len(starts); b++ {
		starts[b] += starts[b-1]
	}
	order := make([]rowAt, len(ids))
	for j, id := range ids {
		r := src[id]
		p := unsafe.Pointer(&r[0])
		b := (uintptr(p) - lo) >> shift
		order[starts[b]] = rowAt{p: p, n: int32(len(r)), j: int32(j)}
		starts[b]++
	}
	return order
}

// layout lays the table's rows out in id order again when replaces have
// scattered them (rowStore.layout), and points the indexes that hold rows
// at their new places, so that the former copies are not kept alive by
// the table itself. Only between transactions' changes: the caller holds
// the engine's lock.
func (t *table) layout() {
	if !t.rows.scattered() {
		return
	}
	t.rows.layout()
	t.repoint()
}

// repoint points the indexes that hold rows at the rows laid out anew.
// The keys' indexes hold ids only (rowRef), which a layout keeps.
func (t *table) repoint() {
	for _, ix := range t.indexes {
		ix.ord.repoint(t.rows)
	}
	for _, ix := range t.keyOrders {
		ix.ord.repoint(t.rows)
	}
}
