package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// A big commit of kept replacements runs in chunks. Written whole, a
// commit of 10,000 replacements reads its 20,000 rows (the old ones
// scattered over the heap, the new ones) once per pass: the table's
// write, then each operator of each view, then the shared indexes; its
// rows, several megabytes, no longer fit the cache (nor their pages the
// TLB) from one pass to the next, and each pass waits for memory again.
// Cut into chunks of a few hundred keys, in key order, each chunk goes
// through the whole commit (the table's write, every view's step and
// commit, the shared indexes' stage and commit) while its rows are in
// the cache.
//
// The transaction stays one: the views step once per chunk, each chunk
// seeing the state the chunks before it left, so that their deltas add up
// to the delta of the whole commit (an incremental operator's delta is the
// difference of its output between two states, and the differences of
// consecutive states telescope); subscribers get that sum, consolidated,
// once, under the commit's one timestamp, as they would without chunks.
// A chunk that fails, or a store that refuses the commit, takes back the
// chunks before it: each is stepped again through the views with its
// changes negated, newest first, with the table written back to match,
// which returns every view and shared index to the rows it held before
// the commit (their contents are functions of their inputs, and each
// negated chunk's rows were evaluated without error when they went in).
// The error is that of the first chunk that fails: with two views failing
// on different rows, it may name another view than a commit in one piece.
//
// What is cut: a commit whose transaction holds only kept replacements
// of one table whose key leads its rows (so that key order is row order
// and each chunk's batch is consolidated and sorted), read by views that
// are all Z-set views without a clock, and none of which holds an
// operator that gains from big steps (a grouping, whose groups' changes
// of one step share one update: dataflow.BatchGainer); with no sinks and
// no events. Anything else commits whole. A chunked commit runs on the
// committing goroutine whatever the workers: committed whole on two,
// its table's write in halves and its views' commits left behind, it
// took as long by the threads' clocks (its critical path) as in chunks on
// one, and a third more work (docs/performance.md, 2026-12-05). Nor does a
// view's step that could split (dataflow.Splitter: a join's probes) share
// a chunk with the other workers, as a batch of 100 under the gate of
// parallelMin does not: the halves read the chunk's rows again on the
// other core, and at rest that core is the collector's, whose marking a
// big batch's allocations call for; the harness at rest gave the join's
// batches of 10,000 1.8 to 2.4 µs a change on one worker against 2.0 to
// 3.1 on two (docs/performance.md, 2026-12-06, "why a batch of 100 is
// cheaper a change").

// defaultChunkRows is the number of keys of a chunk: 512 keys are 1,024
// rows of a batch, a few hundred kilobytes with their entries, which the
// second-level cache holds.
const defaultChunkRows = 512

// chunkState is the scratch of a chunked commit, kept from one to the
// next: the table's batch of each chunk, concatenated, with where each
// chunk starts in it and in the log; and each view's deltas, gathered
// for the subscribers.
type chunkState struct {
	all    zset.ZSet
	starts []int // chunk i's batch is all[starts[i]:starts[i+1]]
	logAt  []int // chunk i's log entries start at logAt[i]
	views  map[string]zset.ZSet
	neg    zset.ZSet
	// stepped is the views that stepped in the chunk under way; steps,
	// each view's count of steps before the commit, in the order in
	// which they first stepped.
	stepped []matView
	steps   []int64
}

// chunks reports whether the commit of tx runs in chunks, and of which
// table.
func (e *Engine) chunks(tx *txn) (*table, bool) {
	p := tx.pending
	if e.chunkRows <= 0 || len(p) < 2*e.chunkRows || len(tx.log) > 0 || len(tx.restarts) > 0 ||
		len(e.sinks) > 0 || e.eventsKept || e.temporal() || len(e.order) == 0 {
		return nil, false
	}
	t := p[0].t
	for i := range p {
		if p[i].t != t {
			return nil, false
		}
	}
	if t.uniques[0].cols[0] != 0 || !e.readTables()[t.name] {
		return nil, false
	}
	return t, e.viewsChunkable()
}

