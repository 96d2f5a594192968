package op

import "github.com/deltaview/deltaview/internal/dataflow"

// The arrangements each operator holds or reads, for the accounting by
// identity of package dataflow (see dataflow.Arranged), and the trimming
// of buffers kept between steps (see dataflow.Trimmer).

var (
	_ dataflow.Arranged = (*Arrange)(nil)
	_ dataflow.Arranged = (*InnerJoin)(nil)
	_ dataflow.Arranged = (*OuterJoin)(nil)
	_ dataflow.Arranged = (*SemiJoin)(nil)
	_ dataflow.Arranged = (*NotInJoin)(nil)
	_ dataflow.Arranged = (*GroupBy)(nil)
	_ dataflow.Arranged = (*TopK)(nil)
)

// Arrangements returns the arrangement the node owns; its State is that
// arrangement's.
func (r *Arrange) Arrangements() []dataflow.ArrangementUse {
	return []dataflow.ArrangementUse{{A: r.a, Counted: true, Input: 0}}
}

// arrangements returns the join's two indexes; State counts the private
// ones.
func (c *joinCore) arrangements() []dataflow.ArrangementUse {
	return []dataflow.ArrangementUse{{A: c.left, Counted: c.ownL, Input: 0}, {A: c.right, Counted: c.ownR, Input: 1}}
}

// Arrangements returns the join's indexes.
func (j *InnerJoin) Arrangements() []dataflow.ArrangementUse { return j.c.arrangements() }

// Arrangements returns the join's indexes.
func (j *OuterJoin) Arrangements() []dataflow.ArrangementUse { return j.c.arrangements() }

// Arrangements returns the join's indexes.
func (j *SemiJoin) Arrangements() []dataflow.ArrangementUse { return j.c.arrangements() }

// Arrangements returns the join's indexes.
func (j *NotInJoin) Arrangements() []dataflow.ArrangementUse { return j.c.arrangements() }

// Arrangements returns the indexes MIN and MAX refill from, owned or
// shared; State counts none of them. A relation's shared index is its
// table's, not the view's: it is not listed.
func (g *GroupBy) Arrangements() []dataflow.ArrangementUse {
	var out []dataflow.ArrangementUse
	seen := map[*dataflow.Arrangement]bool{}
	for _, a := range g.aggs {
		if a.Index != nil && a.Base == nil && !seen[a.Index] {
			seen[a.Index] = true
			out = append(out, dataflow.ArrangementUse{A: a.Index, Input: 0})
		}
	}
	return out
}

// Arrangements returns the index top-k refills from; State does not count
// it. A relation's shared index is its table's, not the view's: it is not
// listed.
func (t *TopK) Arrangements() []dataflow.ArrangementUse {
	if t.index == nil || t.base != nil {
		return nil
	}
	return []dataflow.ArrangementUse{{A: t.index, Input: 0}}
}

// Trim loads the rows kept aside, ends their deferral and drops the step
// scratch when it is big.
func (g *Integrate) Trim() {
	g.settle()
	g.deferring = false
	g.at = dataflow.TrimSlice(g.at)
}

// Trim drops the last output when it is big.
func (f *Filter) Trim() { f.out = dataflow.TrimBatch(f.out) }

// Trim drops the last output when it is big.
func (m *Map) Trim() { m.out = dataflow.TrimBatch(m.out) }

// Trim drops the last output when it is big.
func (d *Distinct) Trim() { d.out = dataflow.TrimBatch(d.out) }

// Trim drops the last output when it is big.
func (u *Union) Trim() { u.out = dataflow.TrimBatch(u.out) }

// Trim drops the last output when it is big.
func (n *Negate) Trim() { n.out = dataflow.TrimBatch(n.out) }

// Trim drops the last output when it is big.
func (s *SetOp) Trim() { s.out = dataflow.TrimBatch(s.out) }

