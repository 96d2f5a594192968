package dataflow

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"github.com/tidwall/btree"
)

// run keeps the rows of one key of an arrangement with their weights, in
// the order of their entries (lessArr: the ord, then the row). It is a
// sorted slice while it holds up to maxSmallRun rows, which a search reads
// in a few cache lines and which costs no tree node, and a B-tree beyond.
// Most keys of a join index hold a few rows; the rows of a MIN/MAX group or
// of a top-k partition can be many.
type run struct {
	small []arrEntry // sorted, while tr is nil
	tr    *btree.BTreeG[arrEntry]
}

const maxSmallRun = 32

// runOverhead is a run's cost beyond its entries and its key's bytes: the
// run itself, and its slot in the arrangement's map (a string key and a
// pointer) at the swiss map's 7/8 load with half again of slack for its
// doubling.
const runOverhead = 32 + (16+8+1)*8/7*3/2

func cmpArr(a, b *arrEntry) int {
	if c := compareOrd(a, b); c != 0 {
		return c
	}
	return zset.CompareRows(a.row, b.row)
}

func (r *run) len() int {
	if r.tr != nil {
		return r.tr.Len()
	}
	return len(r.small)
}

// search returns where e's row is or would be in small.
func (r *run) search(e *arrEntry) (int, bool) {
	lo, hi := 0, len(r.small)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if cmpArr(&r.small[h], e) < 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(r.small) && cmpArr(&r.small[lo], e) == 0
}

// get returns the entry of e's row.
func (r *run) get(e *arrEntry) (arrEntry, bool) {
	if r.tr != nil {
		return r.tr.Get(*e)
	}
	if i, ok := r.search(e); ok {
		return r.small[i], true
	}
	return arrEntry{}, false
}

// add adds e.w to the weight of e's row, inserting the row (with its long
// ord copied) when absent and removing it when the weight reaches zero. It
// returns the weight before. hint is the caller's, so as not to allocate
// one per call.
func (r *run) add(e arrEntry, hint *btree.PathHint) int64 {
	if r.tr != nil {
		old, ok := r.tr.GetHint(e, hint)
		switch {
		case !ok:
			r.tr.SetHint(keepEntry(e), hint)
		case old.w+e.w == 0:
			r.tr.DeleteHint(old, hint)
		default:
			old.w += e.w
			r.tr.SetHint(old, hint)
		}
		return old.w
	}
	i, ok := r.search(&e)
	switch {
	case !ok:
		r.small = slices.Insert(r.small, i, keepEntry(e))
		if len(r.small) > maxSmallRun {
			r.tr = btree.NewBTreeGOptions(lessArr, btree.Options{NoLocks: true})
			for _, x := range r.small {
				r.tr.Load(x)
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

// keepEntry returns e with its long ord copied: the entry outlives the
// staging arena the ord was viewed in.
func keepEntry(e arrEntry) arrEntry {
	if e.n == longOrd {
		e.long = strings.Clone(e.long)
	}
	return e
}

// scan calls fn for each row in order (reversed when desc) until fn
// returns false, and reports whether fn never did.
func (r *run) scan(desc bool, fn func(row value.Row, w int64) bool) bool {
	more := true
	switch {
	case r.tr != nil:
		iter := func(e arrEntry) bool {
			more = fn(e.row, e.w)
			return more
		}
		if desc {
			r.tr.Reverse(iter)
		} else {
			r.tr.Scan(iter)
		}
	case desc:
		for i := len(r.small) - 1; i >= 0 && more; i-- {
			more = fn(r.small[i].row, r.small[i].w)
		}
	default:
		for i := 0; i < len(r.small) && more; i++ {
			more = fn(r.small[i].row, r.small[i].w)
		}
	}
	return more
}
