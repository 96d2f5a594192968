package op

import (
	"cmp"
	"slices"

	"github.com/tidwall/btree"
)

// valueSet keeps one group's multiset of an integer-ordered argument's
// values (value.IntOrdered: integers, dates, timestamps) with their
// multiplicities, in order: MIN's and MAX's refill source for such an
// argument. An entry is 16 bytes where an arrangement's would be a row and
// its ordering, and the group reaches its set without a second hash probe.
//
// Up to maxFlat values, the set is a sorted array and a log of the changes
// since it was last merged: a change appends to the log, one cache line,
// and a log of about a sixteenth of the array (at most 64 changes) is
// sorted and merged into it in one sequential pass, where a tree would cost
// a descent, several cache misses, per change. A change thus costs O(1)
// amortized, bounded by maxFlat, and so does a refill, which reads the log
// sorted beside the array. Beyond maxFlat values the set is a B-tree:
// O(log n) a change.
type valueSet struct {
	base []valCount // sorted by k, no zero counts; nil when tr is used
	log  []valCount // changes not merged into base, in arrival order
	tr   *btree.BTreeG[valCount]
}

// valCount is one distinct value (its Int()) and its multiplicity.
type valCount struct {
	k, n int64
}

// setScratch is what value sets share during a step: the buffer merges
// write into, and whether a cold start builds them (hold).
type setScratch struct {
	buf []valCount
	// hold is set while a cold start builds the sets (GroupBy.DeferLoads
	// until Trim): a set's log then grows to maxFlat changes before it is
	// merged, so that a set of up to maxFlat values is sorted once, in
	// place, when Trim merges what the logs hold, where merging at every
	// 64 changes grew the base by an eighth, a new array and a pass over
	// it each time (for 1,000 values, about nine times their 16 KB
	// allocated), and merging as the base doubled still copied each value
	// into a new array about eight times. A refill during the hold reads
	// at most maxFlat logged changes beside the base.
	hold bool
}

const maxFlat = 4096

func lessValCount(a, b valCount) bool { return a.k < b.k }

// logLimit is the changes a flat set of n values logs before merging them.
func logLimit(n int) int { return min(64, max(4, n/16)) }

// add adds n to the multiplicity of k, dropping k at zero. Like an
// arrangement's weights, a multiplicity is not checked: the input is a
// Z-set, and the aggregate checks its counts.
func (s *valueSet) add(k, n int64, scr *setScratch) {
	if s.tr == nil {
		s.log = append(s.log, valCount{k: k, n: n})
		if l := len(s.log); l >= logLimit(len(s.base)) && (!scr.hold || l >= maxFlat) {
			s.merge(scr)
		}
		return
	}
	// One descent when a retraction removes a value held once or an
	// assertion adds a new one; a second to fix the count otherwise.
	e := valCount{k: k, n: n}
	var old valCount
	var ok bool
	if n < 0 {
		old, ok = s.tr.Delete(e)
	} else {
		old, ok = s.tr.Set(e)
	}
	switch {
	case !ok && n < 0:
		s.tr.Set(e)
	case ok && old.n+n == 0 && n > 0:
		s.tr.Delete(e)
	case ok && old.n+n != 0:
		e.n += old.n
		s.tr.Set(e)
	}
	if l := s.tr.Len(); l < maxFlat/4 {
		// Small again: back to an array.
		s.base = make([]valCount, 0, l)
		s.tr.Scan(func(e valCount) bool { s.base = append(s.base, e); return true })
		s.tr = nil
	}
}

