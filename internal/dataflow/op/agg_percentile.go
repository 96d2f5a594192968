package op

import (
	"math"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/tidwall/btree"
)

// percentileAcc is percentile_cont or percentile_disc (f) WITHIN GROUP
// (ORDER BY x): it keeps every non-NULL x of the group in the key's order,
// one element per occurrence (x, its ordinal among the equal elements), in
// a B-tree counted by position, so the value at a rank is read in
// O(log n) and a change costs O(log n) a row. A step's changes are staged
// in a copy of the tree (copy on write: O(log n) nodes a change), which
// commit keeps and abort drops.
//
// The fraction reads the input only through the group key (the binder
// checks it), so every row of a group gives the same: the last change
// seen fixes it. An entry's slot holds x, the key (x again), then the
// fraction.
type percentileAcc struct {
	spec *aggSpec
	tr   *btree.BTreeG[occEntry]
	f    value.Value // the fraction; unknown (Null) until a row comes
	size int64       // accounted bytes of the elements

	staged bool
	str    *btree.BTreeG[occEntry]
	sf     value.Value
	sbytes int64
}

// occEntry is one occurrence of a value: the i-th (from 0) of the
// elements that hold it, equal in the key's order and representation.
type occEntry struct {
	v value.Value
	i int64
}

// occOverhead is an element's cost beyond its value's: the entry and as
// much again of node slack.
const occOverhead = 2 * int64(unsafe.Sizeof(occEntry{}))

func newPercentileAcc(s *aggSpec) accum {
	a := &percentileAcc{spec: s}
	a.tr = btree.NewBTreeGOptions(a.less, btree.Options{NoLocks: true, Degree: 16})
	return a
}

// cmp orders values as the key does; equal values that print differently
// by representation, so that each element is kept as written.
func (a *percentileAcc) cmp(x, y value.Value) int {
	if c := compareSortKey(a.spec.OrderBy[0], x, y); c != 0 {
		return c
	}
	return value.CompareRepr(x, y)
}

func (a *percentileAcc) less(x, y occEntry) bool {
	if c := a.cmp(x.v, y.v); c != 0 {
		return c < 0
	}
	return x.i < y.i
}

// count returns the occurrences of v in tr.
func (a *percentileAcc) count(tr *btree.BTreeG[occEntry], v value.Value) int64 {
	var n int64
	tr.Descend(occEntry{v: v, i: math.MaxInt64}, func(e occEntry) bool {
		if a.cmp(e.v, v) == 0 {
			n = e.i + 1
		}
		return false
	})
	return n
}

func (a *percentileAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	f := a.f
	if len(ch) > 0 {
		f = ch[len(ch)-1].vals[2]
	}
	ch = netChanges(ch, compareValsReprs)
	tr, size := a.tr, a.size
	if len(ch) > 0 {
		tr = a.tr.Copy()
	}
	for _, x := range ch {
		v := x.vals[0]
		if v.IsNull() {
			continue
		}
		m := a.count(tr, v)
		if m+x.w < 0 {
			return value.Null, errNegativeCount()
		}
		each := dataflow.RowBytes(value.Row{v}) + occOverhead
		for i := m; i < m+x.w; i++ {
			tr.Set(occEntry{v: v, i: i})
			size += each
		}
		for i := m - 1; i >= m+x.w; i-- {
			tr.Delete(occEntry{v: v, i: i})
			size -= each
		}
	}
	a.staged, a.str, a.sf, a.sbytes = true, tr, f, size
	at := func(i int) value.Value {
		e, _ := tr.GetAt(i)
		return e.v
	}
	return plan.PercentileResult(a.spec.Func, a.spec.typ.Kind, f, tr.Len(), at)
}

func (a *percentileAcc) commit() {
	if a.staged {
		a.tr, a.f, a.size = a.str, a.sf, a.sbytes
	}
	a.abort()
}

func (a *percentileAcc) abort() { a.staged, a.str, a.sf, a.sbytes = false, nil, value.Null, 0 }

func (a *percentileAcc) bytes() int64 { return int64(unsafe.Sizeof(*a)) + a.size }
