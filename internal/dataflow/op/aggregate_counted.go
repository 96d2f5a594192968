package op

import "github.com/deltaview/deltaview/internal/plan"

// This file keeps no state: a grouping whose aggregates are all count(*)
// collapses a big step's records to one per group, in key order, by
// counting them into a table indexed by key, instead of sorting them.

// countsOnly reports whether every aggregate is count(*) without FILTER
// and the keys print one way, so that what a step does to a group is the
// sum of its records' weights alone: one record of that weight stages the
// group as its records would (countAcc adds weights; stageGroup sums
// them).
func (g *GroupBy) countsOnly() bool {
	if g.global || g.reprKeys || len(g.owned) > 0 || len(g.aggs) == 0 {
		return false
	}
	for i := range g.aggs {
		a := &g.aggs[i]
		if a.Func != plan.AggCountStar || a.Filter != nil || a.width != 0 || a.feeds {
			return false
		}
	}
	return true
}

// collapseRecs replaces the step's records, whose keys are one integer of
// one kind (intRecs, one key), by one record per key in key order, of
// the summed weight and the first record's place in the arena, and
// reports whether it did: it does when the keys span no more values than
// there are records (a cold start's batch over a few thousand groups),
// where a table of the span costs less than sorting the records.
// Otherwise the records are left as they were, for sortRecs.
func (g *GroupBy) collapseRecs() bool {
	recs := g.recs
	if len(recs) < prefixSortMin || len(g.keys) != 1 || !g.intRecs {
		return false
	}
	lo, hi := recs[0].k, recs[0].k
	for _, r := range recs[1:] {
		lo, hi = min(lo, r.k), max(hi, r.k)
	}
	if hi-lo >= uint64(len(recs)) {
		return false
	}
	ps := aggSorts.Get().(*recSort[aggRec])
	defer aggSorts.Put(ps)
	span := int(hi-lo) + 1
	if cap(ps.tmp) < span {
		ps.tmp = make([]aggRec, span)
	}
	table := ps.tmp[:span]
	clear(table)
	// A slot's pre is its first record's plus one: zero is an empty slot.
	for _, r := range recs {
		s := &table[r.k-lo]
		if s.pre == 0 {
			s.off, s.pre, s.k = r.off, r.pre+1, r.k
		}
		s.w += r.w
	}
	m := 0
	for _, s := range table {
		if s.pre != 0 {
			s.pre--
			recs[m] = s
			m++
		}
	}
	ps.tmp = ps.tmp[:0]
	clear(recs[m:])
	g.recs = recs[:m]
	return true
}