// merge folds the log into base, and moves a set grown beyond maxFlat
// values to a tree.
func (s *valueSet) merge(scr *setScratch) {
	if len(s.log) == 0 {
		return
	}
	sortLog(s.log, scr)
	if len(s.base) == 0 && len(s.log) <= maxFlat {
		s.mergeIntoEmpty()
		return
	}
	out := scr.buf[:0]
	base, log := s.base, s.log
	for len(log) > 0 {
		// The base's entries before the next logged value, found by a
		// tight scan and copied as a block: a log of 64 changes falls
		// into runs of a base of 1,000 values, which an entry-by-entry
		// merge walked with a branch and an append each.
		k := log[0].k
		i := 0
		for i < len(base) && base[i].k < k {
			i++
		}
		out = append(out, base[:i]...)
		base = base[i:]
		e := valCount{k: k}
		if len(base) > 0 && base[0].k == k {
			e.n, base = base[0].n, base[1:]
		}
		for len(log) > 0 && log[0].k == k {
			e.n += log[0].n
			log = log[1:]
		}
		if e.n != 0 {
			out = append(out, e)
		}
	}
	out = append(out, base...)
	scr.buf = out[:0]
	clear(s.log)
	s.log = s.log[:0]
	switch {
	case len(out) > maxFlat:
		s.tr = btree.NewBTreeGOptions(lessValCount, btree.Options{NoLocks: true})
		for _, e := range out {
			s.tr.Load(e)
		}
		s.base, s.log = nil, nil
	case len(out) == 0:
		s.base, s.log = nil, nil
	default:
		if cap(s.base) < len(out) || cap(s.base) > 2*len(out)+8 {
			s.base = make([]valCount, len(out), len(out)+len(out)/8+2)
		}
		s.base = s.base[:len(out)]
		copy(s.base, out)
	}
}

// mergeIntoEmpty makes the sorted log the base of a set that held none:
// equal values summed in place, zero counts dropped, the log's array kept
// unless it is more than twice the values' size.
func (s *valueSet) mergeIntoEmpty() {
	out := s.log[:0]
	for i := 0; i < len(s.log); {
		e := s.log[i]
		for i++; i < len(s.log) && s.log[i].k == e.k; i++ {
			e.n += s.log[i].n
		}
		if e.n != 0 {
			out = append(out, e)
		}
	}
	clear(s.log[len(out):])
	s.log = nil
	switch {
	case len(out) == 0:
		s.base = nil
	case cap(out) > 2*len(out)+8:
		s.base = slices.Clone(out)
	default:
		s.base = out
	}
}

// scan calls fn for each value in order (descending when desc) until fn
// returns false. It reads the log sorted in scratch, leaving the set as it
// is: scans come during a step, which changes nothing before its commit.
func (s *valueSet) scan(desc bool, scr *setScratch, fn func(k, n int64) bool) {
	if s.tr != nil {
		iter := func(e valCount) bool { return fn(e.k, e.n) }
		if desc {
			s.tr.Reverse(iter)
		} else {
			s.tr.Scan(iter)
		}
		return
	}
	log := append(scr.buf[:0], s.log...)
	scr.buf = log[:0]
	slices.SortFunc(log, func(a, b valCount) int { return cmp.Compare(a.k, b.k) })
	base := s.base
	// next takes the first (or, when desc, last) entry of x.
	next := func(x *[]valCount) valCount {
		if desc {
			e := (*x)[len(*x)-1]
			*x = (*x)[:len(*x)-1]
			return e
		}
		e := (*x)[0]
		*x = (*x)[1:]
		return e
	}
	peek := func(x []valCount) int64 {
		if desc {
			return x[len(x)-1].k
		}
		return x[0].k
	}
	before := func(a, b int64) bool { return a < b != desc && a != b }
	for len(base) > 0 || len(log) > 0 {
		var e valCount
		if len(log) == 0 || len(base) > 0 && !before(peek(log), peek(base)) {
			e = next(&base)
		} else {
			e = valCount{k: peek(log)}
		}
		for len(log) > 0 && peek(log) == e.k {
			e.n += next(&log).n
		}
		if e.n != 0 && !fn(e.k, e.n) {
			return
		}
	}
}

// bytes approximates the memory the set holds beyond its own struct: the
// arrays' capacity, or the tree's nodes. A node splits into two half full,
// and its items' array grows by doubling: an entry costs about twice its
// 16 bytes, and a node's own 48 bytes spread over its 30 to 60.
func (s *valueSet) bytes() int64 {
	if s.tr != nil {
		return int64(s.tr.Len())*(2*16+2) + 64
	}
	return int64(cap(s.base)+cap(s.log)) * 16
}