// viewsChunkable reports whether every view may step in chunks: a Z-set
// view without a clock, none of whose operators gains from big steps. A
// walk over the views' operators, once per big commit.
func (e *Engine) viewsChunkable() bool {
	for _, v := range e.order {
		z, isZ := v.(*zview)
		if !isZ || len(z.c.Temporal) > 0 {
			return false
		}
		c := z.c.Circuit
		for id := range dataflow.NodeID(c.Len()) {
			if g, isG := c.Node(id).(dataflow.BatchGainer); isG && g.GainsFromBigSteps() {
				return false
			}
		}
	}
	return true
}

// commitChunked commits tx, whose replacements all go to t, in chunks
// of keys. The caller has checked e.chunks.
func (e *Engine) commitChunked(tx *txn, t *table) error {
	// Each chunk takes the one worker's path (chunks).
	e.bigCommit = false
	e.mu.settleHeld(func() {
		e.tx = tx
		e.rollback()
	})
	p := tx.pending
	b := &e.batch
	keys := b.keys[:0]
	for i := range p {
		keys = append(keys, sortKey{k: uint64(p[i].key) ^ 1<<63, i: int32(i)})
	}
	keys, b.buf = radixSortKeys(keys, b.buf)
	b.keys = keys
	cs := &e.chunk
	cs.all, cs.starts, cs.logAt = cs.all[:0], cs.starts[:0], cs.logAt[:0]
	subs := len(e.subs) > 0
	if subs {
		if cs.views == nil {
			cs.views = map[string]zset.ZSet{}
		}
		for name, z := range cs.views {
			cs.views[name] = z[:0]
		}
	}
	stepped := cs.stepped[:0]
	steppedAny := e.stepped[:0] // every view that stepped in some chunk, once
	for lo := 0; lo < len(keys); {
		hi := min(lo+e.chunkRows, len(keys))
		// A key's replacements stay in one chunk.
		for hi < len(keys) && keys[hi].k == keys[hi-1].k {
			hi++
		}
		e.tx = tx
		logAt := len(tx.log)
		t.delta = e.directDelta(t, 2*(hi-lo))
		e.applyTable(t, p, keys[lo:hi], true)
		e.tx = nil
		lo = hi
		d := t.delta
		if len(d) == 0 {
			continue
		}
		cs.starts = append(cs.starts, len(cs.all))
		cs.logAt = append(cs.logAt, logAt)
		cs.all = append(cs.all, d...)
		var name string
		var err error
		stepped, name, err = e.stepChunk(t.name, d, stepped[:0])
		if err != nil {
			clearFew(stepped)
			cs.stepped = stepped[:0]
			e.undoChunks(tx, t.name, len(cs.starts)-1, logAt)
			e.restoreSteps(steppedAny)
			pe := *pgerr.Wrap(err)
			pe.Detail = viewFailDetail(pe.Detail, name)
			return &pe
		}
		for _, v := range stepped {
			if subs {
				if z := e.stepIn.deltas[v.meta().name]; len(z) > 0 {
					cs.views[v.meta().name] = append(cs.views[v.meta().name], z...)
				}
			}
			if !slices.Contains(steppedAny, v) {
				steppedAny = append(steppedAny, v)
				cs.steps = append(cs.steps, v.meta().steps)
			}
			v.commit()
		}
		if len(e.shared.list) > 0 {
			e.shared.commit()
		}
		e.stepIn = stepInput{}
	}
	clearFew(stepped)
	cs.stepped = stepped[:0]
	// A view steps once a commit, as deltaview_views counts it.
	for i, v := range steppedAny {
		v.meta().steps = cs.steps[i] + 1
	}
	ts := e.ts
	if len(cs.starts) > 0 {
		ts++ // as a commit that changes no view's input does not
	}
	if _, err := e.storeWrite(tx.log, ts, tx.source, true); err != nil {
		e.undoChunks(tx, t.name, len(cs.starts), len(tx.log))
		e.restoreSteps(steppedAny)
		return err
	}
	cs.steps = cs.steps[:0]
	clear(tx.pending)
	tx.pending = tx.pending[:0]
	e.ts = ts
	// Every entry of the log is t's: compactTables's pass over them all
	// (20,000 for a batch of 10,000, long out of the cache) finds only t.
	t.compact()
	if subs && len(cs.all) > 0 {
		deltas := e.deltas
		clear(deltas)
		// The chunks' batches, in key order, make the whole commit's.
		deltas[t.name] = cs.all
		for name, z := range cs.views {
			if len(z) > 0 {
				if z = zset.Consolidate(z); len(z) > 0 {
					deltas[name] = z
				}
			}
		}
		e.notify(deltas)
		clear(deltas)
	}
	e.afterCommit(steppedAny, len(tx.log))
	clearFew(steppedAny)
	e.stepped = steppedAny[:0]
	e.trimChunks()
	return nil
}

