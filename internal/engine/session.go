package engine

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Session is one connection to the engine: its transaction block (BEGIN …
// COMMIT), its settings, the role whose privileges its statements need
// (none: a superuser), and the results of its statement-level
// subscriptions not yet returned. A session is used by one
// goroutine at a time; sessions run concurrently.
//
// Isolation is PostgreSQL's READ COMMITTED: each statement sees the state
// committed when it starts, plus its own transaction's changes. Writers
// are serialised: a session takes the engine's writer slot at its first
// change and keeps it until its transaction ends (in autocommit, until the
// statement ends), so no two transactions ever change the same rows. A
// session that reads while another holds the slot never waits for that
// transaction: it reads the tables through the writer's undo log (see
// committedSource).
type Session struct {
	// unnamedPortals counts the unnamed portals PL/pgSQL opened
	// (plpgsql.PortalNamer).
	unnamedPortals int
	// conn are the addresses of the connection the session serves
	// (connection.go).
	conn connAddrs
	// stmt and rec are the statement running and its recorder
	// (blockCatalogCheck).
	stmt sql.Bound
	rec  *recorder
	// ddlText is the text of the statement running, which event triggers
	// read the command tag of (event_trigger.go).
	ddlText string
	// evtEvent is the event of the event triggers running, evtRows what
	// their functions read (event_trigger_end.go).
	evtEvent string
	evtRows  []value.Row
	// cursors are the server's cursors of the transaction block, and
	// plCursors those of the PL/pgSQL calls running (currentof.go).
	cursors   CursorSource
	plCursors []CursorSource
	e         *Engine
	block     bool // BEGIN was issued
	// withFigures, set by EXPLAIN ANALYZE of a statement with
	// data-modifying WITH items, collects its parts' figures
	// (explain_with.go).
	withFigures *withFigures
	// fresh are the tables the transaction block created or truncated,
	// with the savepoints open then, for COPY … FREEZE (copy_freeze.go).
	fresh map[string][]uint64
	// promoted: PL/pgSQL code run outside a transaction block (DO,
	// CALL, SELECT f(…)) made its statement a block by a catalog change;
	// the statement's end commits or rolls it back (routine_catalog.go).
	promoted bool

	// active are the recorders of the queries PL/pgSQL code is running,
	// whose relations its catalog changes may not alter
	// (routine_inuse.go).
	active []*recorder
	// portals are the open cursors of the transaction, PL/pgSQL's and
	// DECLARE's (portals.go).
	portals plpgsql.Portals

	// prepared are the statements of SQL's PREPARE, by name (sqlprepare.go).
	prepared map[string]*Prepared
	failed   bool // a statement failed inside the block: only ROLLBACK remains
	writer   bool // the session holds the writer slot: e.tx is its transaction
	// txStart is the start of the session's transaction, which ad-hoc
	// statements' now() reads (stmtclock.go).
	txStart int64
	// lockTimeout bounds the wait for the writer slot (SET lock_timeout);
	// 0 waits for ever.
	lockTimeout time.Duration
	// stmtTimeout bounds a statement (SET statement_timeout), idleTimeout
	// a server's wait for the next one outside a transaction (SET
	// idle_session_timeout); 0 for none. deadline is the running
	// statement's end, zero for none.
	stmtTimeout time.Duration
	idleTimeout time.Duration
	// idleTxTimeout is idle_in_transaction_session_timeout: a server's
	// wait for the next statement inside a transaction block.
	idleTxTimeout time.Duration
	deadline      time.Time
	copyData      io.Reader // the data of the COPY FROM STDIN being executed
	copyDecoded   bool      // copyData holds a binary COPY's rows in the text format
	copyBinary    bool      // the client encodes and decodes COPY's binary format
	// inbox holds the result sets of the session's statement-level
	// subscriptions, filled by whichever session commits and returned after
	// the session's next statement.
	inboxMu sync.Mutex
	inbox   []Result
	subs    []*subscription
	closed  bool
	// role is the role whose privileges the session's statements need;
	// empty for none (roles.go). login is the role the session logged in
	// as, empty for the built-in superuser; superuserIsRole says that the
	// name SuperuserName, as SET ROLE took it, is a role of the catalog
	// (setrole.go).
	role, login     string
	superuserIsRole bool
	// asViewOwner is set while the session checks a view's relations as
	// its owner (view_owner_acl.go).
	asViewOwner bool
	// temps are the session's temporary tables by the name its statements
	// use; tempNS prefixes their names in the engine (temp.go).
	temps  map[string]*tempTable
	tempNS string
	// pathOverride replaces the search path while CREATE SCHEMA runs its
	// schema elements, in the new schema (schema.go).
	pathOverride []string
	// restoring is set on the session a store runs its statements in
	// when it opens a file (MarkRestoring).
	restoring bool
	// tempsMade are the temporary tables the open block made, which its
	// rollback drops.
	tempsMade []string
	// gucs are the session's settings (guc.go).
	gucs settings
	// seq holds the values currval and lastval read (sequence.go).
	seq seqState
	// savepoints are the open block's savepoints, oldest first
	// (savepoint.go); spSeq counts the savepoints set, and rolledBack is
	// the lowest number of one rolled back to since TakeRolledBack.
	savepoints []savepoint
	spSeq      uint64
	rolledBack uint64
	// routineDepth counts the PL/pgSQL calls running; plBindings keeps
	// the bindings of their statements (routine.go).
	routineDepth int
	// triggerDepth counts the trigger functions running, one inside
	// another: pg_trigger_depth().
	triggerDepth int
	plBindings   plBindings
	// definers are the owners of the SECURITY DEFINER routines running,
	// innermost last, as roleIDs: the session acts as the last
	// (routine_security.go).
	definers []string
	// trans are the transition tables of the trigger calls running
	// (trigger_transition.go).
	trans []*transFrame
	// cons are the SET CONSTRAINTS of the transaction block
	// (trigger_constraint.go).
	cons conModes
	// pid is the session's number, 0 until asked (advisory.go); advisory
	// says that it may hold advisory locks.
	pid      int32
	advisory bool
	// canWait is set while a query runs, whose wait for an advisory lock
	// is made with no lock held (awaitAdvisory); stmtTakes are the
	// advisory locks it took, which it gives back to wait.
	canWait   bool
	stmtTakes []advisoryTake
	// act is what pg_stat_activity shows of the session, once it runs
	// SQL (activity.go).
	act activity
	// xid is the transaction's id, 0 until asked (xid.go).
	xid int64
	// snapped is set once the transaction block ran its first query,
	// which fixes its snapshot (isolation.go).
	snapped bool
	// ntx is what the transaction does to notifications; notifyWake
	// signals that some may have come (notify.go).
	ntx        notifyTx
	notifyWake chan struct{}
	listening  atomic.Bool // q.listeners holds the session
}

// NewSession returns a new session on e, in autocommit mode.
func (e *Engine) NewSession() *Session { return &Session{e: e} }

// InitSession makes *s a new session on e, in autocommit mode: for a
// caller that keeps the session inside a value of its own, one allocation
// for both. s must not be a session in use.
func (e *Engine) InitSession(s *Session) { *s = Session{e: e} }

// InitTxSession makes *s a new session on e inside a transaction block,
// as after BEGIN. s must not be a session in use.
func (e *Engine) InitTxSession(s *Session) { *s = Session{e: e, block: true} }

// SetLockTimeout sets how long the session's changes wait for another
// session's transaction, as SET lock_timeout does; 0 waits for ever.
func (s *Session) SetLockTimeout(d time.Duration) { s.setDuration("lock_timeout", d) }

// InBlock reports whether a transaction block (BEGIN) is open.
func (s *Session) InBlock() bool { return s.block }

// Failed reports whether a statement failed inside the open transaction
// block: only ROLLBACK (or COMMIT, which rolls back) remains.
func (s *Session) Failed() bool { return s.failed }

// Fail marks an open transaction block failed, as a failed statement does:
// for a caller that refuses a statement before the session runs it (a
// parameter it cannot decode). It returns err.
func (s *Session) Fail(err error) error { return s.fail(err) }

// Close ends the session: an open transaction is rolled back and its
// statement-level subscriptions end. A closed session runs nothing.
func (s *Session) Close() {
	if s.closed {
		return
	}
	s.Rollback()
	s.unlistenAll()
	s.releaseAdvisory(true, true)
	s.endActivity()
	s.discardTemps()
	if len(s.subs) > 0 {
		s.e.mu.Lock()
		for _, sub := range s.subs {
			s.e.unsubscribe(sub)
		}
		s.e.mu.Unlock()
		s.subs = nil
	}
	s.closed = true
}

var errClosed = pgerr.New(pgerr.ProtocolViolation, "the session is closed")

// access is what a statement needs of the engine's locks.
type access int

const (
	// accessSession statements change only the session: BEGIN, COMMIT and
	// ROLLBACK (which take the lock themselves to end a write
	// transaction), SET lock_timeout, and catalog changes refused inside a
	// block.
	accessSession access = iota
	// accessRead statements read under the read lock.
	accessRead
	// accessExclusive statements change the engine's settings or
	// subscriptions, not its data: the write lock, not the writer slot.
	accessExclusive
	// accessWrite statements change data or the catalog: the writer slot,
	// then the write lock.
	accessWrite
)

func (s *Session) accessOf(b sql.Bound) access {
	if s.block && blockCatalogKind(b) {
		return accessWrite // a catalog change the block undoes (txddl.go)
	}
	if locks(b) {
		return accessWrite // the writer slot locks the rows (locking.go)
	}
	switch b := b.(type) {
	case *sql.Tx:
		return accessSession
	case *sql.Select, *sql.Explain, *sql.Show:
		return accessRead
	case *sql.Maintenance, *sql.Schema, *sql.Listen, *sql.Notify:
		return accessSession
	case *sql.Insert, *sql.Update, *sql.Delete, *sql.Merge, *sql.Copy, *sql.WithModify, *sql.Truncate, *sql.Do, *sql.Call:
		return accessWrite
	case *sql.CopyTo:
		return s.accessOf(b.Query)
	case *sql.RuleDML, *sql.RuleThrough:
		return accessWrite
	case *sql.CreateTable, *sql.CreateView, *sql.Drop, *sql.CreateTableAs, *sql.AlterTable,
		*sql.CreateTrigger, *sql.DropTrigger, *sql.AlterTriggers,
		*sql.CreateRule, *sql.DropRule, *sql.RenameRule, *sql.AlterRules, *sql.RenameTrigger,
		*sql.CreateSchema, *sql.DropSchema, *sql.AlterSchema, *sql.GrantSchema, *sql.MoveRelation, *sql.RenameIndex:
		if ct, ok := b.(*sql.CreateTable); ok && ct.Temp {
			return accessExclusive // the session's own: allowed inside a block
		}
		if s.block {
			return accessSession // refused by ddl
		}
		return accessWrite
	case *sql.Subscribe:
		return accessExclusive
	case *sql.AlterViewDefault, *sql.RenameViewColumn, *sql.AlterRelOwner, *sql.GrantRoutine, *sql.CreateEventTrigger, *sql.AlterEventTrigger, *sql.DropEventTrigger:
		if s.block {
			return accessSession // refused by ddl
		}
		return accessWrite
	case *sql.Refresh:
		return s.refreshAccess()
	case *sql.Cluster, *sql.Reindex, *sql.LockTable:
		return s.storageAccess(b)
	case *sql.ExplainAnalyze:
		return s.explainAnalyzeAccess(b)
	case *sql.CreateStatistics, *sql.DropStatistics, *sql.AlterStatistics, *sql.AlterStatisticsOwner, *sql.CreateCollation, *sql.DropCollation, *sql.AlterCollation:
		if s.block {
			return accessSession // refused by ddl
		}
		return accessWrite
	case *sql.CreateSubscription, *sql.AlterSubscription, *sql.DropSubscription,
		*sql.CreateServer, *sql.CreateForeignTable, *sql.DropSink:
		if serverCatalogStmt(b) {
			return accessWrite // a catalog change (foreign_server.go)
		}
		return accessSession // the driver takes the locks it needs
	case *sql.Set:
		if sessionStmt(b) {
			return accessSession
		}
		return accessExclusive
	}
	return accessExclusive // a statement kind not listed above: the safe side
}

// waitTimeout is how long a wait for a lock may last: the session's
// lock_timeout, or what is left of its statement_timeout when that ends
// sooner (late; 0: for ever).
func (s *Session) waitTimeout() (timeout time.Duration, late bool, err error) {
	timeout = s.lockTimeout
	if !s.deadline.IsZero() {
		left := time.Until(s.deadline)
		if left <= 0 {
			return 0, false, errStatementTimeout()
		}
		if timeout <= 0 || left < timeout {
			timeout, late = left, true
		}
	}
	return timeout, late, nil
}

// acquireSlot makes s the writer, waiting for the slot at most the
// session's lock timeout.
func (s *Session) acquireSlot() error {
	if s.writer {
		return nil
	}
	if s.e.slot.tryAcquire() { // the slot is free: one atomic operation
		s.writer = true
		return nil
	}
	// pg_stat_activity shows the wait as PostgreSQL shows a wait for
	// another transaction's row lock.
	s.activityWait("transactionid")
	defer s.activityWait("")
	timeout, late, err := s.waitTimeout()
	if err != nil {
		return err
	}
	if err := s.e.acquireSlot(timeout, s.Interrupted); err != nil {
		if late {
			return errStatementTimeout()
		}
		return err
	}
	s.writer = true
	return nil
}

// releaseSlot gives up the writer slot; the caller has ended the
// transaction.
func (s *Session) releaseSlot() {
	if s.writer {
		s.writer = false
		s.e.slot.release()
	}
}

// acquireSlot waits for the writer slot, at most timeout when it is
// positive.
func (e *Engine) acquireSlot(timeout time.Duration, intr func() error) error {
	if ok, err := e.slot.acquire(timeout, intr); ok || err != nil {
		return err
	}
	return pgerr.New(pgerr.LockNotAvailable, "canceling statement due to lock timeout").
		WithHint("another session's transaction holds the right to write; end it, or raise lock_timeout")
}

// Exec executes one parsed statement: its result, then the notices and the
// result sets of the session's subscriptions that arrived meanwhile. On
// an error, the result sets of the subscriptions alone.
func (s *Session) Exec(st *sql.Stmt) ([]Result, error) {
	if res, ok, err := s.execPrepareStmt(st); ok {
		return res, err
	}
	if res, ok, err := s.execSchemaElements(st); ok {
		return res, err
	}
	if res, ok, err := s.execOwned(st); ok {
		return res, err
	}
	if res, ok, err := s.execCursorStmt(st); ok {
		return res, err
	}
	s.activityStart(st.SQL)
	defer s.activityEnd()
	return s.do(func() (sql.Bound, *recorder, error) {
		rec := &recorder{cat: s.e, seen: map[string]bool{}, text: s.storedText(st.SQL), rowSec: s.rowSecurity(), session: s}
		if !s.restoring {
			// A file's CREATE TABLE text may write its columns' storage.
			if err := sql.Storage15Syntax(st); err != nil {
				return nil, rec, err
			}
		}
		b, err := s.bindStmt(rec, st)
		return b, rec, err
	})
}

// do runs one statement that bind binds; bind is called under the read
// lock, and again under the write lock when the catalog changed between
// the two.
func (s *Session) do(bind func() (sql.Bound, *recorder, error)) (_ []Result, err error) {
	if s.closed {
		return nil, errClosed
	}
	if s.tempNS != "" {
		defer func() { err = s.tempError(err) }()
	}
	if err := s.startInterrupts(); err != nil {
		return nil, err
	}
	if err := s.e.haltErr(); err != nil {
		return nil, err
	}
	isTx := false // BEGIN, COMMIT, ROLLBACK…: endTx counts the block's end
	defer func() {
		if s.e.haltErr() != nil {
			return // a panic left the session's state as it was
		}
		if !s.block && !isTx {
			s.e.xacts.ended(err == nil)
		}
		if !s.block { // the statement was its own transaction
			s.endNotify(err == nil)
			s.endSettings(err == nil)
			if len(s.temps) > 0 {
				s.endTempTx()
			}
		}
	}()
	if s.stmtTimeout > 0 {
		s.deadline = time.Now().Add(s.stmtTimeout)
		defer func() { s.deadline = time.Time{} }()
	}
	e := s.e
	held := heldNone
	defer s.onPanic(&held)
	if s.writer {
		s.writeKept()
	}
	e.mu.RLock()
	held = heldShared
	b, rec, err := bind()
	if d := e.gate.Load(); d != nil && d.owner != s && (err != nil || !sessionOnly(b)) {
		// Another session's block changed the catalog: wait for its end,
		// then bind again over the catalog it left.
		e.mu.RUnlock()
		held = heldNone
		if err := s.awaitBlock(d); err != nil {
			return nil, s.fail(err)
		}
		return s.do(bind)
	}
	_, isTx = b.(*sql.Tx)
	if s.failed {
		e.mu.RUnlock()
		held = heldNone
		return s.inFailedTx(b)
	}
	if err == nil {
		err = s.readOnlyCheck(b, rec)
	}
	if err == nil {
		err = s.authorize(b, rec)
	}
	if err == nil {
		err = s.checkColumnNames(b)
	}
	if err != nil {
		e.mu.RUnlock()
		held = heldNone
		return nil, s.fail(err)
	}
	if s.block {
		if b, rec, err = s.snapshotSlot(b, rec, bind, &held); err != nil {
			return nil, s.fail(err) // the read lock is let go
		}
	}
	acc := s.accessOf(b)
	if acc == accessRead && e.callsRoutine(rec) {
		acc = accessWrite // PL/pgSQL may change rows (routine.go)
	}
	if acc == accessRead {
		s.canWait, s.stmtTakes = true, s.stmtTakes[:0]
		res, err := s.execBound(b, rec)
		s.canWait = false
		e.mu.RUnlock()
		held = heldNone
		if busy := (*advisoryBusy)(nil); errors.As(err, &busy) {
			if err = s.awaitAdvisory(busy); err == nil {
				return s.do(bind) // the lock is free: run the query again
			}
		}
		return s.finish(res, err)
	}
	gen := e.catalogGen
	e.mu.RUnlock()
	held = heldNone
	if acc == accessSession {
		return s.finish(s.execBound(b, rec))
	}
	if acc == accessWrite {
		if err := s.lockNoWait(b, rec); err != nil {
			return nil, s.fail(err)
		}
		if err := s.acquireSlot(); err != nil {
			return nil, s.fail(err)
		}
	}
	e.mu.Lock()
	held = heldExclusive
	if e.catalogGen != gen {
		if b, rec, err = bind(); err == nil {
			err = s.authorize(b, rec)
		}
	}
	var res Result
	if err == nil {
		if s.writer && s.block && e.tx == nil {
			e.tx = e.newTxn(true)
		}
		e.deadline = s.deadline // for the queries of writes (queryBudget)
		e.firer = s             // runs the triggers its statement fires
		res, err = s.execBound(b, rec)
		e.deadline, e.firer = time.Time{}, nil
		if err == nil {
			s.noteFresh(b)
		}
	}
	e.takeNoticesInto(&res)
	e.mu.Unlock()
	held = heldNone
	if s.promoted {
		isTx = true // endTx counts the statement's transaction
		res, err = s.endPromoted(res, err)
	}
	if !s.block {
		// The notifications go before another writer commits: in commit
		// order.
		s.endNotify(err == nil)
		s.releaseSlot()
	}
	return s.finish(res, err)
}

// finish adds to a statement's result the result sets the session's
// subscriptions received; a failed statement's result keeps only its
// notices. A statement that fails may have committed
// before it failed (a COPY of several source transactions): the deltas of
// those commits are returned with the error, never dropped.
func (s *Session) finish(res Result, err error) ([]Result, error) {
	var out []Result
	if err == nil {
		out = []Result{res}
	} else if len(res.Notices) > 0 || res.CopyOut != nil {
		// The notices sent before the error (RAISE NOTICE in PL/pgSQL),
		// and the lines of a COPY … TO STDOUT before it.
		out = []Result{{Notices: res.Notices, NoticeLevels: res.NoticeLevels, CopyOut: res.CopyOut}}
	}
	s.inboxMu.Lock()
	out = append(out, s.inbox...)
	s.inbox = nil
	s.inboxMu.Unlock()
	s.filterNotices(out)
	if !s.block {
		s.endTxAdvisory(err == nil) // the statement was its own transaction, or ended one
	}
	if err != nil {
		return out, s.fail(err)
	}
	return out, nil
}

// fail marks an open transaction block failed, as a failed statement does
// in PostgreSQL, and returns err.
func (s *Session) fail(err error) error {
	if s.block {
		s.failed = true
	}
	return err
}

// inFailedTx runs b in a failed transaction block: COMMIT and ROLLBACK end
// it with a rollback, ROLLBACK TO a savepoint takes the block out of its
// failure; anything else is refused.
func (s *Session) inFailedTx(b sql.Bound) ([]Result, error) {
	if tx, ok := b.(*sql.Tx); ok {
		switch tx.Kind {
		case sql.TxCommit, sql.TxRollback:
			modes := s.txModes()
			s.Rollback()
			if tx.Chain {
				s.chain(modes)
			}
			return []Result{{Tag: "ROLLBACK"}}, nil
		case sql.TxRollbackTo:
			return s.finish(s.execSavepoint(tx))
		}
	}
	return nil, pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
}

// execBound executes a bound statement under the lock accessOf asked for.
func (s *Session) execBound(b sql.Bound, rec *recorder) (_ Result, err error) {
	e := s.e
	s.startClock(rec)
	s.ddlText = rec.text // the statement event triggers see (event_trigger.go)
	outermost := s.stmt == nil
	s.stmt, s.rec = b, rec
	defer func() {
		if err != nil {
			err = s.visibleFailingRow(err, b)
		}
		s.stmt, s.rec = nil, nil
		if outermost && !s.block {
			s.closePortals() // the statement was its transaction
		}
	}()
	switch b := b.(type) {
	case *sql.Tx:
		return s.execTx(b)
	case *sql.SetConstraints:
		return s.setConstraints(b)
	case *sql.Select:
		bud := e.queryBudget(s.source())
		if !s.deadline.IsZero() {
			bud.Deadline, bud.Late = s.deadline, errStatementTimeout
		}
		bud.Interrupts = s
		run := func() (Result, error) {
			res, err := execSelect(b.Plan, bud)
			res.Columns = withOrigins(res.Columns, b.Origins)
			return res, err
		}
		if e.callsRoutine(rec) {
			return e.autocommit(run)
		}
		return run()
	case *sql.Do:
		return s.execDo(b, rec)
	case *sql.Call:
		return s.execCall(b)
	case *sql.Insert:
		return withResultOrigins(b.RetOrigins, func() (Result, error) { return e.autocommit(func() (Result, error) { return e.execInsert(b) }) })
	case *sql.Update:
		return withResultOrigins(b.RetOrigins, func() (Result, error) { return e.autocommit(func() (Result, error) { return e.execUpdate(b) }) })
	case *sql.Delete:
		return withResultOrigins(b.RetOrigins, func() (Result, error) { return e.autocommit(func() (Result, error) { return e.execDelete(b) }) })
	case *sql.Merge:
		return e.autocommit(func() (Result, error) { return e.execMerge(b) })
	case *sql.WithModify:
		return s.execWithModify(b)
	case *sql.Truncate:
		return e.execTruncate(b)
	case *sql.CreateTable:
		if b.PartitionOf != nil && b.Temp {
			e.catalogGen++ // prepared statements bind again
			return s.applyingDefaultACLs(s.owningCreated(func() (Result, error) { return s.createTempPartition(b, rec.text) }))()
		}
		if b.PartitionOf != nil {
			return s.ddl("CREATE TABLE", func() (Result, error) { return e.createPartition(b, rec.text) })
		}
		if b.Temp {
			e.catalogGen++ // prepared statements bind again
			return s.applyingDefaultACLs(s.owningCreated(func() (Result, error) { return s.createTemp(b) }))()
		}
		if err := permanentForeignKeys(b); err != nil {
			return Result{}, err
		}
		return s.ddl("CREATE TABLE", func() (Result, error) {
			return e.withTypeUses(b.Name, rec, func() (Result, error) { return e.createTable(b, rec.text) })
		})
	case *sql.AttachPartition:
		return s.ddl("ALTER TABLE", func() (Result, error) { return e.attachPartition(b, rec.text) })
	case *sql.AlterPartition:
		return s.ddl("ALTER TABLE", func() (Result, error) { return e.alterPartitionOwn(b, s.restoring) })
	case *sql.DetachPartition:
		if b.Concurrent && s.block {
			return Result{}, pgerr.New(pgerr.ActiveTransaction, "ALTER TABLE ... DETACH CONCURRENTLY cannot run inside a transaction block")
		}
		return s.ddl("ALTER TABLE", func() (Result, error) { return e.detachPartition(b) })
	case *sql.AlterViewDefault:
		return s.ddl("ALTER VIEW", func() (Result, error) { return e.alterViewDefault(b, rec.text) })
	case *sql.RenameViewColumn:
		return s.ddl(b.Tag, func() (Result, error) { return e.renameViewColumn(b) })
	case *sql.CreateEventTrigger:
		return s.ddl("CREATE EVENT TRIGGER", func() (Result, error) { return s.createEventTrigger(b) })
	case *sql.AlterEventTrigger:
		return s.ddl("ALTER EVENT TRIGGER", func() (Result, error) { return s.alterEventTrigger(b) })
	case *sql.DropEventTrigger:
		return s.ddl("DROP EVENT TRIGGER", func() (Result, error) { return s.dropEventTrigger(b) })
	case *sql.AlterInherit:
		return s.ddl("ALTER TABLE", func() (Result, error) { return e.alterInherit(b, s.restoring) })
	case *sql.AlterTable:
		return s.ddl("ALTER TABLE", func() (res Result, err error) {
			if err := e.alterForeignKeysPersistence(b); err != nil {
				return Result{}, err
			}
			if t := e.tables[b.Table]; t != nil && t.temp {
				var done func(*Result, *error)
				if b, done, err = s.alterTemp(b); err != nil {
					return Result{}, err
				}
				defer done(&res, &err)
			}
			if err := e.refuseRowTypeChange(b.Table, false, nil); err != nil {
				return Result{}, err
			}
			if err := e.alterAttrsCheck(b, s.restoring); err != nil {
				return Result{}, err
			}
			if err := s.fireTableRewrite(b); err != nil {
				return Result{}, err
			}
			// The table_rewrite triggers' notices come first.
			res, err = e.afterNotices(func() (Result, error) { return e.alterTable(b) })
			if err == nil && b.Persistence && b.New != nil && !s.restoring {
				err = e.ownedSeqsPersistence(b.New.Name, b.New.Unlogged)
			}
			alterWarnings(&res, b)
			e.pruneGrants()
			if err == nil {
				err = e.pruneComments()
			}
			return res, err
		})
	case *sql.CreateTableAs:
		s.promoteForCode(rec)
		if b.Table.Temp {
			e.catalogGen++ // prepared statements bind again
			return s.applyingDefaultACLs(s.owningCreated(func() (Result, error) { return s.createTempAs(b) }))()
		}
		return s.ddl("CREATE TABLE AS", func() (Result, error) {
			return e.withTypeUses(b.Table.Name, rec, func() (Result, error) { return e.createTableAs(b) })
		})
	case *sql.CreateView:
		return s.ddl("CREATE VIEW", func() (Result, error) {
			if b.Temp || b.InTemp || readsTemp(rec) {
				return s.createTempView(b, rec)
			}
			if _, ok := e.Relation(b.Name); ok && b.Replace {
				return e.withTypeUses(b.Name, rec, func() (Result, error) { return e.replaceView(b, rec) })
			}
			return e.withTypeUses(b.Name, rec, func() (Result, error) { return e.createView(b, rec) })
		})
	case *sql.CreateIndex:
		if t := e.tables[b.Table]; t != nil && t.temp {
			e.catalogGen++ // prepared statements bind again
			return s.createTempIndex(b, rec.text)
		}
		return s.ddl("CREATE INDEX", func() (Result, error) {
			return e.createIndex(b, rec.text)
		})
	case *sql.CreateSequence:
		if b.Temp {
			e.catalogGen++ // prepared statements bind again
			return s.applyingDefaultACLs(s.owningCreated(func() (Result, error) { return s.createTempSequence(b) }))()
		}
		return s.ddl("CREATE SEQUENCE", func() (Result, error) {
			role := s.creatorName()
			if role == "" {
				role = SuperuserName
			}
			if err := s.ownedByCheck(b.Name, role, &b.Opts); err != nil {
				return Result{}, err
			}
			return e.createSequence(b)
		})
	case *sql.CreateFunction:
		tag := "CREATE FUNCTION"
		if b.Func.Procedure {
			tag = "CREATE PROCEDURE"
		}
		return s.ddl(tag, func() (Result, error) {
			check, _ := s.setting("check_function_bodies")
			return e.createFunction(b, rec, check != "off")
		})
	case *sql.DropFunction:
		return s.ddl(dropFunctionTag(b), func() (Result, error) { return e.dropFunctions(b) })
	case *sql.CreateAggregate:
		return s.ddl("CREATE AGGREGATE", func() (Result, error) { return e.createAggregate(b, rec) })
	case *sql.DropAggregate:
		return s.ddl("DROP AGGREGATE", func() (Result, error) { return e.dropAggregates(b) })
	case *sql.AlterFunction:
		return s.ddl(b.Tag(), func() (Result, error) { return e.alterRoutine(s, b, rec.text) })
	case *sql.CreateOperator:
		return s.ddl("CREATE OPERATOR", func() (Result, error) { return e.createOperator(b, rec) })
	case *sql.DropOperator:
		return s.ddl("DROP OPERATOR", func() (Result, error) {
			res, err := e.dropOperators(b)
			if err == nil {
				err = e.pruneComments() // of the operators gone
			}
			return res, err
		})
	case *sql.AlterSequence:
		return s.ddl("ALTER SEQUENCE", func() (Result, error) {
			if e.seqs[b.Name] != nil {
				if err := s.ownedByCheck(b.Name, e.relOwner(b.Name), &b.Opts); err != nil {
					return Result{}, err
				}
			}
			return s.alterSequence(b)
		})
	case *sql.DropSequence:
		return s.ddl("DROP SEQUENCE", func() (Result, error) {
			res, err := e.dropSequence(b)
			s.forgetTemps()
			if err == nil {
				err = e.pruneComments()
			}
			return res, err
		})
	case *sql.Drop:
		return s.ddl("DROP", func() (Result, error) {
			res, err := e.drop(b)
			e.pruneGrants()
			s.forgetTemps()
			if err == nil {
				err = e.pruneComments()
			}
			return res, err
		})
	case *sql.CreateDomain:
		return s.ddl("CREATE DOMAIN", func() (Result, error) { return e.createDomain(b) })
	case *sql.AlterDomain:
		return s.ddl(map[bool]string{false: "ALTER DOMAIN", true: "ALTER TYPE"}[b.AsType], func() (Result, error) { return e.alterDomain(b) })
	case *sql.DropDomain:
		return s.ddl("DROP DOMAIN", func() (Result, error) { return e.dropDomain(b) })
	case *sql.CreateEnum:
		return s.ddl("CREATE TYPE", func() (Result, error) { return e.createEnum(b) })
	case *sql.CreateRange:
		return s.ddl("CREATE TYPE", func() (Result, error) { return e.createRange(b) })
	case *sql.AlterEnum:
		return s.ddl("ALTER TYPE", func() (Result, error) { return e.alterEnum(b) })
	case *sql.CreateComposite:
		return s.ddl("CREATE TYPE", func() (Result, error) { return e.createComposite(b) })
	case *sql.AlterComposite:
		return s.ddl("ALTER TYPE", func() (Result, error) { return e.alterComposite(b) })
	case *sql.RenameType:
		return s.ddl("ALTER TYPE", func() (Result, error) { return e.renameType(b) })
	case *sql.DropType:
		return s.ddl("DROP TYPE", func() (Result, error) { return e.dropTypes(b) })
	case *sql.Schema:
		return Result{Tag: b.Tag, Notices: b.Notices}, nil
	case *sql.CreateSchema:
		return s.ddl("CREATE SCHEMA", func() (Result, error) { return s.createSchema(b) })
	case *sql.DropSchema:
		return s.ddl("DROP SCHEMA", func() (Result, error) { return s.dropSchema(b) })
	case *sql.AlterSchema:
		return s.ddl("ALTER SCHEMA", func() (Result, error) { return s.alterSchema(b) })
	case *sql.MoveRelation:
		return s.ddl(b.Tag, func() (Result, error) { return s.moveRelation(b) })
	case *sql.RenameIndex:
		return s.ddl(b.Tag, func() (Result, error) { return s.renameIndex(b) })
	case *sql.GrantSchema:
		what := "GRANT"
		if b.Revoke {
			what = "REVOKE"
		}
		return s.ddl(what, func() (Result, error) { return s.grantSchemaAsRole(b) })
	case *sql.GrantRoutine:
		what := "GRANT"
		if b.Revoke {
			what = "REVOKE"
		}
		return s.ddl(what, func() (Result, error) { return s.grantRoutine(b) })
	case *sql.GrantDatabase:
		what := map[bool]string{false: "GRANT", true: "REVOKE"}[b.Revoke]
		return s.ddl(what, func() (Result, error) { return s.grantDatabaseAsRole(b) })
	case *sql.GrantType:
		what := map[bool]string{false: "GRANT", true: "REVOKE"}[b.Revoke]
		return s.ddl(what, func() (Result, error) { return s.grantType(b) })
	case *sql.AlterDefaultPrivileges:
		return s.ddl("ALTER DEFAULT PRIVILEGES", func() (Result, error) { return s.alterDefaultPrivileges(b) })
	case *sql.Comment:
		return s.ddl("COMMENT", func() (Result, error) { return e.execComment(s.statsComment(b)) })
	case *sql.AlterRelOwner:
		return s.ddl("ALTER "+strings.ToUpper(b.Kind), func() (Result, error) { return s.alterRelOwner(b) })
	case *sql.RelSetTablespace:
		return s.ddl(b.Tag, func() (Result, error) { return s.relSetTablespace(b) })
	case *sql.AlterMatViewOptions:
		return s.ddl(b.Tag, func() (Result, error) { return s.alterMatViewOptions(b) })
	case *sql.SeqPersistence:
		return s.ddl(map[bool]string{false: "ALTER SEQUENCE", true: "ALTER TABLE"}[b.Table], func() (Result, error) { return s.seqPersistence(b) })
	case *sql.CreateRole:
		return s.ddl("CREATE ROLE", func() (Result, error) { return e.createRole(b) })
	case *sql.AlterRole:
		return s.ddl("ALTER ROLE", func() (Result, error) { return e.alterRole(b) })
	case *sql.DropRole:
		return s.ddl("DROP ROLE", func() (Result, error) { return s.dropRole(b) })
	case *sql.AlterTypeOwner:
		return s.ddl(map[bool]string{false: "ALTER TYPE", true: "ALTER DOMAIN"}[b.Domain], func() (Result, error) { return s.alterTypeOwner(b) })
	case *sql.GrantRole:
		return s.ddl(map[bool]string{false: "GRANT ROLE", true: "REVOKE ROLE"}[b.Revoke], func() (Result, error) { return s.grantRole(b) })
	case *sql.Grant:
		what := "GRANT"
		if b.Revoke {
			what = "REVOKE"
		}
		return s.ddl(what, func() (Result, error) { return s.grantAsRole(b) })
	case *sql.CreatePolicy:
		return s.ddl("CREATE POLICY", func() (Result, error) { return s.createPolicy(b) })
	case *sql.AlterPolicy:
		return s.ddl("ALTER POLICY", func() (Result, error) { return s.alterPolicy(b) })
	case *sql.DropPolicy:
		return s.ddl("DROP POLICY", func() (Result, error) { return e.dropPolicy(b) })
	case *sql.AlterRowSecurity:
		return s.ddl("ALTER TABLE", func() (Result, error) { return e.alterRowSecurity(b) })
	case *sql.RuleDML:
		return e.autocommit(func() (Result, error) { return s.execRules(b) })
	case *sql.RuleThrough:
		return e.autocommit(func() (Result, error) { return s.execRuleThrough(b) })
	case *sql.CreateRule:
		return s.ddl("CREATE RULE", func() (Result, error) { return s.createRule(b) })
	case *sql.DropRule:
		return s.ddl("DROP RULE", func() (Result, error) { return e.dropRule(b) })
	case *sql.RenameRule:
		return s.ddl("ALTER RULE", func() (Result, error) { return e.renameRule(b) })
	case *sql.RenameTrigger:
		return s.ddl("ALTER TRIGGER", func() (Result, error) { return e.renameTrigger(b) })
	case *sql.AlterRules:
		return s.ddl("ALTER TABLE", func() (Result, error) { return e.alterRules(b) })
	case *sql.CreateTrigger:
		return s.ddl("CREATE TRIGGER", func() (Result, error) { return e.createTrigger(b, rec.text) })
	case *sql.DropTrigger:
		return s.ddl("DROP TRIGGER", func() (Result, error) { return e.dropTrigger(b) })
	case *sql.AlterTriggers:
		return s.ddl("ALTER TABLE", func() (Result, error) { return e.alterTriggers(b) })
	case *sql.CreateCast:
		return s.ddl("CREATE CAST", func() (Result, error) { return e.createCast(b, rec.text) })
	case *sql.DropCast:
		return s.ddl("DROP CAST", func() (Result, error) { return e.dropCast(b) })
	case *sql.CreateExtension:
		return s.ddl("CREATE EXTENSION", func() (Result, error) { return e.createExtension(b) })
	case *sql.AlterExtension:
		return s.ddl("ALTER EXTENSION", func() (Result, error) { return e.alterExtension(b) })
	case *sql.DropExtension:
		return s.ddl("DROP EXTENSION", func() (Result, error) {
			res, err := e.dropExtensions(b)
			e.pruneGrants()
			if err == nil {
				err = e.pruneComments()
			}
			return res, err
		})
	case *sql.Subscribe:
		return s.subscribeStmt(b.View)
	case *sql.CreateSubscription, *sql.AlterSubscription, *sql.DropSubscription:
		return s.subscriptionStmt(b)
	case *sql.CreateServer, *sql.CreateForeignTable, *sql.DropSink:
		return s.foreignStmt(b)
	case *sql.Explain:
		return s.explainPlan(b)
	case *sql.Show:
		if showColumns(b.Name) != nil {
			return s.showSetting(b.Name)
		}
		return e.show(b)
	case *sql.CopyTo:
		return s.copyTo(b, rec)
	case *sql.Copy:
		if b.Freeze {
			if err := s.checkFreeze(b); err != nil {
				return Result{}, err
			}
		}
		if b.Format == sql.CopyBinary && !b.Stdin {
			return s.copyBinaryFile(b, rec)
		}
		if b.Format == sql.CopyBinary {
			if !s.copyDecoded {
				return Result{}, errCopyBinary("COPY … FROM STDIN")
			}
			c := *b // the client's rows, written in the text format
			c.CopyOptions = sql.CopyOptions{Delimiter: '\t', Null: `\N`, Encoding: "UTF8"}
			b = &c
		}
		enc, err := s.copyEncoding(&b.CopyOptions)
		if err != nil {
			return Result{}, err
		}
		e.copyData, e.copyEnc = s.copyData, enc
		if rec != nil {
			e.copyClock = &rec.clock
		}
		defer func() { e.copyData, e.copyClock, e.copyEnc = nil, nil, nil }()
		return e.execCopy(b)
	case *sql.Set:
		if sessionStmt(b) {
			return s.execSessionSet(b)
		}
		return e.execSet(b)
	case *sql.Maintenance:
		return s.execMaintenance(b)
	case *sql.Refresh:
		return s.execRefresh(b)
	case *sql.Cluster, *sql.Reindex, *sql.LockTable:
		return s.execStorage(b)
	case *sql.ExplainAnalyze:
		return s.explainAnalyze(b, rec)
	case *sql.CreateCollation:
		return s.ddl("CREATE COLLATION", func() (Result, error) { return s.createCollation(b) })
	case *sql.DropCollation:
		return s.ddl("DROP COLLATION", func() (Result, error) { return s.dropCollation(b) })
	case *sql.AlterCollation:
		return s.ddl("ALTER COLLATION", func() (Result, error) { return s.alterCollation(b) })
	case *sql.CreateStatistics:
		return s.ddl("CREATE STATISTICS", func() (Result, error) { return e.createStatistics(s.searchPath(), b, s.creatorName()) })
	case *sql.DropStatistics:
		return s.ddl("DROP STATISTICS", func() (Result, error) { return e.dropStatistics(b, s.searchPath()) })
	case *sql.AlterStatistics:
		return s.ddl("ALTER STATISTICS", func() (Result, error) { return e.alterStatistics(b, s.searchPath()) })
	case *sql.AlterStatisticsOwner:
		return s.ddl("ALTER STATISTICS", func() (Result, error) { return s.alterStatisticsOwner(b) })
	case *sql.Listen:
		return s.execListen(b)
	case *sql.Notify:
		return s.execNotify(b)
	}
	return Result{}, pgerr.New(pgerr.Internal, "unhandled statement %T", b)
}

// source is what the session's reads see: the tables as they are when the
// session is the writer (its own changes included), otherwise the
// committed state; with the session's own catalog views
// (session_catalog.go).
func (s *Session) source() exec.Source {
	if s.writer {
		return sessionSource{s.e.pinnedSource(s.e), s}
	}
	return sessionSource{s.e.committed(), s}
}

// ddl runs a catalog change. Inside a transaction block it runs
// undoably (blockCatalog, txddl.go) when it is of a kind the block can
// undo, and is refused (25001) otherwise.
func (s *Session) ddl(what string, fn func() (Result, error)) (Result, error) {
	if s.block {
		if err := s.blockCatalogCheck(what); err != nil {
			return Result{}, err
		}
		return s.blockCatalog(what, func() (Result, error) { return s.runDDL(fn) })
	}
	return s.runDDL(fn)
}

// runDDL runs a catalog change with the event triggers it fires.
func (s *Session) runDDL(fn func() (Result, error)) (Result, error) {
	s.e.catalogGen++ // prepared statements bind again
	fn = s.e.pruningObjectComments(fn)
	fn = s.pruningTypeOwners(fn)
	fn = s.movingTypeACLs(fn)
	fn = s.owningCreated(fn)
	fn = s.applyingDefaultACLs(fn)
	if len(s.e.evtTriggers) == 0 {
		return fn()
	}
	node, tag := ddlTag(s.ddlText)
	if err := s.fireDDLStart(tag); err != nil {
		return Result{}, err
	}
	if tag == "" {
		return s.e.afterNotices(fn)
	}
	return s.ddlAfter(node, tag, fn)
}

func (s *Session) execTx(t *sql.Tx) (Result, error) {
	switch t.Kind {
	case sql.TxBegin:
		if s.block {
			if err := s.setModes(t.Modes); err != nil {
				return Result{}, err
			}
			return Result{Tag: "BEGIN", Notices: []string{"there is already a transaction in progress"}, NoticeLevels: map[int]string{0: "WARNING"}}, nil
		}
		if err := s.setModes(t.Modes); err != nil {
			return Result{}, err
		}
		s.block = true
		return Result{Tag: "BEGIN"}, nil
	case sql.TxCommit:
		if !s.block {
			if t.Chain {
				return Result{}, pgerr.New(pgerr.NoActiveTransaction, "COMMIT AND CHAIN can only be used in transaction blocks")
			}
			return Result{Tag: "COMMIT", Notices: []string{"there is no transaction in progress"}, NoticeLevels: map[int]string{0: "WARNING"}}, nil
		}
		modes := s.txModes()
		notices, err := s.endTx(true)
		if err != nil {
			return Result{}, err
		}
		if t.Chain {
			s.chain(modes)
		}
		return Result{Tag: "COMMIT", Notices: notices}, nil
	case sql.TxSavepoint, sql.TxRelease, sql.TxRollbackTo:
		return s.execSavepoint(t)
	}
	if !s.block {
		if t.Chain {
			return Result{}, pgerr.New(pgerr.NoActiveTransaction, "ROLLBACK AND CHAIN can only be used in transaction blocks")
		}
		return Result{Tag: "ROLLBACK", Notices: []string{"there is no transaction in progress"}, NoticeLevels: map[int]string{0: "WARNING"}}, nil
	}
	modes := s.txModes()
	s.Rollback()
	if t.Chain {
		s.chain(modes)
	}
	return Result{Tag: "ROLLBACK"}, nil
}

// endTx ends the session's transaction block, committing or rolling back
// its changes, and gives up the writer slot. It returns the commit's
// notices.
func (s *Session) endTx(commit bool) (_ []string, err error) {
	defer func() { s.e.xacts.ended(commit && err == nil) }()
	s.block, s.failed, s.snapped = false, false, false
	if s.stmt == nil {
		s.closePortals() // the cursors end with the transaction
	}
	s.cons = conModes{}
	s.fresh = nil
	clear(s.savepoints)
	s.savepoints = s.savepoints[:0]
	s.releaseAdvisory(false, true)
	// The id ends with the commit's outcome: a commit that fails (a
	// deferred constraint) rolls back.
	defer func() { s.endTxID(commit && err == nil) }()
	if !s.writer {
		s.endNotify(commit)
		s.endSettings(commit)
		s.endTempBlock(commit)
		return nil, nil
	}
	e := s.e
	if err := e.haltErr(); err != nil {
		s.releaseSlot()
		return nil, err
	}
	held := heldNone
	defer s.onPanic(&held)
	if commit && e.txd == nil && (e.tx == nil || len(e.tx.deferred) == 0 && !e.tx.fkCheck && !e.tx.keyCheck) {
		// The commit writes the transaction's kept replacements beside
		// the views' commits the last commit left behind, and waits for
		// them before the views step (commit).
		e.mu.lockChanges()
	} else { // a rollback, or a commit that runs deferred triggers first
		e.mu.Lock()
	}
	held = heldExclusive
	if commit && e.txd != nil {
		if err = e.commitBlock(); err != nil {
			commit = false
		}
	}
	if commit {
		e.firer = s
		err = e.commit()
		e.firer = nil
	} else {
		e.rollback()
	}
	e.endBlock()
	notices := e.takeNotices()
	e.mu.Unlock()
	held = heldNone
	s.endNotify(commit && err == nil) // before another writer commits
	s.releaseSlot()
	s.endSettings(commit && err == nil)
	s.endTempBlock(commit && err == nil)
	return notices, err
}

// settingColumns is the result column of SHOW name.
func settingColumns(name string) []plan.Column {
	return []plan.Column{{Name: name, Type: value.TextType}}
}

// SetStatementTimeout bounds each statement of the session, as SET
// statement_timeout does; 0 for no bound.
func (s *Session) SetStatementTimeout(d time.Duration) { s.setDuration("statement_timeout", d) }

// SetIdleSessionTimeout sets the session's idle_session_timeout, as SET
// idle_session_timeout does; 0 for none.
func (s *Session) SetIdleSessionTimeout(d time.Duration) { s.setDuration("idle_session_timeout", d) }

// IdleSessionTimeout is the session's idle_session_timeout: how long a
// server waits for its next statement outside a transaction block before
// it ends the connection; 0 for ever.
func (s *Session) IdleSessionTimeout() time.Duration { return s.idleTimeout }

// IdleInTransactionTimeout is the session's
// idle_in_transaction_session_timeout: how long a server waits for its
// next statement inside a transaction block before it ends the
// connection (the transaction rolls back); 0 for ever.
func (s *Session) IdleInTransactionTimeout() time.Duration { return s.idleTxTimeout }

// errStatementTimeout is the error of a statement that ran past its
// session's statement_timeout.
func errStatementTimeout() error {
	return pgerr.New(pgerr.QueryCanceled, "canceling statement due to statement timeout").
		WithHint("the statement ran longer than statement_timeout; raise it (SET statement_timeout = '…') or narrow the statement")
}

// ParseTimeout reads a duration as SET lock_timeout does: a number of
// milliseconds, or a number with a unit (ms, s, min, h, d).
func ParseTimeout(v string) (time.Duration, error) { return parseTimeout(v) }

func parseTimeout(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	i := len(v)
	for i > 0 && (v[i-1] < '0' || v[i-1] > '9') && v[i-1] != '.' {
		i--
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(v[:i]), 64)
	if err != nil || n < 0 {
		return 0, pgerr.New(pgerr.InvalidParameter, "invalid duration")
	}
	units := map[string]time.Duration{"": time.Millisecond, "ms": time.Millisecond, "s": time.Second,
		"min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}
	u, ok := units[strings.TrimSpace(v[i:])]
	if !ok {
		return 0, pgerr.New(pgerr.InvalidParameter, "invalid unit")
	}
	return time.Duration(n * float64(u)), nil
}

// ExecScript splits, parses and executes a script, calling fn with each
// result; it stops at the first error, which is a *ScriptError.
func (s *Session) ExecScript(script string, fn func(Result) error) error {
	parts, err := sql.SplitScript(script)
	if err != nil && len(parts) == 0 {
		return &ScriptError{Err: err, SQL: script}
	}
	for _, p := range parts {
		st, err := sql.Parse(p.SQL)
		if err != nil {
			return &ScriptError{Err: err, SQL: p.SQL}
		}
		if st == nil {
			continue
		}
		var results []Result
		if p.HasData {
			results, err = s.ExecCopyData(st, strings.NewReader(p.Data))
		} else {
			results, err = s.Exec(st)
		}
		for _, r := range results { // with an error, the deltas committed before it
			if err := fn(r); err != nil {
				return err
			}
		}
		if err != nil {
			return &ScriptError{Err: err, SQL: p.SQL}
		}
	}
	if err != nil { // a statement after the last one run could not be split
		return &ScriptError{Err: err, SQL: script}
	}
	return nil
}

// ScriptError is an error in one statement of a script, with that
// statement's text for printing the error's position.
type ScriptError struct {
	Err error
	SQL string
}

func (e *ScriptError) Error() string { return e.Err.Error() }
func (e *ScriptError) Unwrap() error { return e.Err }

// ExecCopyData executes st, a COPY … FROM STDIN, with data as its input:
// what follows the statement in a script, up to a line \. (excluded).
// Any other statement ignores data.
func (s *Session) ExecCopyData(st *sql.Stmt, data io.Reader) ([]Result, error) {
	s.copyData = data
	defer func() { s.copyData = nil }()
	return s.Exec(st)
}

// CopyInTypes returns the types and names of the columns COPY … FROM STDIN st
// reads, in the order of its data, for a client that sends them in the
// binary format.
func (s *Session) CopyInTypes(st *sql.Stmt) ([]value.Type, []string, error) {
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	rec := &recorder{cat: s.e, seen: map[string]bool{}, text: s.storedText(st.SQL), rowSec: s.rowSecurity()}
	b, err := s.bindStmt(rec, st)
	if err != nil {
		return nil, nil, err
	}
	c, ok := b.(*sql.Copy)
	if !ok {
		return nil, nil, pgerr.New(pgerr.Internal, "CopyInTypes of %T", b)
	}
	rel, ok := rec.Relation(c.Table)
	if !ok {
		return nil, nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", c.Table)
	}
	types := make([]value.Type, len(c.Cols))
	names := make([]string, len(c.Cols))
	for i, col := range c.Cols {
		types[i], names[i] = rel.Cols[col].Type, rel.Cols[col].Name
	}
	return types, names, nil
}

// SpeakCopyBinary tells the session that its client (the server's copy
// protocol) encodes COPY … TO STDOUT's rows and decodes COPY … FROM
// STDIN's in the binary format; without it both are refused.
func (s *Session) SpeakCopyBinary() { s.copyBinary = true }

// ExecCopyDecoded executes st, a COPY … FROM STDIN (FORMAT binary), on
// text: the client's binary rows, which the server's copy protocol
// decoded and wrote in the text format with its defaults.
func (s *Session) ExecCopyDecoded(st *sql.Stmt, text io.Reader) ([]Result, error) {
	s.copyDecoded = true
	defer func() { s.copyDecoded = false }()
	return s.ExecCopyData(st, text)
}
