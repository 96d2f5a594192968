package engine

import (
	"strings"
	"time"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/zset"
)

// txDDL keeps the catalog side of the writer's transaction block once a
// catalog change ran in it: the undo of each catalog change (an image of
// the catalog taken before it, catalogImage), how much of the
// transaction's log is already written to the store and out of the
// commit's steps, and the channel that tells the sessions waiting for the
// block that it ended. From its first catalog change to its end the block
// holds the database alone: other sessions' statements wait (awaitBlock).
type txDDL struct {
	owner *Session
	done  chan struct{}
	undo  []catalogUndo
	// base is the length of the log written to the store: the rows the
	// block changed before its last catalog change, which the views
	// stepped with at that change (txddl_step.go) and the views built
	// since read from the tables. The commit steps the views with the
	// log after it and writes only that.
	base int
	// held are the views' deltas of the block's steps, summed, which
	// the commit delivers with its own (commitBlock, withHeld).
	held map[string]zset.ZSet
	// broken is the store's failure to undo a catalog change: the block
	// can only roll back.
	broken error
}

// catalogUndo undoes one catalog change of a block: the log's length and
// the base before it, the store's mark (-1 without a store), the
// catalog's image, the undo of what a driver holds (onCatalogUndo) and
// the step the views took before the change (nil when none did).
type catalogUndo struct {
	mark, base, store int
	im                *catalogImage
	drivers           []func()
	step              *blockStep
}

// blockCatalogKind reports whether b is a catalog change that may run
// inside a transaction block; the others are refused there (25001).
func blockCatalogKind(b sql.Bound) bool {
	switch b := b.(type) {
	case *sql.CreateTable:
		return !b.Temp
	case *sql.CreateTableAs:
		return !b.Table.Temp
	case *sql.CreateSequence:
		return !b.Temp
	case *sql.CreateView:
		// A temporary one is the session's (createTempView): the image
		// keeps it as any view, keepTempsForUndo the session's name.
		return true
	case *sql.AlterFunction, *sql.AlterRelOwner:
		// A routine's or an aggregate's change replaces it in its list
		// (copy on write).
		return true
	case *sql.AlterTable, *sql.Drop, *sql.CreateIndex, *sql.AlterSequence, *sql.DropSequence,
		*sql.CreateFunction, *sql.DropFunction, *sql.CreateEnum, *sql.CreateComposite, *sql.AlterEnum,
		*sql.DropType, *sql.CreateSchema, *sql.DropSchema, *sql.Comment, *sql.Grant, *sql.GrantSchema,
		*sql.CreateTrigger, *sql.DropTrigger, *sql.CreateExtension, *sql.MoveRelation, *sql.RenameIndex, *sql.SeqPersistence, *sql.RelSetTablespace:
		return true
	case *sql.CreateServer, *sql.DropSink:
		// A server is a record of the driver (foreign_server.go).
		return serverCatalogStmt(b)
	case *sql.Refresh:
		// Populating a view is building it; WITH NO DATA lets go of its
		// state, which the image keeps (refresh.go).
		return true
	case *sql.CreateRole, *sql.AlterRole, *sql.DropRole, *sql.GrantRole, *sql.AlterTypeOwner, *sql.AlterDefaultPrivileges, *sql.GrantDatabase, *sql.GrantType,
		*sql.CreatePolicy, *sql.AlterPolicy, *sql.DropPolicy, *sql.AlterRowSecurity,
		*sql.CreateDomain, *sql.AlterDomain, *sql.DropDomain,
		*sql.CreateRule, *sql.DropRule, *sql.RenameRule, *sql.AlterRules, *sql.AlterTriggers, *sql.RenameTrigger,
		*sql.AttachPartition, *sql.DetachPartition, *sql.AlterPartition, *sql.AlterInherit,
		*sql.CreateStatistics, *sql.DropStatistics, *sql.AlterStatistics, *sql.AlterStatisticsOwner,
		*sql.CreateCollation, *sql.DropCollation, *sql.AlterCollation,
		*sql.CreateCast, *sql.DropCast, *sql.CreateRange, *sql.AlterComposite, *sql.RenameType,
		*sql.AlterSchema, *sql.AlterExtension, *sql.DropExtension, *sql.GrantRoutine,
		*sql.CreateEventTrigger, *sql.AlterEventTrigger, *sql.DropEventTrigger,
		*sql.CreateOperator, *sql.DropOperator, *sql.CreateAggregate, *sql.DropAggregate,
		*sql.AlterViewDefault, *sql.RenameViewColumn:
		// Objects edited in place are copied whole by the image
		// (objectCats, txddl_objects.go).
		return true
	}
	return false
}