// restoreSteps gives the views of a chunked commit taken back the count
// of steps they had before it, and empties the list of those views.
func (e *Engine) restoreSteps(steppedAny []matView) {
	cs := &e.chunk
	for i, v := range steppedAny {
		v.meta().steps = cs.steps[i]
	}
	cs.steps = cs.steps[:0]
	clearFew(steppedAny)
	e.stepped = steppedAny[:0]
}

// stepChunk prepares every view over one chunk's batch d of the table
// name and stages the shared indexes; on failure it aborts what it staged
// and returns the failing view's name (empty for an index).
func (e *Engine) stepChunk(name string, d zset.ZSet, stepped []matView) ([]matView, string, error) {
	if e.deltas == nil {
		e.deltas = map[string]zset.ZSet{}
	}
	deltas := e.deltas
	clear(deltas)
	deltas[name] = d
	in := &e.stepIn
	*in = stepInput{deltas: deltas, step: e.ts + 1, changes: len(d), one: name, oneZ: d}
	if len(e.shared.list) > 0 {
		e.shared.setAhead(deltas)
		defer e.shared.setAhead(nil)
	}
	stepped, failed, err := e.prepareViews(in, stepped)
	if err == nil && len(e.shared.list) > 0 {
		err = e.shared.stage(deltas)
	}
	if err != nil {
		for _, v := range stepped {
			v.abort()
		}
		e.shared.abort()
		*in = stepInput{}
		return stepped, failed, err
	}
	return stepped, "", nil
}

// undoChunks takes back the first n chunks of a chunked commit of the
// table name, whose log ends at end (the entries past it, of a chunk
// that failed, are taken back first): newest first, each chunk's table
// writes are undone and its batch, negated, is stepped through the views
// and the shared indexes, which then hold what they held before the
// chunk. Then the transaction is rolled back.
func (e *Engine) undoChunks(tx *txn, name string, n, end int) {
	cs := &e.chunk
	e.tx = tx
	e.undoTo(end)
	e.tx = nil
	stepped := cs.stepped[:0]
	for i := n - 1; i >= 0; i-- {
		e.tx = tx
		e.undoTo(cs.logAt[i])
		e.tx = nil
		stop := len(cs.all)
		if i+1 < len(cs.starts) {
			stop = cs.starts[i+1]
		}
		neg := cs.neg[:0]
		for _, en := range cs.all[cs.starts[i]:stop] {
			neg = append(neg, zset.Entry{Row: en.Row, W: -en.W})
		}
		cs.neg = neg
		var err error
		stepped, _, err = e.stepChunk(name, neg, stepped[:0])
		if err != nil {
			// Each of the chunk's rows went through the views without
			// error on its way in, and goes out the same way.
			panic(fmt.Sprintf("engine: taking back a chunk of a failed commit: %v", err))
		}
		for _, v := range stepped {
			v.commit()
		}
		if len(e.shared.list) > 0 {
			e.shared.commit()
		}
		e.stepIn = stepInput{}
	}
	clearFew(stepped)
	cs.stepped = stepped[:0]
	e.tx = tx
	e.rollback()
	e.trimChunks()
}

// trimChunks lets go of a chunked commit's scratch when it grew past
// what is kept for the next.
func (e *Engine) trimChunks() {
	cs := &e.chunk
	clearFew(cs.all)
	clearFew(cs.neg)
	if cap(cs.all) > maxReusedDelta {
		cs.all = nil
	}
	if cap(cs.neg) > maxReusedDelta {
		cs.neg = nil
	}
	for name, z := range cs.views {
		clearFew(z)
		if cap(z) > maxReusedDelta {
			delete(cs.views, name)
		}
	}
}
