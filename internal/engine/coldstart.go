package engine

import (
	"cmp"
	"slices"
	"time"

	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Progress reports how far a long piece of work has got: the cold start
// of a view, or a COPY. The engine calls the function set with SetProgress
// after each batch of work and once more with Finished set; what to show,
// and whether to show anything, is the caller's choice.
type Progress struct {
	Op       string // what runs: "CREATE MATERIALIZED VIEW v", "COPY t"
	Unit     string // what Done and Total count: "rows" or "bytes"
	Done     int64
	Total    int64 // -1 when unknown
	Elapsed  time.Duration
	Finished bool
}

// SetProgress sets the function told of the progress of cold starts and
// COPY; nil (the default) tells nobody. fn runs on the engine's goroutine,
// between batches, and must not call the engine.
func (e *Engine) SetProgress(fn func(Progress)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.progress = fn
}

// coldStartBatch is how many rows of an input a cold start feeds through
// the circuit per step. Each batch is consolidated (sorted) and applied to
// every operator's state in order, as one bulk step; between batches the
// build reports progress and checks the memory budgets. Bigger batches
// cost aggregates fewer intermediate retractions, smaller ones stop an
// over-budget build sooner. At 1 << 15 the operators' output buffers are
// small enough to be reused from one step to the next (the dataflow
// package keeps those of up to 1 << 15 entries), where bigger batches made
// every step allocate them anew, megabytes the collector then had to chase.
const coldStartBatch = 1 << 15

// coldStart builds a view's state from the current contents of what it
// reads: every input relation's rows, a batch at a time, each batch one
// step of the circuit. It fails with 53200 as soon as the state exceeds
// the view's budget or the engine-wide one; the circuit is then dropped
// and nothing remains of the view.
func (e *Engine) buildView(cv *sql.CreateView) (_ *zview, err error) {
	start := time.Now()
	c, err := compile.CompileIndexed(cv.Plan, e.indexable, cv.Order...)
	if err != nil {
		return nil, err
	}
	e.keyView(c, cv.Plan)
	if len(c.Temporal) > 0 {
		// The other views move to the time the new one starts at.
		if err := e.catchUp(e.clockReading()); err != nil {
			return nil, err
		}
		for _, t := range c.Temporal {
			t.Start(e.now)
		}
		defer e.wake()
	}
	// A table whose rows the view may keep is read whole by the feed, and
	// again by the bulk loads of what keeps them: laid out in id order
	// first if replaces have scattered its rows (table.layout). A table
	// whose rows the view keeps none of is read once, as the rows flow
	// through the circuit, and is not laid out: a layout would cost about
	// what it saves this build, and whether a later build gains from it
	// depends on the rows still being in place then; its new slabs, on top
	// of the build's own allocations, would bring the collector and fresh
	// pages into the build (docs/performance.md).
	// A table a top-k is seeded from (builder.seedTopK) is read once, in
	// place, whether laid out or not, and is not laid out either.
	seeds := seededTopKs(c)
	// A big build's pages come 2 MB at a time (heapPages), from its layout
	// on.
	var rows int64
	for _, rel := range c.Relations {
		rows += e.relationLen(rel)
	}
	huge := rows >= hugeBuildRows && hugeHeap.begin()
	if huge {
		defer hugeHeap.end()
	}
	for _, rel := range c.Relations {
		if t, ok := e.tables[rel]; ok && keepsRows(c, rel) && (seeds[rel] == nil || !fillSeeded) {
			t.layout()
		}
	}
	v := &zview{viewMeta: viewMeta{name: cv.Name, cols: cv.Plan.Columns(), def: cv, createdAt: start, maxMemory: cv.MaxMemory}, c: c}
	v.split = e.newSplit(c.Circuit)
	b := &builder{e: e, v: v, start: start, op: "CREATE MATERIALIZED VIEW " + cv.Name, huge: huge}
	// The smaller relations first: the biggest is fed last, when every
	// other input's state is built, so that its rows, read in the order
	// they are stored, probe the smaller ones' indexes (a join's index of
	// a small relation stays in cache) rather than being probed, each a
	// cache miss, by the smaller ones' rows. The order does not change
	// the view's state, only the steps that build it.
	rels := slices.Clone(c.Relations)
	slices.SortStableFunc(rels, func(x, y string) int { return cmp.Compare(e.relationLen(x), e.relationLen(y)) })
	// Joins reading a table fed last take the table's index, built beside
	// the feed (sharedIndexes.adopt); not under a memory budget, which
	// counts a join's index as its build fills it.
	var adopted []func() error
	adopts := e.maxMemory == 0 && cv.MaxMemory == 0 && len(c.Temporal) == 0 && len(c.Shareable) > 0
	if adopts {
		adopted = e.shared.adopt(e, v, rels)
	}
	if len(c.Reserves) > 0 || adopts {
		defer func() {
			if err != nil {
				e.shared.release(map[string]bool{cv.Name: true})
			}
		}()
		reserved, err := e.shared.reserve(e, v, b.fillLater(seeds))
		b.indexes = func() error {
			err := reserved()
			for _, w := range adopted {
				if werr := w(); err == nil {
					err = werr
				}
			}
			return err
		}
		defer b.indexes() // on an error, before the release: no index is built on past it
		if err != nil {
			return nil, err
		}
	}
	var most int64
	for _, rel := range c.Relations {
		b.total += e.relationLen(rel)
		most = max(most, e.relationLen(rel))
	}
	// A guess at the view's rows, for the slab its Integrate keeps a
	// build's batches in (op.Integrate.ExpectRows): a join on the other
	// side's key, or a filter, yields at most its biggest input's.
	c.View.ExpectRows(int(most))
	b.consts = c.Consts
	// Until Trim below, nothing but this build reads the circuit: its
	// operators may build their state in one load when first read.
	c.Circuit.DeferLoads()
	for _, rel := range rels {
		if k, ok := seeds[rel]; ok && b.indexes != nil {
			err = b.seedTopK(rel, k)
		} else {
			err = b.feedRelation(rel)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(b.consts) > 0 { // a view that reads only constants
		if err := b.step(nil, 0); err != nil {
			return nil, err
		}
	}
	if b.indexes != nil {
		if err := b.indexes(); err != nil {
			return nil, err
		}
	}
	c.Circuit.Trim()
	v.coldStart = time.Since(start)
	v.coldRows = b.done
	b.report(true)
	return v, nil
}

// builder is the state of one cold start.
type builder struct {
	e      *Engine
	v      *zview
	op     string
	start  time.Time
	total  int64                // rows to read
	done   int64                // rows read
	consts map[string]zset.ZSet // fed with the first step, then nil
	buf    zset.ZSet
	g      dataflow.Guard
	// indexes waits for the shared indexes the view's reserves read,
	// built while the view's rows are fed (sharedIndexes.reserve); nil if
	// the view reads none.
	indexes func() error
	// fills holds, by table, the new shared index a seeded top-k reads,
	// which seedTopK fills (fillLater).
	fills map[string]*sharedIndex
	// huge is set when the build asked for huge pages (heapPages): each
	// step marks the heap's new mappings too.
	huge bool
}

// feedRelation feeds one stored relation's rows.
func (b *builder) feedRelation(rel string) error {
	var err error
	flush := func() bool {
		err = b.step(map[string]zset.ZSet{rel: b.buf}, int64(len(b.buf)))
		b.buf = b.buf[:0]
		return err == nil
	}
	add := func(r value.Row, w int64) bool {
		b.buf = append(b.buf, zset.Entry{Row: r, W: w})
		if len(b.buf) == coldStartBatch {
			return flush()
		}
		return true
	}
	e := b.e
	if t, ok := e.tables[rel]; ok {
		t.scan(func(_ uint64, r value.Row) bool { return add(r, 1) })
	} else if v, ok := e.views[rel].(*zview); ok {
		v.c.View.Rows(add)
	}
	if err == nil && len(b.buf) > 0 {
		flush()
	}
	clear(b.buf[:cap(b.buf)])
	return err
}

// step runs one batch (rows read from the relations) through the circuit, then reports progress and
// checks the budgets; before, it looks for a cancel and the statement's timeout.
func (b *builder) step(in map[string]zset.ZSet, rows int64) error {
	if b.consts != nil {
		if in == nil {
			in = map[string]zset.ZSet{}
		}
		for name, z := range b.consts {
			in[name] = z
		}
		b.consts = nil
	}
	b.done += rows
	if b.huge {
		hugeHeap.grow()
	}
	c := b.v.c.Circuit
	if s := b.e.firer; s != nil && !b.e.stepping {
		// A cancellation point per batch: a cancelled build leaves no
		// view, as one over its budget.
		if err := s.checkInterrupts(); err != nil {
			return err
		}
	}
	if err := b.guard(); err != nil {
		return err
	}
	err := c.Step(in)
	c.SetGuard(nil)
	if err != nil {
		return err
	}
	b.report(false)
	return b.guard()
}

// guard checks the budgets against the state held so far and arms the
// circuit's guard with what they leave, so that a step whose joins would
// take the state over a budget fails while it makes their pairs.
func (b *builder) guard() error {
	e, v := b.e, b.v
	left, held, budget, engineWide := int64(-1), int64(0), int64(0), false
	if v.maxMemory > 0 {
		held = v.state().Bytes
		if held > v.maxMemory {
			return budgetError(v.name, held, v.maxMemory, false)
		}
		left, budget = v.maxMemory-held, v.maxMemory
	}
	if e.maxMemory > 0 {
		if b.indexes != nil {
			// The engine-wide budget counts them: built before the
			// first step, as if at once.
			if err := b.indexes(); err != nil {
				return err
			}
		}
		var a dataflow.Accounting
		for _, o := range e.order {
			o.account(&a)
		}
		v.account(&a)
		total := a.Total().Bytes + e.shared.reserveTotal().Bytes
		if total > e.maxMemory {
			return budgetError(v.name, total, e.maxMemory, true)
		}
		if left < 0 || e.maxMemory-total < left {
			left, held, budget, engineWide = e.maxMemory-total, total, e.maxMemory, true
		}
	}
	if left < 0 {
		return nil
	}
	b.g.Reset(left)
	b.g.Over = func(more int64) error { return budgetError(v.name, held+more, budget, engineWide) }
	v.c.Circuit.SetGuard(&b.g)
	return nil
}

func (b *builder) report(finished bool) {
	if b.e.progress != nil {
		b.e.progress(Progress{Op: b.op, Unit: "rows", Done: b.done, Total: b.total,
			Elapsed: time.Since(b.start), Finished: finished})
	}
}

// keepsRows reports whether the view's state may keep rows of the stored
// relation rel: its operators' (dataflow.Circuit.KeepsRows), or an index
// of rel that it reserves.
func keepsRows(c *compile.Compiled, rel string) bool {
	for _, r := range c.Reserves {
		if r.Relation == rel {
			return true
		}
	}
	return c.Circuit.KeepsRows(rel)
}

// relationLen returns the number of rows a stored relation holds.
func (e *Engine) relationLen(rel string) int64 {
	if t, ok := e.tables[rel]; ok {
		return int64(t.rows.Len())
	}
	if v, ok := e.views[rel]; ok {
		return v.rowCount()
	}
	return 0
}
