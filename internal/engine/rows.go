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
// back into slabs in id order (see table.layout).
type rowStore struct {
	rows  []value.Row // rows[id]; nil is a hole (id 0 is never used)
	n     int         // rows held
	moved int         // rows replaced since the last layout
}

func newRowStore() *rowStore { return &rowStore{rows: make([]value.Row, 1)} }

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
	if s.rows[id] == nil {
		s.n++
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

// layout copies the rows, in id order, into slabs, each row's values in
// place of its own allocation, so that a pass in id order reads memory in
// order again. The values are the same: a row is never changed in place,
// so whatever still refers to the former copies (the integer key indexes,
// which table.layout points at the new ones, a view's state, a delta) reads
// the same row, and the former copies are collected when nothing does.
//
// The rows are copied in the order of their addresses, not of their ids:
// read in id order, each would be a cache and TLB miss, one after the
// other; read by address, the reads go through memory in order, a page
// after another, and the writes, scattered over the new slabs, wait in the
// store buffer rather than stall the copy.
func (s *rowStore) layout() {
	rows := make([]value.Row, len(s.rows), cap(s.rows))
	// Two halves of the ids on two goroutines, when there are many: each
	// writes its own slabs and its own part of rows.
	if half := len(rows) / 2; half >= 1<<16 && runtime.GOMAXPROCS(0) > 1 {
		var wg sync.WaitGroup
		wg.Go(func() { layoutRows(rows[half:], s.rows[half:]) })
		layoutRows(rows[:half], s.rows[:half])
		wg.Wait()
	} else {
		layoutRows(rows, s.rows)
	}
	s.rows, s.moved = rows, 0
}

// layoutRows sets dst[i] to a copy of src[i] in new slabs, in order.
//
// A row whose values are all flat (value.Value.FlatBytes: no pointer but,
// perhaps, to a string's bytes) is copied with its values' bytes after its
// values into a slab the garbage collector does not scan (flatSlab): the
// collector then marks the slab once, from whichever row refers to it,
// where it read every value of every row and followed each string's
// pointer to an allocation of its own, a cache miss each. Other rows are
// copied into slabs of values, which it scans.
func layoutRows(dst, src []value.Row) {
	order := addressOrder(src)
	// Each row's size in a flat slab, read in the order of the addresses
	// (value.FlatBytes reads the values' headers, not their bytes), then
	// the rows placed in id order, then copied in the order of the
	// addresses again.
	words := make([]int32, len(src))
	for _, i := range order {
		words[i] = flatWords(src[i])
	}
	var slab []value.Value
	var flat flatSlab
	for i, r := range src {
		switch {
		case len(r) == 0:
			dst[i] = r
		case words[i] >= 0:
			dst[i] = flat.cut(len(r), int(words[i]))
		default:
			if cap(slab)-len(slab) < len(r) {
				slab = make([]value.Value, 0, max(slabValues, len(r)))
			}
			j := len(slab)
			slab = slab[:j+len(r)]
			dst[i] = slab[j:len(slab):len(slab)]
		}
	}
	for _, i := range order {
		if words[i] >= 0 {
			copyFlat(dst[i], src[i])
		} else {
			copy(dst[i], src[i])
		}
	}
}

// addressOrder returns the indexes of the rows of src that have values,
// in the order of their addresses, to within 64 KB: a counting sort by
// block (within a block the order does not matter: it fits the cache and
// a few TLB entries).
func addressOrder(src []value.Row) []int {
	lo, hi := ^uintptr(0), uintptr(0)
	for _, r := range src {
		if len(r) > 0 {
			a := uintptr(unsafe.Pointer(&r[0]))
			lo, hi = min(lo, a), max(hi, a)
		}
	}
	if lo > hi { // no row with values
		return nil
	}
	shift := uint(16)
	for (hi-lo)>>shift > uintptr(max(len(src), 1<<12)) {
		shift++
	}
	starts := make([]int, (hi-lo)>>shift+2)
	for _, r := range src {
		if len(r) > 0 {
			starts[(uintptr(unsafe.Pointer(&r[0]))-lo)>>shift+1]++
		}
	}
	for b := 1; b < len(starts); b++ {
		starts[b] += starts[b-1]
	}
	order := make([]int, starts[len(starts)-1])
	for i, r := range src {
		if len(r) > 0 {
			b := (uintptr(unsafe.Pointer(&r[0])) - lo) >> shift
			order[starts[b]] = i
			starts[b]++
		}
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
	var buf [64]byte
	for _, u := range t.uniques {
		if u.ints == nil { // holds ids only
			continue
		}
		t.rows.Scan(func(id uint64, row value.Row) bool {
			if k, ok := u.key(row, buf[:0]); ok {
				u.set(k, id, row)
			}
			return true
		})
	}
	for _, ix := range t.indexes {
		ix.ord.repoint(t.rows)
	}
	for _, ix := range t.keyOrders {
		ix.ord.repoint(t.rows)
	}
}