// errNotInBlock is the refusal of a catalog change not covered inside a
// transaction block.
func errNotInBlock(what string) error {
	return pgerr.New(pgerr.ActiveTransaction, "%s cannot run inside a transaction block", what).
		WithHint("this catalog change is not transactional in deltaview: run it outside BEGIN … COMMIT")
}

// blockCatalogCheck refuses inside a block what blockCatalog cannot undo.
func (s *Session) blockCatalogCheck(what string) error {
	b := s.stmt
	if !blockCatalogKind(b) {
		return errNotInBlock(what)
	}
	switch b.(type) {
	case *sql.CreateIndex:
		if concurrently(s.ddlText) {
			return pgerr.New(pgerr.ActiveTransaction, "CREATE INDEX CONCURRENTLY cannot run inside a transaction block")
		}
	case *sql.Drop:
		if concurrently(s.ddlText) {
			return pgerr.New(pgerr.ActiveTransaction, "DROP INDEX CONCURRENTLY cannot run inside a transaction block")
		}
	}
	if s.e.store != nil {
		if _, ok := s.e.store.(BlockStore); !ok {
			return errNotInBlock(what)
		}
	}
	return nil
}

// concurrently reports whether a statement's text says INDEX
// CONCURRENTLY.
func concurrently(text string) bool {
	f := strings.Fields(strings.ToUpper(text))
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "INDEX" && f[i+1] == "CONCURRENTLY" {
			return true
		}
	}
	return false
}

// blockCatalog runs a catalog change inside the session's transaction
// block, under the exclusive lock, as its writer: the first takes the
// database for the block and opens the store's transaction; each writes
// the rows changed since the last to the store, keeps the catalog's image
// and a store mark, and runs. A change that fails is undone at once.
func (s *Session) blockCatalog(what string, run func() (Result, error)) (Result, error) {
	e := s.e
	tx := e.tx
	if !s.writer || tx == nil {
		return Result{}, pgerr.New(pgerr.Internal, "%s inside a transaction block without its transaction", what)
	}
	if e.txd == nil {
		if bs, ok := e.store.(BlockStore); ok {
			if err := bs.BeginBlock(); err != nil {
				return Result{}, err
			}
		}
		e.txd = &txDDL{owner: s, done: make(chan struct{})}
		e.gate.Store(e.txd)
	}
	d := e.txd
	if d.broken != nil {
		return Result{}, d.broken
	}
	e.flushPending()
	// Checked now, refused after the change ran: a change that fails
	// anyway fails with its own error, as in PostgreSQL.
	refusal := e.refuseStepped(what, tx.log[d.base:])
	u := catalogUndo{mark: len(tx.log), base: d.base, store: -1, im: e.takeImage()}
	bs, _ := e.store.(BlockStore)
	if bs != nil {
		m, err := bs.Mark()
		if err != nil {
			return Result{}, err
		}
		u.store = m
		if err := e.stageRows(bs, tx.log[d.base:]); err != nil {
			e.undoStore(bs, m)
			return Result{}, err
		}
	}
	if refusal == nil {
		// The views step with the rows changed since the last catalog
		// change: the change starts from views that hold the tables.
		st, err := e.stepBlock(tx.log[d.base:])
		if err != nil {
			if bs != nil {
				e.undoStore(bs, u.store)
			}
			return Result{}, err
		}
		u.step = st
	}
	d.base = len(tx.log)
	d.undo = append(d.undo, u)
	s.keepTempsForUndo()
	res, err := run()
	if err == nil {
		err = refusal
	}
	if err != nil {
		e.undoCatalog(len(d.undo) - 1)
		return Result{}, err
	}
	return res, nil
}

// stageRows writes to the block's store transaction the rows of log: the
// commit writes only the rows changed after.
func (e *Engine) stageRows(bs BlockStore, log []change) error {
	if len(log) == 0 {
		return nil
	}
	for i := range log {
		if c := &log[i]; c.owes {
			// Read now, as a commit reads it (tableDeltas).
			c.t.bytes -= dataflow.RowBytes(c.row)
			c.owes = false
		}
	}
	cm := &e.storeCommit
	*cm = Commit{TS: e.ts + 1, log: log, Renumber: cm.Renumber[:0]}
	defer func() { cm.log = nil }()
	if err := e.store.Write(cm); err != nil {
		e.store.Abort()
		return err
	}
	return bs.Stage()
}

// undoStore rolls the block's store transaction back to mark; a failure
// leaves the block able only to roll back.
func (e *Engine) undoStore(bs BlockStore, mark int) {
	if err := bs.RollbackTo(mark); err != nil && e.txd.broken == nil {
		e.txd.broken = err
	}
	e.forgetReserves()
	e.forgetXidReserve()
}

