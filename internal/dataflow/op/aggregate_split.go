package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// A grouping's big step is split among goroutines (dataflow.Split): the
// entries' values are evaluated in parts of the batch, and, once sorted
// by key, the groups are staged in parts of the sorted entries cut
// between two keys, each part's groups, accumulators and value sets its
// own, each part's staged groups and output kept in scratch of its own
// (groupPart). The parts' outputs joined in order are the output of one
// pass, and Commit applies the parts' groups in that order: the step's
// deltas and state are those of one goroutine. The expressions may be
// evaluated at once (expr's nodes are immutable) and the groups' maps
// are only read until Commit.

var _ dataflow.Splitter = (*GroupBy)(nil)

// SetSplit lets the grouping split its big steps with s.
func (g *GroupBy) SetSplit(s dataflow.Split) { g.split = s }

// ways returns into how many parts a step over rows entries splits. A
// MIN or MAX that refills from an index keeps its reads of the index on
// one goroutine (an index may extend itself as it is read): such a
// grouping does not split, nor does a global aggregate, whose one group
// is one part.
func (g *GroupBy) ways(rows int) int {
	if g.split == nil || g.global || rows < 2 {
		return 1
	}
	ways := min(g.split.Ways(rows), rows)
	for i := range g.aggs {
		if g.aggs[i].Index != nil {
			return 1
		}
	}
	return ways
}

// evalParts evaluates the batch's entries in ways parts of it at once.
func (g *GroupBy) evalParts(batch zset.ZSet, ways, width int) (intRun, error) {
	n := len(batch)
	errs := make([]error, ways)
	runs := make([]intRun, ways)
	fns := make([]func(), ways)
	for p := range fns {
		lo, hi := p*n/ways, (p+1)*n/ways
		fns[p] = func() { runs[p], errs[p] = g.evalRange(batch, lo, hi, width) }
	}
	g.split.Run(fns...)
	var run intRun
	for p, err := range errs {
		if err != nil {
			return run, err
		}
		run = run.join(runs[p])
	}
	return run, nil
}

// stageParts stages the step's groups in ways parts of the sorted
// entries, at once, and appends to out their outputs in order. The error
// is the first part's that fails: the one a single pass would meet first.
func (g *GroupBy) stageParts(out zset.ZSet, ways int) (zset.ZSet, error) {
	nk, n := len(g.keys), len(g.recs)
	key := func(i int) value.Row { return g.arena[g.recs[i].off : g.recs[i].off+nk] }
	// The first key that sets the kind of the map by integer, as one pass
	// would meet it, before the parts read it.
	for i := 0; i < n && g.intKind == value.Unknown; i++ {
		g.intKey(key(i))
	}
	for len(g.parts) < ways-1 {
		g.parts = append(g.parts, &groupPart{})
	}
	parts := g.allParts()[:ways]
	cuts := make([]int, ways+1)
	cuts[ways] = n
	for p := 1; p < ways; p++ {
		c := max(p*n/ways, cuts[p-1])
		for c > 0 && c < n && sameGroupKey(key(c), key(c-1)) {
			c++
		}
		cuts[p] = c
	}
	errs := make([]error, ways)
	fns := make([]func(), ways)
	for p := range fns {
		fns[p] = func() {
			if p == 0 {
				out, errs[0] = g.stageRange(parts[0], cuts[0], cuts[1], out)
				return
			}
			parts[p].pout, errs[p] = g.stageRange(parts[p], cuts[p], cuts[p+1], parts[p].pout)
		}
	}
	g.split.Run(fns...)
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	for _, p := range parts[1:] {
		out = append(out, p.pout...)
		p.pout = clearUsed(p.pout)
	}
	return out, nil
}
