package op

import (
	"slices"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/tidwall/btree"
)

// The multiset aggregates keep per group every distinct value (with, for
// string_agg and array_agg, its separator and order keys) and its
// multiplicity, in a B-tree: a change costs O(log n), and the state is
// O(input). Retracting one occurrence of a value leaves the others.

// msEntry is one distinct element of a group's multiset.
type msEntry struct {
	vals []value.Value
	n    int64
}

// multiset is a B-tree of elements with nonzero multiplicities and their
// accounted bytes.
type multiset struct {
	tr    *btree.BTreeG[msEntry]
	bytes int64
}

func newMultiset(cmp func(a, b []value.Value) int) multiset {
	return multiset{tr: btree.NewBTreeGOptions(func(a, b msEntry) bool { return cmp(a.vals, b.vals) < 0 },
		btree.Options{NoLocks: true, Degree: 8})}
}

func (m *multiset) get(vals []value.Value) int64 {
	e, _ := m.tr.Get(msEntry{vals: vals})
	return e.n
}

// add adds w to the multiplicity of vals, copying vals when it is new.
func (m *multiset) add(vals []value.Value, w int64) {
	var hint btree.PathHint
	old, ok := m.tr.GetHint(msEntry{vals: vals}, &hint)
	switch {
	case !ok:
		kept := slices.Clone(vals)
		m.tr.SetHint(msEntry{vals: kept, n: w}, &hint)
		m.bytes += dataflow.RowBytes(kept) + msEntryOverhead
	case old.n+w == 0:
		m.tr.DeleteHint(old, &hint)
		m.bytes -= dataflow.RowBytes(old.vals) + msEntryOverhead
	default:
		old.n += w
		m.tr.SetHint(old, &hint)
	}
}

// msEntryOverhead is an element's cost beyond its values: the entry and
// as much again of node slack.
const msEntryOverhead = 2*int64(unsafe.Sizeof(msEntry{})) - int64(unsafe.Sizeof(value.Row(nil)))

// netChanges sorts ch by cmp and folds equal elements into one change with
// the summed weight, dropping those that sum to zero.
func netChanges(ch []aggChange, cmp func(a, b []value.Value) int) []aggChange {
	slices.SortFunc(ch, func(x, y aggChange) int { return cmp(x.vals, y.vals) })
	out := ch[:0]
	for i := 0; i < len(ch); {
		x := ch[i]
		j := i + 1
		for ; j < len(ch) && cmp(ch[j].vals, x.vals) == 0; j++ {
			x.w += ch[j].w
		}
		if x.w != 0 {
			out = append(out, x)
		}
		i = j
	}
	return out
}

func compareVals(a, b []value.Value) int { return value.CompareRows(a, b) }

// distinctAcc is an aggregate over DISTINCT values: value → multiplicity,
// and the inner aggregate fed each value once, when its multiplicity
// becomes positive (+1) and when it drops to zero (-1).
type distinctAcc struct {
	inner accum
	ms    multiset

	c          *stepCtx
	staged     bool
	soff, slen int // staged changes: c.pend[soff : soff+slen]
}

func newDistinctAcc(inner accum) accum {
	return &distinctAcc{inner: inner, ms: newMultiset(compareVals)}
}

func (a *distinctAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	ch = netChanges(ch, compareVals)
	c.inner = clearUsed(c.inner)
	for _, x := range ch {
		old := a.ms.get(x.vals)
		now := old + x.w
		switch {
		case now < 0:
			return value.Null, errNegativeCount()
		case old == 0 && now > 0:
			c.inner = append(c.inner, aggChange{vals: x.vals, w: 1})
		case old > 0 && now == 0:
			c.inner = append(c.inner, aggChange{vals: x.vals, w: -1})
		}
	}
	a.c, a.staged, a.soff = c, true, len(c.pend)
	c.pend = append(c.pend, ch...)
	a.slen = len(ch)
	return a.inner.stage(c, c.inner)
}

