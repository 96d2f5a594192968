package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Isolation levels. A transaction block at READ COMMITTED (or READ
// UNCOMMITTED, the same in PostgreSQL) sees, at each statement, the state
// committed when the statement starts. One at REPEATABLE READ or
// SERIALIZABLE must see one state throughout: the state committed when
// its first query starts (PostgreSQL's snapshot), plus its own changes.
// Tables keep one version of each row, so no reader can see a state older
// than the last commit; instead the block takes the writer slot at its
// first query, as a change takes it, and keeps it to its end. No other
// transaction commits meanwhile: the last commit stays the block's
// snapshot, and the block runs as if alone, before every transaction that
// waits for the slot. Every schedule is then serial, which is what
// SERIALIZABLE promises; serialization failures (40001) never happen,
// where PostgreSQL raises them for concurrent changes of the same rows.
// The cost is concurrency: other sessions' changes wait for the block's
// end (lock_timeout bounds the wait), where PostgreSQL's wait only for
// the rows the block changed; reads never wait, in the block or outside.

// snapshotIsolation reports whether the session's transaction runs at
// REPEATABLE READ or SERIALIZABLE.
func (s *Session) snapshotIsolation() bool {
	v, _ := s.setting("transaction_isolation")
	return v == "repeatable read" || v == "serializable"
}

// takesSnapshot reports whether b is a statement after which PostgreSQL's
// transaction has its snapshot: any but transaction control, SET, SHOW,
// LOCK, SET CONSTRAINTS, LISTEN and NOTIFY.
func takesSnapshot(b sql.Bound) bool {
	switch b.(type) {
	case *sql.Tx, *sql.Set, *sql.Show, *sql.LockTable, *sql.SetConstraints, *sql.Listen, *sql.Notify:
		return false
	}
	return true
}

// snapshotSlot is called with the read lock held (*held) before a
// statement b of a transaction block runs, bound by bind: at the block's
// first query, a block at REPEATABLE READ or SERIALIZABLE takes the writer
// slot, letting the read lock go while it waits, and binds b again when
// the catalog changed meanwhile. On error the read lock is let go.
func (s *Session) snapshotSlot(b sql.Bound, rec *recorder, bind func() (sql.Bound, *recorder, error), held *lockHeld) (sql.Bound, *recorder, error) {
	if s.snapped || !takesSnapshot(b) {
		return b, rec, nil
	}
	s.snapped = true
	if s.writer || !s.snapshotIsolation() {
		return b, rec, nil
	}
	if s.e.slot.tryAcquire() {
		s.writer = true
		return b, rec, nil
	}
	e := s.e
	gen := e.catalogGen
	e.mu.RUnlock()
	*held = heldNone
	if err := s.acquireSlot(); err != nil {
		return nil, nil, err
	}
	e.mu.RLock()
	*held = heldShared
	if e.catalogGen == gen {
		return b, rec, nil
	}
	b, rec, err := bind()
	if err == nil {
		err = s.authorize(b, rec)
	}
	if err != nil {
		e.mu.RUnlock()
		*held = heldNone
	}
	return b, rec, err
}

// keepsSnapshot reports whether the session holds the writer slot for
// its block's snapshot: ROLLBACK TO a savepoint set before the first query
// keeps it, as PostgreSQL's keeps the snapshot.
func (s *Session) keepsSnapshot() bool { return s.snapped && s.snapshotIsolation() }

// checkIsolationChange refuses a change of the transaction's isolation
// level once its snapshot is taken, or inside a savepoint, as PostgreSQL
// does (25001).
func (s *Session) checkIsolationChange(v string) error {
	if !s.block {
		return nil
	}
	if cur, _ := s.setting("transaction_isolation"); cur == v {
		return nil
	}
	if s.snapped {
		return pgerr.New(pgerr.ActiveTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
	}
	if len(s.savepoints) > 0 {
		return pgerr.New(pgerr.ActiveTransaction, "SET TRANSACTION ISOLATION LEVEL must not be called in a subtransaction")
	}
	return nil
}
