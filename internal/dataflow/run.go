package dataflow

import (
	"slices"
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
)

// run keeps the rows of one key of an arrangement with their weights, in
// the arrangement's order (Arrangement.cmp). It is a sorted slice while it
// holds up to maxSmallRun rows, which a search reads in a few cache lines
// and which costs no tree node, and a B+tree beyond (prefixTree). Most keys
// of a join index hold a few rows; the rows of a MIN/MAX group or of a
// top-k partition can be many.
type run struct {
	small []arrEntry // sorted, while tr is nil
	tr    *prefixTree
}

const maxSmallRun = 32

// runOverhead is a run's cost beyond its entries and its key's bytes: the
// run itself, and its slot in the arrangement's map (a string key and a
// pointer) at the swiss map's 7/8 load with half again of slack for its
// doubling.
const runOverhead = intRunOverhead + (16+8+1)*8/7*3/2

// intRunOverhead is a run's cost in the map by integer key beyond the
// map's own (intmap.Map.Bytes): the run itself.
const intRunOverhead = int64(unsafe.Sizeof(run{}))

func (r *run) len() int {
	if r.tr != nil {
		return r.tr.len()
	}
	return len(r.small)
}

// storeBytes is the memory holding the run's entries: the slice's backing
// array, or the tree's nodes.
func (r *run) storeBytes() int64 {
	if r.tr != nil {
		return r.tr.storeBytes()
	}
	return int64(cap(r.small)) * int64(unsafe.Sizeof(arrEntry{}))
}

// reserve makes room for n more entries in a small run that stays small,
// exactly, so that a batch (a cold start) does not leave the slack of
// doubling in every run: a quarter of the entries' memory on average. It
// returns the bytes added.
func (r *run) reserve(n int) int64 {
	if r.tr != nil || n < 2 || len(r.small)+n > maxSmallRun || cap(r.small) >= len(r.small)+n {
		return 0
	}
	before := r.storeBytes()
	small := make([]arrEntry, len(r.small), len(r.small)+n)
	copy(small, r.small)
	r.small = small
	return r.storeBytes() - before
}

// search returns where e's row is or would be in small.
func (r *run) search(a *Arrangement, e *arrEntry) (int, bool) {
	lo, hi := 0, len(r.small)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if a.cmp(&r.small[h], e) < 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(r.small) && a.cmp(&r.small[lo], e) == 0
}

// get returns the entry of e's row.
func (r *run) get(a *Arrangement, e *arrEntry) (arrEntry, bool) {
	if r.tr != nil {
		return r.tr.get(a, e)
	}
	if i, ok := r.search(a, e); ok {
		return r.small[i], true
	}
	return arrEntry{}, false
}

// add adds e.w to the weight of e's row in a's run, inserting the row when
// absent and removing it when the weight reaches zero. It returns the
// weight before.
func (r *run) add(a *Arrangement, e arrEntry) int64 {
	if r.tr != nil {
		return r.tr.add(a, e)
	}
	i, ok := r.search(a, &e)
	switch {
	case !ok:
		r.small = slices.Insert(r.small, i, e)
		if len(r.small) > maxSmallRun {
			r.tr = newPrefixTree()
			for _, x := range r.small {
				r.tr.add(a, x)
			}
			r.small = nil
		}
		return 0
	case r.small[i].w+e.w == 0:
		r.small = slices.Delete(r.small, i, i+1)
		return -e.w
	}
	r.small[i].w += e.w
	return r.small[i].w - e.w
}

// addFrom is add for the entries of a batch in order: a tree finds each
// from the last one's descent, kept in f (zero for the batch's first entry
// in the run).
func (r *run) addFrom(a *Arrangement, e arrEntry, f *ptFinger) int64 {
	if r.tr != nil {
		return r.tr.addFrom(a, e, f)
	}
	return r.add(a, e)
}

// scan calls fn for each row in order (reversed when desc) until fn
// returns false, and reports whether fn never did.
func (r *run) scan(desc bool, fn func(row value.Row, w int64) bool) bool {
	more := true
	switch {
	case r.tr != nil:
		more = r.tr.scan(desc, fn)
	case desc:
		for i := len(r.small) - 1; i >= 0 && more; i-- {
			more = fn(r.small[i].row(), r.small[i].w)
		}
	default:
		for i := 0; i < len(r.small) && more; i++ {
			more = fn(r.small[i].row(), r.small[i].w)
		}
	}
	return more
}