// forgetReserves makes each sequence record a new reserve at its next
// nextval: those the block's rolled-back store transaction held are gone
// from the file, and a number handed out from them after a crash would be
// handed out again.
func (e *Engine) forgetReserves() {
	for _, q := range e.seqs {
		q.mu.Lock()
		q.left = 0
		q.mu.Unlock()
	}
}

// undoCatalog undoes the block's catalog changes from the i-th on, newest
// first, each with the rows changed after it.
func (e *Engine) undoCatalog(i int) {
	d := e.txd
	if d == nil {
		return
	}
	bs, _ := e.store.(BlockStore)
	for j := len(d.undo) - 1; j >= i; j-- {
		u := d.undo[j]
		e.undoTo(min(u.mark, len(e.tx.log)))
		e.restoreImage(u.im)
		for k := len(u.drivers) - 1; k >= 0; k-- {
			u.drivers[k]()
		}
		if bs != nil && u.store >= 0 {
			e.undoStore(bs, u.store)
		}
		if u.step != nil {
			if err := e.unstep(u.step); err != nil && d.broken == nil {
				d.broken = err
			}
		}
		d.base = u.base
	}
	clear(d.undo[i:])
	d.undo = d.undo[:i]
}

// catalogMark is the number of the block's catalog changes: a savepoint's
// mark of them.
func (e *Engine) catalogMark() int {
	if e.txd == nil {
		return 0
	}
	return len(e.txd.undo)
}

// commitBlock readies the commit of a block that changed the catalog:
// the commit steps and writes the log after the base, and a block with
// nothing after it commits the store's transaction now, before anything
// is acknowledged.
func (e *Engine) commitBlock() error {
	d := e.txd
	if d.broken != nil {
		return d.broken
	}
	e.flushPending()
	e.tx.from = d.base
	d.held = e.heldDeltas(d)
	if bs, ok := e.store.(BlockStore); ok && len(e.tx.log) == d.base {
		return bs.EndBlock(true)
	}
	return nil
}

// endBlock ends a block that changed the catalog: the store's transaction
// is rolled back if still open (a commit wrote it), subscriptions and sinks
// of views the block dropped end, and the waiting sessions go on.
func (e *Engine) endBlock() {
	d := e.txd
	if d == nil {
		return
	}
	if bs, ok := e.store.(BlockStore); ok {
		bs.EndBlock(false) //nolint:errcheck // a rollback of the file: memory is rolled back already
		e.forgetReserves()
		e.forgetXidReserve()
	}
	gone := map[string]bool{}
	for _, sub := range e.subs {
		if e.views[sub.view] == nil {
			gone[sub.view] = true
			if e.unpopulated[sub.view] != nil && sub.end != nil {
				// REFRESH … WITH NO DATA in the block: as outside one.
				sub.end(errNotPopulated(sub.view))
				sub.end = nil
			}
		}
	}
	for _, sa := range e.sinks {
		if e.views[sa.view] == nil {
			gone[sa.view] = true
		}
	}
	if len(gone) > 0 {
		e.endViewUsers(gone)
	}
	e.txd = nil
	e.gate.Store(nil)
	close(d.done)
}

// sessionOnly reports whether b touches only the session (BEGIN, COMMIT,
// SET, SHOW of a setting): it does not wait for another session's block.
func sessionOnly(b sql.Bound) bool {
	switch b := b.(type) {
	case *sql.Tx:
		return true
	case *sql.Set:
		return sessionStmt(b)
	case *sql.Show:
		return showColumns(b.Name) != nil
	}
	return false
}

// awaitBlock waits for the end of another session's block that changed
// the catalog, at most the session's lock_timeout (55P03), as a statement
// of PostgreSQL waits for the ACCESS EXCLUSIVE lock of an altered table.
func (s *Session) awaitBlock(d *txDDL) error {
	s.activityWait("relation")
	defer s.activityWait("")
	timeout, late, err := s.waitTimeout()
	if err != nil {
		return err
	}
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	poll := time.NewTicker(slotPoll)
	defer poll.Stop()
	for {
		select {
		case <-d.done:
			return nil
		case <-poll.C:
			if err := s.Interrupted(); err != nil {
				return err
			}
		case <-expired:
			if late {
				return errStatementTimeout()
			}
			return pgerr.New(pgerr.LockNotAvailable, "canceling statement due to lock timeout").
				WithHint("another session's transaction block changed the catalog: it holds the database until it ends")
		}
	}
}
