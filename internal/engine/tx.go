package engine

import (
	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// txn is the writer's open transaction: the log of row changes it made,
// which is at once its undo log, what other sessions' reads undo to see the
// committed state, and, at commit, the tables' deltas.
type txn struct {
	explicit bool // BEGIN was issued; otherwise one statement autocommits
	log      []change
	// pending are replacements by key not yet written to their tables
	// (pending.go): the log does not hold them yet.
	pending []pendingRow
	source  *SourcePosition // the subscription position the commit records
	// restarts are the sequences TRUNCATE … RESTART IDENTITY restarted
	// (restart.go).
	restarts []seqRestart
	// fkCheck is set when a deferred foreign key left its checks for the
	// commit (fkey_deferred.go).
	fkCheck bool
	// keyCheck is set when a deferred DEFERRABLE key left its check for
	// the commit (key_deferrable.go).
	keyCheck bool
	// deferred are the deferred constraint triggers' events, which fire
	// at commit (trigger_constraint.go).
	deferred []deferredEvent
	// from is where the commit's part of the log starts: a block that
	// changed the catalog wrote the rows before its last catalog change
	// to the store already (txddl.go); full is the whole log while the
	// commit runs on the part.
	from int
	full []change
	// heapUndo are the places of the rows its UPDATEs rewrote, as they
	// were (heap_order.go).
	heapUndo []heapUndo
}

// change is one row inserted (w = +1) or deleted (w = -1) under id, or
// (w = 0) one change event of a change-stream table that keeps no rows.
type change struct {
	t   *table
	id  uint64
	row value.Row
	w   int32
	// owes says that the table's bytes still count this deleted row
	// (table.replaceByKey): the commit subtracts them, or the undo that
	// puts the row back does not count it twice.
	owes bool
	ev   delta.Change
	// pre is the row's zset.PrefixOf, taken by an update while the row
	// is in the cache, so that a big batch is consolidated at commit
	// without reading its rows again; zero when not taken.
	pre zset.RowPrefix
}

// begin returns the open transaction, opening an implicit one if needed.
func (e *Engine) begin() *txn {
	if e.tx == nil {
		e.tx = e.newTxn(false)
	}
	return e.tx
}

// autocommit runs a data-changing statement: atomically within the open
// transaction, or as a transaction of its own.
func (e *Engine) autocommit(fn func() (Result, error)) (Result, error) {
	tx := e.begin()
	res, err := e.atomically(fn)
	if tx.explicit {
		return res, err
	}
	if err != nil {
		e.tx = nil
		return Result{}, err
	}
	if err := e.commit(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// atomically runs a data change inside the open transaction (begun if
// none is), undoing what it did when it fails: a statement, or one of
// PL/pgSQL code, whose statement's transaction commits it.
func (e *Engine) atomically(fn func() (Result, error)) (Result, error) {
	tx := e.begin()
	mark, restarts, cat := len(tx.log), len(tx.restarts), e.catalogMark()
	res, err := fn()
	if err == nil && e.fkeys != nil {
		err = e.enforceForeignKeys(mark)
	}
	if err == nil && e.deferKeys {
		err = e.checkKeys(mark, nil)
	}
	if err != nil {
		e.undoRestarts(restarts)
		if e.steppedSince(cat) {
			// The views stepped with rows the statement changed: its
			// catalog changes go with its rows, newest first, so that
			// their undo finds the tables as their steps did.
			e.undoCatalog(cat)
		}
		e.undoTo(mark)
		return Result{}, err
	}
	return res, nil
}

// insertRow stores a new row, logging the change.
func (e *Engine) insertRow(t *table, row value.Row) (uint64, error) {
	t = e.current(t)
	if t.def.PartitionBy != nil {
		if err := e.partitionCheck(t, nil, row); err != nil {
			return 0, err
		}
	} else if err := t.check(row); err != nil {
		return 0, err
	}
	if u, _, dup := t.conflict(row); dup {
		return 0, uniqueViolation(u, t, row)
	}
	if t.excl != nil {
		if err := t.checkExclusions(row, t.nextID, false, len(e.tx.log)); err != nil {
			return 0, err
		}
	}
	id := t.nextID
	t.stat.ins++
	t.put(id, row)
	e.tx.log = append(e.tx.log, change{t: t, id: id, row: row, w: 1})
	return id, nil
}

// deleteRow removes the row with id, logging the change.
func (e *Engine) deleteRow(t *table, id uint64) {
	t = e.current(t)
	row := t.remove(id)
	if row != nil {
		t.stat.del++
		e.tx.log = append(e.tx.log, change{t: t, id: id, row: row, w: -1})
	}
}

// undoTo reverts the open transaction's changes after the first mark.
func (e *Engine) undoTo(mark int) {
	log := e.tx.log
	for i := len(log) - 1; i >= mark; i-- {
		c := log[i]
		if c.w == 0 {
			continue
		}
		if c.w > 0 {
			c.t.remove(c.id)
		} else {
			c.t.put(c.id, c.row)
			if c.owes {
				c.t.bytes -= dataflow.RowBytes(c.row)
			}
		}
	}
	if e.deferKeys {
		forgetRechecks(log, mark)
	}
	if len(e.tx.heapUndo) > 0 {
		e.tx.undoHeap(mark)
	}
	clear(log[mark:]) // the reused log holds no stale rows past its length
	e.tx.log = log[:mark]
	e.tx.dropDeferred(mark)
}

func (e *Engine) rollback() {
	if e.tx != nil {
		if tx := e.tx; tx.full != nil {
			// A commit of a block's part failed: the whole log is undone.
			tx.log, tx.full = append(tx.full[:tx.from:tx.from], tx.log...), nil
		}
		e.undoRestarts(0)
		e.undoCatalog(0)
		e.undoTo(0)
		clear(e.tx.pending)
		e.tx.pending = e.tx.pending[:0]
		e.tx = nil
	}
	clear(e.batch.direct)
	e.batch.direct = e.batch.direct[:0]
}

// maxSpareLog is the capacity up to which a transaction's log is kept for
// the next (4 MB): a batch of thousands of changes then does not grow its
// log from nothing each time, and a bulk load's log is let go.
const maxSpareLog = 1 << 16

// newTxn returns an empty transaction, reusing the last one's log.
func (e *Engine) newTxn(explicit bool) *txn {
	tx := e.spare
	e.spare = nil
	if tx == nil || cap(tx.log) > maxSpareLog || cap(tx.pending) > maxSpareLog || cap(tx.heapUndo) > maxSpareLog {
		return &txn{explicit: explicit}
	}
	clearFew(tx.log) // undoTo cleared whatever lies past the length
	clearFew(tx.pending)
	clear(tx.heapUndo)
	*tx = txn{explicit: explicit, log: tx.log[:0], pending: tx.pending[:0], heapUndo: tx.heapUndo[:0]}
	return tx
}

// commit ends the open transaction: it steps every view with the tables'
// consolidated changes, all views or none, then tells subscribers. A view
// that fails (an expression error on the new rows) rolls the whole
// transaction back.
//
// The commit of one change runs at every call: its path takes no defer
// (a function with many returns pays for each), walks no map but the
// tables' batches, and skips what is not in use (a clock, events, shared
// indexes, subscribers, sinks, a store) at the cost of a test each.
func (e *Engine) commit() error {
	tx := e.tx
	if tx != nil && len(tx.deferred) > 0 {
		if err := e.fireAtCommit(); err != nil {
			e.rollback()
			return err
		}
	}
	if tx != nil && tx.fkCheck {
		// Before the views step: a failure leaves them as they were.
		if err := e.enforceForeignKeysOf(0, func(l *fkLink) bool { return l.fk.Deferrable }); err != nil {
			e.rollback()
			return err
		}
	}
	if tx != nil && tx.keyCheck {
		if err := e.checkKeys(0, func(string, bool) bool { return true }); err != nil {
			e.rollback()
			return err
		}
	}
	e.tx = nil
	if tx == nil {
		return nil
	}
	if tx.from > 0 {
		tx.full, tx.log = tx.log, tx.log[tx.from:]
	}
	var err error
	if len(tx.log) > 0 || len(tx.pending) > 0 || e.txd != nil && e.txd.held != nil {
		ph := e.startPhases()
		e.ph, e.stepping = ph, true
		e.bigCommit = e.parallelCommit(len(tx.log) + 2*len(tx.pending))
		e.batch.whole.reset() // a commit that panicked may have left it
		err = e.commitTx(tx)
		e.batch.whole.reset()
		ph.end()
		e.ph, e.stepping, e.bigCommit = nil, false, false
	}
	if err == nil && len(tx.restarts) > 0 {
		e.commitRestarts(tx.restarts)
	}
	if tx.full != nil { // the rows of the block's part written before
		clear(tx.full[:tx.from])
		tx.full = nil
	}
	// A bulk load's log is let go at once: it holds a slot per row
	// loaded, and the views built after the load would otherwise keep it
	// alive beside them.
	if e.tx == nil && cap(tx.log) <= maxSpareLog && cap(tx.pending) <= maxSpareLog {
		e.spare = tx
	}
	return err
}

// commitTx is commit for a transaction that changed something.
func (e *Engine) commitTx(tx *txn) error {
	ph := e.ph
	if t, ok := e.chunks(tx); ok {
		return e.commitChunked(tx, t)
	}
	if len(tx.pending) > 0 {
		// Written here, so that the store, the views and a rollback see
		// them in the log like any change; a transaction of replacements
		// alone gets its tables' batches built as they are written.
		e.tx = tx
		e.applyPending(len(tx.log) == 0)
		e.tx = nil
		ph.mark("table writes")
	}
	// A commit holds lockChanges only: its table writes ran beside the
	// commits the last commit left behind, which the views' steps wait
	// for. If those failed, the writes are taken back before the panic
	// goes on, so that the tables stay as the store and the views have
	// them.
	e.mu.settleHeld(func() {
		e.tx = tx
		e.rollback()
	})
	temporal := e.temporal()
	if temporal {
		// The views first move to the commit's time, each instant at
		// which a row enters or leaves one a step of its own.
		if err := e.catchUp(e.clockReading()); err != nil {
			e.tx = tx
			e.rollback()
			return err
		}
	}
	err := e.commitDeltas(tx, temporal)
	if temporal {
		e.wake()
	}
	return err
}

// commitDeltas gathers the tables' batches of the transaction and steps
// the views that read them.
func (e *Engine) commitDeltas(tx *txn, temporal bool) error {
	ph := e.ph
	deltas, one, changed := e.tableDeltas(tx.log)
	events, nEvents, anyEvents := e.tableEvents(tx.log)
	ph.mark("table deltas")
	if len(deltas) == 0 && nEvents == 0 && (e.txd == nil || e.txd.held == nil) {
		ts := e.ts
		if changed || anyEvents {
			ts++ // a commit that no view reads
		}
		if _, err := e.storeWrite(tx.log, ts, tx.source, true); err != nil {
			e.tx = tx
			e.rollback()
			return err
		}
		e.ts = ts
		e.compactTables(tx.log)
		return nil
	}
	in := &e.stepIn
	*in = stepInput{deltas: deltas, events: events, step: e.ts + 1, changes: len(tx.log)}
	if one != "" && nEvents == 0 && !temporal {
		in.one, in.oneZ = one, deltas[one]
	}
	// A temporal view's commit is read at once: the commit's end wakes the
	// clock, which asks the views when they next change.
	e.leaveBehind = !temporal && e.commitsBehind(len(tx.log), deltas)
	if temporal {
		deltas[compile.ClockInput] = clockBatch(e.now)
		in.changes = 0 // the clock's batch is not counted
	}
	stepped, err := e.stepViews(tx, in, temporal)
	clearFew(stepped)
	e.stepped = stepped[:0]
	*in = stepInput{}
	e.leaveBehind = false
	return err
}

// stepViews prepares the views, commits the transaction to the store and
// the sinks, then commits the views and the indexes and tells the
// subscribers; on failure it rolls the transaction back. It returns the
// views that stepped, in e.stepped's memory.
func (e *Engine) stepViews(tx *txn, in *stepInput, temporal bool) ([]matView, error) {
	ph := e.ph
	deltas := in.deltas
	// A refill that extends a reserve index reads the table as the index
	// has it: without this step's change.
	if len(e.shared.list) > 0 {
		e.shared.setAhead(deltas)
		defer e.shared.setAhead(nil)
	}
	// A view reading another sees its delta of this step.
	stepped, name, err := e.prepareViews(in, e.stepped[:0])
	if err != nil {
		return stepped, e.failCommit(tx, stepped, name, err)
	}
	if temporal {
		delete(deltas, compile.ClockInput)
	}
	// Indexes shared by several views' joins absorb the step once; their
	// readers saw them as they were before it.
	if len(e.shared.list) > 0 {
		if err := e.shared.stage(deltas); err != nil {
			return stepped, e.failCommit(tx, stepped, "", err)
		}
	}
	ph.mark("index stage")
	// The subscribers and sinks of a block whose catalog changes stepped
	// the views receive those steps with this one (txddl_step.go).
	deltas = e.withHeld(deltas)
	// The store stages the transaction before the sinks commit theirs and
	// makes it durable after: a store that refuses it refuses it before
	// any sink holds it.
	staged, err := e.storeWrite(tx.log, e.ts+1, tx.source, false)
	if err != nil {
		return stepped, e.refuseCommit(tx, stepped, err)
	}
	if len(e.sinks) > 0 {
		if name, err := e.prepareSinks(deltas); err != nil {
			if staged {
				e.store.Abort()
			}
			return stepped, e.failCommit(tx, stepped, name, err)
		}
	}
	if staged {
		if err := e.store.Commit(); err != nil {
			e.detachSinks(e.ts+1, err)
			return stepped, e.refuseCommit(tx, stepped, err)
		}
	}
	ph.mark("store and sinks")
	e.ts++
	if e.leaveBehind {
		// The views' commits join the indexes' on a goroutine left
		// behind (behind.go); what the commit's end reads of the views,
		// their deltas and their refills, is read before.
		e.notify(deltas)
		e.afterCommit(stepped, len(tx.log))
		ph.mark("notify")
		e.commitBehind(stepped, in)
		ph.mark("views and index commit")
		e.compactTables(tx.log)
		ph.mark("compact")
		return stepped, nil
	}
	for _, v := range stepped {
		v.commit()
	}
	ph.mark("views commit")
	if len(e.shared.list) > 0 {
		e.shared.commit()
	}
	ph.mark("index commit")
	e.compactTables(tx.log)
	ph.mark("compact")
	if len(e.subs) > 0 {
		e.notify(deltas)
	}
	e.afterCommit(stepped, len(tx.log))
	ph.mark("notify")
	return stepped, nil
}

// failCommit rolls back a commit that a view (name) or a sink failed:
// the views that stepped and the shared indexes drop their step. The
// error says which view failed.
func (e *Engine) failCommit(tx *txn, stepped []matView, name string, err error) error {
	e.abortCommit(tx, stepped)
	pe := *pgerr.Wrap(err)
	pe.Detail = viewFailDetail(pe.Detail, name)
	return &pe
}

// refuseCommit rolls the transaction back when the store could not
// record it: the error is the store's, with its SQLSTATE.
func (e *Engine) refuseCommit(tx *txn, stepped []matView, err error) error {
	e.abortCommit(tx, stepped)
	return err
}

func (e *Engine) abortCommit(tx *txn, stepped []matView) {
	for _, v := range stepped {
		v.abort()
	}
	e.shared.abort()
	e.tx = tx
	e.rollback()
}

// compactTables compacts the tables a committed transaction changed.
func (e *Engine) compactTables(log []change) {
	if ts := e.batch.whole.of(log); ts != nil {
		for _, t := range ts {
			t.compact()
		}
		return
	}
	compactLogTables(log)
}

// compactLogTables compacts the tables of log's changes.
func compactLogTables(log []change) {
	for i, c := range log {
		if i == 0 || c.t != log[i-1].t {
			c.t.compact()
		}
	}
}

func readsAny(v *zview, deltas map[string]zset.ZSet) bool {
	if len(v.c.Temporal) > 0 {
		if _, ok := deltas[compile.ClockInput]; ok {
			return true
		}
	}
	for _, r := range v.c.Relations {
		if _, ok := deltas[r]; ok {
			return true
		}
	}
	return false
}

// tableDeltas returns the consolidated changes of the tables that views
// read, the table's name when there is one such batch, and whether the
// transaction changed anything at all. The changes of tables no view reads
// (a bulk load before any view) are not gathered: for them it is enough to
// know that something changed.
func (e *Engine) tableDeltas(log []change) (map[string]zset.ZSet, string, bool) {
	read := e.readTables()
	unreadChanges, insertsOnly, changed := false, true, false // of the tables no view reads
	one := ""
	// The map and each table's batch are reused from one commit to the
	// next: operators and subscribers are done with them when a commit
	// returns.
	if e.deltas == nil {
		e.deltas = map[string]zset.ZSet{}
	}
	deltas := e.deltas
	clear(deltas)
	// Each read table gathers its changes in its own batch; the map is
	// filled once per table, not once per change.
	touched := e.touched[:0]
	// A big batch is consolidated by the prefixes its updates took.
	prefixed := len(log) >= prefixedMin
	// The tables whose batches applyPending built are done.
	for _, t := range e.batch.direct {
		t.built = true
		if len(t.delta) > 0 {
			deltas[t.name] = t.delta
			one = t.name
			changed = true
		}
	}
	var last *table
	lastRead := false
	if e.batch.whole.of(log) != nil {
		log = nil // every entry's table is built
	}
	for i := range log {
		c := &log[i]
		if c.w == 0 || c.t.built {
			continue
		}
		if c.owes {
			// The row leaves the table's bytes now that it is read.
			c.t.bytes -= dataflow.RowBytes(c.row)
			c.owes = false
		}
		if c.t != last {
			last, lastRead = c.t, e.isRead(c.t)
		}
		if !lastRead {
			unreadChanges = true
			insertsOnly = insertsOnly && c.w > 0
			continue
		}
		if !c.t.gathering {
			c.t.gathering = true
			c.t.delta = c.t.reuseDelta(len(log))
			c.t.pre = c.t.pre[:0]
			touched = append(touched, c.t)
		}
		c.t.delta = append(c.t.delta, zset.Entry{Row: c.row, W: int64(c.w)})
		if prefixed {
			p := c.pre
			if p == (zset.RowPrefix{}) {
				p = zset.PrefixOf(c.row)
			}
			c.t.pre = append(c.t.pre, p)
		}
	}
	for _, t := range e.batch.direct {
		t.built = false
	}
	clearFew(e.batch.direct)
	e.batch.direct = e.batch.direct[:0]
	// Inserts alone cannot cancel out: each has a new row id.
	changed = changed || unreadChanges && insertsOnly
	if unreadChanges && !changed {
		unread := map[string]zset.ZSet{}
		for _, c := range log {
			if c.w != 0 && !read[c.t.name] {
				unread[c.t.name] = append(unread[c.t.name], zset.Entry{Row: c.row, W: int64(c.w)})
			}
		}
		for _, z := range unread {
			changed = changed || len(zset.Consolidate(z)) > 0
		}
	}
	for _, t := range touched {
		t.gathering = false
		// Consolidate works in place; t.delta keeps the whole batch for
		// reuse.
		var pre []zset.RowPrefix
		if prefixed {
			pre = t.pre
		}
		if z := e.consolidate(t.delta, pre); len(z) > 0 {
			deltas[t.name] = z
			one = t.name
			changed = true
		}
	}
	clearFew(touched)
	e.touched = touched[:0]
	if len(deltas) != 1 {
		one = ""
	}
	return deltas, one, changed
}

// readTables returns the tables some view reads. It is computed once per
// set of views: creating or dropping a view resets it.
func (e *Engine) readTables() map[string]bool {
	if e.read != nil {
		return e.read
	}
	e.read = map[string]bool{}
	e.readGen++
	for _, v := range e.order {
		for _, r := range v.relations() {
			e.read[r] = true
		}
	}
	return e.read
}

// isRead reports whether some view reads t (readTables), without a
// lookup by name once t has cached it for the current views.
func (e *Engine) isRead(t *table) bool {
	read := e.readTables()
	if t.readGen != e.readGen {
		t.read, t.readGen = read[t.name], e.readGen
	}
	return t.read
}

// tableEvents returns the change events of the tables that keep no rows
// and that views read, by table, in the order they came; how many tables
// have events; and whether the transaction held any event.
func (e *Engine) tableEvents(log []change) (map[string]delta.Batch, int, bool) {
	held := false
	if e.batch.whole.of(log) != nil {
		log = nil // replacements alone
	}
	for i := range log {
		if log[i].w == 0 {
			held = true
			break
		}
	}
	if !held && !e.eventsKept {
		// No events now, and every batch is empty since the last
		// commit's: nothing to clear or gather.
		return e.events, 0, false
	}
	if e.events == nil {
		e.events = map[string]delta.Batch{}
	}
	events := e.events
	for k, b := range events {
		clear(b)
		events[k] = b[:0]
	}
	read := e.readTables()
	for _, c := range log {
		if c.w == 0 && read[c.t.name] {
			events[c.t.name] = append(events[c.t.name], c.ev)
		}
	}
	// A table without events this time keeps its entry, empty, and its
	// batch's memory for the next commit; readers test the length.
	n := 0
	for _, b := range events {
		if len(b) > 0 {
			n++
		}
	}
	e.eventsKept = n > 0
	return events, n, held
}

// prefixedMin is the transaction from which tableDeltas gathers the
// tables' batches with their rows' prefixes.
const prefixedMin = 64

// maxReusedDelta is the largest batch a table keeps for its next delta:
// the 20,000 entries of a transaction of 10,000 updates.
const maxReusedDelta = 1 << 15

// directDelta returns an empty batch for t's delta, built as the commit
// writes t's replacements: those writes run while the views' and indexes'
// commits left behind by the last commit may still read its batch (a
// view that passes it on, an index that holds its rows), so that the
// table then alternates between two batches.
func (e *Engine) directDelta(t *table, n int) zset.ZSet {
	if e.mu.behind != nil {
		t.delta, t.spare = t.spare, t.delta
	}
	return t.reuseDelta(n)
}

// reuseDelta returns an empty batch for the table's next delta, with room
// for up to n entries: the last one's memory when it is small enough to
// keep.
func (t *table) reuseDelta(n int) zset.ZSet {
	z := t.delta
	clearFew(z)
	if cap(t.pre) > maxReusedDelta {
		t.pre = nil
	}
	if cap(z) > maxReusedDelta {
		return make(zset.ZSet, 0, min(n, maxReusedDelta))
	}
	return z[:0]
}
