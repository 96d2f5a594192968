package op

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/tidwall/btree"
)

// modeAcc is mode() WITHIN GROUP (ORDER BY x): it keeps the group's
// non-NULL values with their multiplicities (by representation for a type
// whose equal values may print differently), and one entry per value,
// its total multiplicity and its first representation, ordered by
// multiplicity (most first) then by the key: the first entry is the
// result, as PostgreSQL's mode is the first most frequent value in the
// key's order. A change costs O(log n). A step's changes are staged in
// copies of both trees (copy on write), which commit keeps and abort
// drops. An entry's slot holds x, then the key (x again).
type modeAcc struct {
	spec    *aggSpec
	counts  multiset
	byCount *btree.BTreeG[msEntry]

	staged   bool
	scounts  multiset
	sbyCount *btree.BTreeG[msEntry]
}

func newModeAcc(s *aggSpec) accum {
	a := &modeAcc{spec: s}
	a.counts = newMultiset(a.cmp, value.HasReprs(s.in))
	a.byCount = btree.NewBTreeGOptions(func(x, y msEntry) bool {
		if x.n != y.n {
			return x.n > y.n
		}
		return a.cmp(x.vals, y.vals) < 0
	}, btree.Options{NoLocks: true, Degree: 8})
	return a
}

// cmp orders values as the key does.
func (a *modeAcc) cmp(x, y []value.Value) int { return compareSortKey(a.spec.OrderBy[0], x[0], y[0]) }

// cmpReprs is cmp, equal values ordered by representation.
func (a *modeAcc) cmpReprs(x, y []value.Value) int {
	if c := a.cmp(x, y); c != 0 {
		return c
	}
	return value.CompareRepr(x[0], y[0])
}

// total returns v's multiplicity in ms, over its representations, and
// its first representation that some row has.
func (a *modeAcc) total(ms *multiset, v []value.Value) (n int64, first []value.Value) {
	ms.class(v, a.cmp, func(e msEntry) {
		if first == nil {
			first = e.vals
		}
		n += e.n
	})
	return n, first
}

func (a *modeAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	ch = netChanges(ch, a.cmpReprs)
	counts, by := a.counts, a.byCount
	if len(ch) > 0 {
		counts.tr, by = a.counts.tr.Copy(), a.byCount.Copy()
	}
	for i := 0; i < len(ch); {
		v := ch[i].vals[:1]
		j := i + 1
		for j < len(ch) && a.cmp(ch[j].vals, v) == 0 {
			j++
		}
		if v[0].IsNull() {
			i = j
			continue
		}
		oldN, oldFirst := a.total(&counts, v)
		for _, x := range ch[i:j] {
			if counts.get(x.vals[:1])+x.w < 0 {
				return value.Null, errNegativeCount()
			}
			counts.add(x.vals[:1], x.w)
		}
		newN, newFirst := a.total(&counts, v)
		if oldN > 0 {
			by.Delete(msEntry{vals: oldFirst, n: oldN})
		}
		if newN > 0 {
			by.Set(msEntry{vals: newFirst, n: newN})
		}
		i = j
	}
	a.staged, a.scounts, a.sbyCount = true, counts, by
	if e, ok := by.Min(); ok {
		return e.vals[0], nil
	}
	return value.Null, nil
}

func (a *modeAcc) commit() {
	if a.staged {
		a.counts, a.byCount = a.scounts, a.sbyCount
	}
	a.abort()
}

func (a *modeAcc) abort() { a.staged, a.scounts, a.sbyCount = false, multiset{}, nil }

// bytes counts the multiset and, per value, an entry of the second tree
// (its values are the multiset's).
func (a *modeAcc) bytes() int64 {
	return int64(unsafe.Sizeof(*a)) + a.counts.bytes + int64(a.byCount.Len())*msEntryOverhead
}
