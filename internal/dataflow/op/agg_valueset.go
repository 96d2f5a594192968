package op

import (
	"slices"

	"github.com/tidwall/btree"
)

// valueSet keeps one group's multiset of an integer-ordered argument's
// values (value.IntOrdered: integers, dates, timestamps) with their
// multiplicities, in order: MIN's and MAX's refill source for such an
// argument. An entry is 16 bytes where an arrangement's would be a row
// and an ord, so a change touches a few cache lines in a small tree that
// the group already reaches, instead of a second hash probe and a descent
// through entries six times larger.
//
// It is a sorted slice while it holds up to maxSmallSet values, and a
// B-tree beyond.
type valueSet struct {
	small []valCount // sorted by k, while tr is nil
	tr    *btree.BTreeG[valCount]
}

// valCount is one distinct value (its Int()) and its multiplicity.
type valCount struct {
	k, n int64
}

const maxSmallSet = 64

func lessValCount(a, b valCount) bool { return a.k < b.k }

// add adds n to the multiplicity of k, dropping k at zero. Like an
// arrangement's weights, a multiplicity is not checked: the input is a
// Z-set, and the aggregate checks its counts. hint is the caller's, so as
// not to allocate one per call.
func (s *valueSet) add(k, n int64, hint *btree.PathHint) {
	if s.tr != nil {
		// One descent when a retraction removes a value held once or an
		// assertion adds a new one; a second to fix the count otherwise.
		e := valCount{k: k, n: n}
		var old valCount
		var ok bool
		if n < 0 {
			old, ok = s.tr.DeleteHint(e, hint)
		} else {
			old, ok = s.tr.SetHint(e, hint)
		}
		switch {
		case !ok && n < 0:
			s.tr.SetHint(e, hint)
		case ok && old.n+n == 0 && n > 0:
			s.tr.DeleteHint(e, hint)
		case ok && old.n+n != 0:
			e.n += old.n
			s.tr.SetHint(e, hint)
		}
		if s.tr.Len() == 0 {
			s.tr = nil
		}
		return
	}
	i, found := slices.BinarySearchFunc(s.small, k, func(e valCount, k int64) int {
		switch {
		case e.k < k:
			return -1
		case e.k > k:
			return 1
		}
		return 0
	})
	switch {
	case found && s.small[i].n+n == 0:
		if s.small = slices.Delete(s.small, i, i+1); len(s.small) == 0 {
			s.small = nil
		}
	case found:
		s.small[i].n += n
	default:
		s.small = slices.Insert(s.small, i, valCount{k: k, n: n})
		if len(s.small) > maxSmallSet {
			s.tr = btree.NewBTreeGOptions(lessValCount, btree.Options{NoLocks: true})
			for _, e := range s.small {
				s.tr.Load(e)
			}
			s.small = nil
		}
	}
}

// scan calls fn for each value in order (descending when desc) until fn
// returns false.
func (s *valueSet) scan(desc bool, fn func(k, n int64) bool) {
	switch {
	case s.tr != nil:
		iter := func(e valCount) bool { return fn(e.k, e.n) }
		if desc {
			s.tr.Reverse(iter)
		} else {
			s.tr.Scan(iter)
		}
	case desc:
		for i := len(s.small) - 1; i >= 0 && fn(s.small[i].k, s.small[i].n); i-- {
		}
	default:
		for i := 0; i < len(s.small) && fn(s.small[i].k, s.small[i].n); i++ {
		}
	}
}

// bytes approximates the memory the set holds beyond its own struct: the
// slice's backing array, or the tree's nodes. A node splits into two half
// full, and its items' array grows by doubling: an entry costs about twice
// its 16 bytes, and a node's own 48 bytes spread over its 30 to 60.
func (s *valueSet) bytes() int64 {
	if s.tr != nil {
		return int64(s.tr.Len())*(2*16+2) + 64
	}
	return int64(cap(s.small)) * 16
}