// Trim drops the last output and the step scratch when they are big.
func (g *GroupBy) Trim() {
	g.mergeHeld()
	g.out = dataflow.TrimBatch(g.out)
	g.arena = dataflow.TrimSlice(g.arena)
	g.pres = dataflow.TrimSlice(g.pres)
	g.altArena = dataflow.TrimSlice(g.altArena)
	g.altPres = dataflow.TrimSlice(g.altPres)
	g.recs = dataflow.TrimSlice(g.recs)
	g.chs = dataflow.TrimSlice(g.chs)
	g.staged = dataflow.TrimSlice(g.staged)
	// The staged sums of a big step, one per group and aggregate it
	// touched: a cold start's would outweigh small groups' state.
	g.ctx.exactPool = dataflow.TrimSlice(g.ctx.exactPool)
	g.ctx.floatPool = dataflow.TrimSlice(g.ctx.floatPool)
	g.ctx.sumPool = dataflow.TrimSlice(g.ctx.sumPool)
	g.ctx.res = dataflow.TrimSlice(g.ctx.res)
	g.ctx.pend = dataflow.TrimSlice(g.ctx.pend)
	for _, a := range g.owned {
		a.Trim()
	}
}

// Trim drops the last output and the step scratch when they are big.
func (t *TopK) Trim() {
	t.out = dataflow.TrimBatch(t.out)
	t.arena = dataflow.TrimSlice(t.arena)
	t.recs = dataflow.TrimSlice(t.recs)
	t.kept = dataflow.TrimSlice(t.kept)
	t.ch = dataflow.TrimSlice(t.ch)
	t.staged = dataflow.TrimSlice(t.staged)
	if t.own {
		t.index.Trim()
	}
}

// Trim drops the owned arrangement's big staging buffers.
func (r *Arrange) Trim() { r.a.Trim() }

var (
	_ dataflow.LoadDeferrer = (*InnerJoin)(nil)
	_ dataflow.LoadDeferrer = (*OuterJoin)(nil)
	_ dataflow.LoadDeferrer = (*SemiJoin)(nil)
	_ dataflow.LoadDeferrer = (*NotInJoin)(nil)
)

// DeferLoads defers the loads of the private indexes.
func (j *InnerJoin) DeferLoads() { j.c.deferLoads() }

// DeferLoads defers the loads of the private indexes.
func (j *OuterJoin) DeferLoads() { j.c.deferLoads() }

// DeferLoads defers the loads of the private indexes.
func (j *SemiJoin) DeferLoads() { j.c.deferLoads() }

// DeferLoads defers the loads of the private indexes.
func (j *NotInJoin) DeferLoads() { j.c.deferLoads() }

func (c *joinCore) trim() {
	c.slab, c.twin = nil, nil
	c.hidden, c.fed = [2]bool{}, [2]bool{}
	c.out = dataflow.TrimBatch(c.out)
	c.arenaL = dataflow.TrimSlice(c.arenaL)
	c.arenaR = dataflow.TrimSlice(c.arenaR)
	c.dl = dataflow.TrimSlice(c.dl)
	c.dr = dataflow.TrimSlice(c.dr)
	if c.ownL {
		c.left.Trim()
	}
	if c.ownR {
		c.right.Trim()
	}
}

func (m *matches) trim() {
	if m == nil {
		return
	}
	m.before = dataflow.TrimBatch(m.before)
	m.change = dataflow.TrimSlice(m.change)
	m.staged = dataflow.TrimSlice(m.staged)
}

// Trim drops the big buffers kept between steps.
func (j *InnerJoin) Trim() { j.c.trim() }

// Trim drops the big buffers kept between steps.
func (j *OuterJoin) Trim() { j.c.trim(); j.left.trim(); j.right.trim() }

// Trim drops the big buffers kept between steps.
func (j *SemiJoin) Trim() { j.c.trim(); j.m.trim() }

// Trim drops the big buffers kept between steps.
func (j *NotInJoin) Trim() {
	j.c.trim()
	j.dm = dataflow.TrimSlice(j.dm)
	j.buf = dataflow.TrimSlice(j.buf)
}

// Where each operator's output rows come from (dataflow.RowFlow), and the
// input rows kept in an operator's own state (dataflow.InputRowKeeper).

