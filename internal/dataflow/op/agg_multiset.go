package op

import (
	"math"
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

// newMultiset returns an empty multiset ordered by cmp. With reprs, values
// that cmp holds equal but that print differently (1.5 and 1.50) are
// distinct elements, the first representation (value.CompareReprs) first,
// so that each is shown as written and an equal value's representations
// can be read in order (class).
func newMultiset(cmp func(a, b []value.Value) int, reprs bool) multiset {
	less := func(a, b msEntry) bool { return cmp(a.vals, b.vals) < 0 }
	if reprs {
		less = func(a, b msEntry) bool {
			if c := cmp(a.vals, b.vals); c != 0 {
				return c < 0
			}
			if a.n == classStart || b.n == classStart {
				return a.n == classStart && b.n != classStart
			}
			return value.CompareReprs(a.vals, b.vals) < 0
		}
	}
	return multiset{tr: btree.NewBTreeGOptions(less, btree.Options{NoLocks: true, Degree: 8})}
}

// classStart is the multiplicity of a probe that a multiset kept by
// representation orders before every representation of its value: no
// element has it.
const classStart = math.MinInt64

// class calls fn with each element equal to vals under the multiset's
// order, by representation (a multiset made with reprs), in one descent.
func (m *multiset) class(vals []value.Value, cmp func(a, b []value.Value) int, fn func(e msEntry)) {
	m.tr.Ascend(msEntry{vals: vals, n: classStart}, func(e msEntry) bool {
		if cmp(e.vals, vals) != 0 {
			return false
		}
		fn(e)
		return true
	})
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

// compareValsReprs is compareVals, equal values ordered by representation.
func compareValsReprs(a, b []value.Value) int {
	if c := value.CompareRows(a, b); c != 0 {
		return c
	}
	return value.CompareReprs(a, b)
}

// distinctAcc is an aggregate over DISTINCT values: value → multiplicity,
// and the inner aggregate fed each value once, when its multiplicity
// becomes positive (+1) and when it drops to zero (-1). With reprs (an
// argument whose equal values may print differently), the multiplicities
// are per representation and the inner aggregate is fed a value's first
// representation (value.CompareRepr) that some row has: its change is a
// change of that value's representation when the first one comes or goes.
// A value whose rows all print it alike costs what it did.
type distinctAcc struct {
	inner accum
	ms    multiset

	c          *stepCtx
	staged     bool
	reprs      bool
	soff, slen int // staged changes: c.pend[soff : soff+slen]
}

func newDistinctAcc(inner accum, reprs bool) accum {
	return &distinctAcc{inner: inner, ms: newMultiset(compareVals, reprs), reprs: reprs}
}

func (a *distinctAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	c.inner = clearUsed(c.inner)
	if a.reprs {
		ch = netChanges(ch, compareValsReprs)
		if err := a.stageReprs(c, ch); err != nil {
			return value.Null, err
		}
	} else {
		ch = netChanges(ch, compareVals)
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
	}
	a.c, a.staged, a.soff = c, true, len(c.pend)
	c.pend = append(c.pend, ch...)
	a.slen = len(ch)
	return a.inner.stage(c, c.inner)
}

// stageReprs appends to c.inner the changes of the values of ch (netted,
// ordered by value and representation) to the inner aggregate: for each
// value, its first representation some row had, retracted, and the one
// some row has once ch applies, asserted, when they differ.
func (a *distinctAcc) stageReprs(c *stepCtx, ch []aggChange) error {
	for i := 0; i < len(ch); {
		j := i + 1
		for j < len(ch) && compareVals(ch[j].vals, ch[i].vals) == 0 {
			j++
		}
		// The committed representations and the changes, both in order,
		// merged.
		cls := c.class[:0]
		a.ms.class(ch[i].vals, compareVals, func(e msEntry) { cls = append(cls, e) })
		var now []value.Value
		p, q := 0, i
		for p < len(cls) || q < j {
			var d int
			switch {
			case q == j:
				d = -1
			case p == len(cls):
				d = 1
			default:
				d = value.CompareReprs(cls[p].vals, ch[q].vals)
			}
			var e msEntry
			switch {
			case d < 0:
				e = cls[p]
				p++
			case d > 0:
				e = msEntry{vals: ch[q].vals, n: ch[q].w}
				q++
			default:
				e = msEntry{vals: cls[p].vals, n: cls[p].n + ch[q].w}
				p, q = p+1, q+1
			}
			if e.n < 0 {
				c.class = clearAll(cls)
				return errNegativeCount()
			}
			if e.n > 0 && now == nil {
				now = e.vals
			}
		}
		var was []value.Value
		if len(cls) > 0 {
			was = cls[0].vals
		}
		if was == nil || now == nil || value.CompareReprs(was, now) != 0 {
			if was != nil {
				c.inner = append(c.inner, aggChange{vals: was, w: -1})
			}
			if now != nil {
				c.inner = append(c.inner, aggChange{vals: now, w: 1})
			}
		}
		c.class = clearAll(cls)
		i = j
	}
	return nil
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
// as the result itself is that long. With reprs (an argument whose equal
// values may print differently), each representation is an element, the
// first (value.CompareReprs) first: the result shows each row's value as
// written, and under DISTINCT an equal value's first representation that
// some row has.
type orderedAcc struct {
	spec *aggSpec
	ms   multiset
	cnt  int64 // elements, counted with multiplicity

	c          *stepCtx
	staged     bool
	reprs      bool
	scnt       int64
	soff, slen int
}

func newOrderedAcc(s *aggSpec) accum {
	a := &orderedAcc{spec: s, reprs: value.HasReprs(s.in)}
	a.ms = newMultiset(s.compareSlots, a.reprs)
	return a
}

// cmp orders the elements as the multiset does.
func (a *orderedAcc) cmp(x, y []value.Value) int {
	if c := a.spec.compareSlots(x, y); c != 0 || !a.reprs {
		return c
	}
	return value.CompareReprs(x, y)
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
	ch = netChanges(ch, a.cmp)
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
	var fold *userFold
	if a.spec.User != nil {
		fold = newUserFold(a.spec.User)
	}
	var elems []value.Value // array_agg's: a new array per change, as values are immutable
	var err error
	var last []value.Value // under DISTINCT with reprs: the last element shown
	put := func(vals []value.Value, n int64) {
		if n < 0 {
			err = errNegativeCount()
		}
		if a.spec.Distinct && n > 0 {
			if a.reprs && last != nil && a.spec.compareSlots(last, vals) == 0 {
				return // a later representation of the value just shown
			}
			last, n = vals, 1
		}
		for ; n > 0; n-- {
			if fold != nil {
				if ferr := fold.step(vals[0]); ferr != nil && err == nil {
					err = ferr
				}
				continue
			}
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
			c := a.cmp(ch[j].vals, e.vals)
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
	if fold != nil {
		return fold.result()
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