func (a *distinctAcc) commit() {
	if a.staged {
		for _, x := range a.c.pend[a.soff : a.soff+a.slen] {
			a.ms.add(x.vals, x.w)
		}
	}
	a.inner.commit()
	a.abort()
}

func (a *distinctAcc) abort() {
	a.inner.abort()
	a.c, a.staged, a.soff, a.slen = nil, false, 0, 0
}

func (a *distinctAcc) bytes() int64 {
	return int64(unsafe.Sizeof(*a)) + a.ms.bytes + a.inner.bytes()
}

// orderedAcc is string_agg or array_agg: the group's elements (value,
// separator, order keys) with their multiplicities, in the aggregate's
// order. Building the result walks the group: O(group) per touched group,
// as the result itself is that long.
type orderedAcc struct {
	spec *aggSpec
	ms   multiset
	cnt  int64 // elements, counted with multiplicity

	c          *stepCtx
	staged     bool
	scnt       int64
	soff, slen int
}

func newOrderedAcc(s *aggSpec) accum {
	a := &orderedAcc{spec: s}
	a.ms = newMultiset(s.compareSlots)
	return a
}

// compareSlots orders string_agg's and array_agg's elements: by the order
// keys, then the value, then the separator.
func (s *aggSpec) compareSlots(a, b []value.Value) int {
	base := s.width - len(s.OrderBy)
	if c := compareSortKeys(s.OrderBy, a[base:], b[base:]); c != 0 {
		return c
	}
	return value.CompareRows(a[:base], b[:base])
}

func (a *orderedAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	ch = netChanges(ch, a.spec.compareSlots)
	cnt := a.cnt
	for _, x := range ch {
		cnt += x.w
	}
	if cnt < 0 {
		return value.Null, errNegativeCount()
	}
	a.c, a.staged, a.scnt, a.soff = c, true, cnt, len(c.pend)
	c.pend = append(c.pend, ch...)
	a.slen = len(ch)

	// Walk the committed elements and the changes together, in order.
	b := c.buf[:0]
	first := true
	isArray := a.spec.Func == plan.AggArrayAgg
	var elems []value.Value // array_agg's: a new array per change, as values are immutable
	var err error
	put := func(vals []value.Value, n int64) {
		if n < 0 {
			err = errNegativeCount()
		}
		if a.spec.Distinct && n > 0 {
			n = 1
		}
		for ; n > 0; n-- {
			if isArray {
				elems = append(elems, vals[0])
				first = false
				continue
			}
			if vals[0].IsNull() {
				return
			}
			if !first && !vals[1].IsNull() {
				b = value.AppendConcat(b, vals[1])
			}
			b = value.AppendConcat(b, vals[0])
			first = false
		}
	}
	j := 0
	a.ms.tr.Scan(func(e msEntry) bool {
		for ; j < len(ch); j++ {
			c := a.spec.compareSlots(ch[j].vals, e.vals)
			if c > 0 {
				break
			}
			if c == 0 {
				put(e.vals, e.n+ch[j].w)
				j++
				return true
			}
			put(ch[j].vals, ch[j].w)
		}
		put(e.vals, e.n)
		return true
	})
	for ; j < len(ch); j++ {
		put(ch[j].vals, ch[j].w)
	}
	c.buf = b
	if err != nil {
		return value.Null, err
	}
	if first {
		return value.Null, nil
	}
	if isArray {
		return value.ArrayAgg(a.spec.typ.Kind, elems, a.spec.in == a.spec.typ.Kind)
	}
	return value.Concatenated(a.spec.typ.Kind, b), nil
}

func (a *orderedAcc) commit() {
	if a.staged {
		for _, x := range a.c.pend[a.soff : a.soff+a.slen] {
			a.ms.add(x.vals, x.w)
		}
		a.cnt = a.scnt
	}
	a.abort()
}

func (a *orderedAcc) abort() { a.c, a.staged, a.scnt, a.soff, a.slen = nil, false, 0, 0, 0 }

func (a *orderedAcc) bytes() int64 { return int64(unsafe.Sizeof(*a)) + a.ms.bytes }