// OutputRows: a filter passes its input's rows on.
func (f *Filter) OutputRows() dataflow.RowOrigin { return dataflow.RowsOfInputs }

// OutputRows: a union passes its inputs' rows on.
func (u *Union) OutputRows() dataflow.RowOrigin { return dataflow.RowsOfInputs }

// OutputRows: negation passes its input's rows on.
func (n *Negate) OutputRows() dataflow.RowOrigin { return dataflow.RowsOfInputs }

// OutputRows: the distinct rows are kept in the counts.
func (d *Distinct) OutputRows() dataflow.RowOrigin { return dataflow.RowsKept }

// OutputRows: the view's rows are kept.
func (g *Integrate) OutputRows() dataflow.RowOrigin { return dataflow.RowsKept }

// OutputRows: each group's output row is kept.
func (g *GroupBy) OutputRows() dataflow.RowOrigin { return dataflow.RowsKept }

// OutputRows: the rows output are input rows kept in the counts.
func (s *SetOp) OutputRows() dataflow.RowOrigin { return dataflow.RowsKept }

// OutputRows: the rows output are input rows kept in the window.
func (t *TopK) OutputRows() dataflow.RowOrigin { return dataflow.RowsKept }

// OutputRows: the rows output are left rows, kept in the left index.
func (j *SemiJoin) OutputRows() dataflow.RowOrigin { return dataflow.RowsKept }

// OutputRows: the rows output are left rows, kept in the left index.
func (j *NotInJoin) OutputRows() dataflow.RowOrigin { return dataflow.RowsKept }

// InputRowBytes returns the bytes of the input rows the counts keep.
func (d *Distinct) InputRowBytes() int64 { return d.counts.bytes }

// InputRowBytes returns the bytes of the input rows the contents keep.
func (g *Integrate) InputRowBytes() int64 {
	g.settle()
	return g.counts.bytes
}

var (
	_ dataflow.PendingLoader = (*Integrate)(nil)
	_ dataflow.PendingLoader = (*InnerJoin)(nil)
	_ dataflow.PendingLoader = (*OuterJoin)(nil)
	_ dataflow.PendingLoader = (*SemiJoin)(nil)
	_ dataflow.PendingLoader = (*NotInJoin)(nil)
	_ dataflow.PendingLoader = (*Arrange)(nil)
	_ dataflow.PendingLoader = (*GroupBy)(nil)
)

// PendingRows reports the rows kept aside, loaded at Trim.
func (g *Integrate) PendingRows() int { return g.pending.n }

// pendingRows reports the rows the private indexes keep aside.
func (c *joinCore) pendingRows() int {
	n := 0
	if c.ownL {
		n += c.left.PendingRows()
	}
	if c.ownR {
		n += c.right.PendingRows()
	}
	return n
}

// PendingRows reports the rows the private indexes keep aside.
func (j *InnerJoin) PendingRows() int { return j.c.pendingRows() }

// PendingRows reports the rows the private indexes keep aside.
func (j *OuterJoin) PendingRows() int { return j.c.pendingRows() }

// PendingRows reports the rows the private indexes keep aside.
func (j *SemiJoin) PendingRows() int { return j.c.pendingRows() }

// PendingRows reports the rows the private indexes keep aside.
func (j *NotInJoin) PendingRows() int { return j.c.pendingRows() }

// PendingRows reports the rows the owned arrangement keeps aside.
func (r *Arrange) PendingRows() int { return r.a.PendingRows() }

// PendingRows reports the rows the owned indexes keep aside.
func (g *GroupBy) PendingRows() int {
	n := 0
	for _, a := range g.owned {
		n += a.PendingRows()
	}
	return n
}

// KeepsNoInputRows marks Map as a dataflow.RowReader: its rows are new.
func (m *Map) KeepsNoInputRows() {}

// KeepsNoInputRows marks GroupBy as a dataflow.RowReader: it keeps its
// groups' values and output rows, and its input's rows only in the
// indexes it lists.
func (g *GroupBy) KeepsNoInputRows() {}

var (
	_ dataflow.RowReader = (*Map)(nil)
	_ dataflow.RowReader = (*GroupBy)(nil)
)
