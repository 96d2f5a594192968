package op

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// hypoAcc is a hypothetical-set aggregate, rank, dense_rank, percent_rank
// or cume_dist (args) WITHIN GROUP (ORDER BY keys): where the row of the
// direct arguments, h, would stand among the group's rows ordered by the
// keys. It keeps three counts: the rows before h, h's peers (equal keys)
// and all rows; dense_rank also keeps the distinct keys before h with
// their multiplicities. A change costs O(1) (dense_rank: O(log n) in the
// distinct keys before h).
//
// The direct arguments read the input only through the group key (the
// binder checks it), so every row of a group gives the same h: the first
// row the group receives fixes it, and a group that loses its last row
// forgets it. An entry's slot holds the argument, the keys, then h (a
// row).
type hypoAcc struct {
	spec                 *aggSpec
	h                    []value.Value // nil while the group has no rows
	before, peers, total int64
	ms                   *multiset // dense_rank: the distinct keys before h

	c                   *stepCtx
	staged              bool
	sh                  []value.Value
	sbefore, speers, sn int64
	sdistinct           int64
	soff, slen          int
}

func newHypoAcc(s *aggSpec) accum {
	a := &hypoAcc{spec: s}
	if s.Func == plan.AggHypoDenseRank {
		ms := newMultiset(compareVals, false)
		a.ms = &ms
	}
	return a
}

func (a *hypoAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	k := len(a.spec.OrderBy)
	h := a.h
	if h == nil && len(ch) > 0 {
		h = ch[0].vals[1+k].Fields()
	}
	before, peers, n := a.before, a.peers, a.total
	a.c, a.staged, a.soff = c, true, len(c.pend)
	for _, x := range ch {
		n += x.w
		switch cmp := compareSortKeys(a.spec.OrderBy, x.vals[1:1+k], h); {
		case cmp < 0:
			before += x.w
			if a.ms != nil {
				c.pend = append(c.pend, aggChange{vals: x.vals[1 : 1+k], w: x.w})
			}
		case cmp == 0:
			peers += x.w
		}
	}
	if n < 0 || before < 0 || peers < 0 {
		return value.Null, errNegativeCount()
	}
	var distinct int64
	if a.ms != nil {
		net := netChanges(c.pend[a.soff:], compareVals)
		c.pend = c.pend[:a.soff+len(net)]
		distinct = int64(a.ms.tr.Len())
		for _, x := range net {
			old := a.ms.get(x.vals)
			now := old + x.w
			switch {
			case now < 0:
				return value.Null, errNegativeCount()
			case old == 0 && now > 0:
				distinct++
			case old > 0 && now == 0:
				distinct--
			}
		}
	}
	a.slen = len(c.pend) - a.soff
	if n == 0 {
		h = nil
	}
	a.sh, a.sbefore, a.speers, a.sn, a.sdistinct = h, before, peers, n, distinct
	return plan.HypotheticalResult(a.spec.Func, before, peers, distinct, n), nil
}

func (a *hypoAcc) commit() {
	if a.staged {
		if a.ms != nil {
			for _, x := range a.c.pend[a.soff : a.soff+a.slen] {
				a.ms.add(x.vals, x.w)
			}
		}
		a.h, a.before, a.peers, a.total = a.sh, a.sbefore, a.speers, a.sn
	}
	a.abort()
}

func (a *hypoAcc) abort() {
	a.c, a.staged, a.sh, a.soff, a.slen = nil, false, nil, 0, 0
}

func (a *hypoAcc) bytes() int64 {
	n := int64(unsafe.Sizeof(*a)) + dataflow.RowBytes(a.h)
	if a.ms != nil {
		n += int64(unsafe.Sizeof(*a.ms)) + a.ms.bytes
	}
	return n
}
