package engine

import (
	"maps"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Savepoints. SAVEPOINT name marks the session's transaction block: the
// length of its transaction's log (tx.go: the log is the undo log),
// whether the session held the writer slot, and its settings. ROLLBACK TO
// name undoes the log after the mark, putting the rows back as they were,
// gives the writer slot back if the session took it after the mark (as
// PostgreSQL releases the locks a subtransaction took when it is rolled
// back), restores the settings, and takes a failed block out of its
// failure; the savepoint stays, and the ones after it are forgotten.
// RELEASE name forgets the savepoint and every one after it and keeps
// their changes. A name may be used again: the newest savepoint of a name
// is the one a statement names.
//
// Views are maintained at commit only, from the log as the commit finds
// it: what a ROLLBACK TO undid never reaches a view, a subscriber, a sink
// or the store. Sequences are not transactional (a number handed out
// stays handed out) but for TRUNCATE … RESTART IDENTITY's restarts,
// undone as the rows are (restart.go), and catalog changes are refused
// inside a block.

// savepoint is one SAVEPOINT of the session's open transaction block.
type savepoint struct {
	name string
	// mark is the length of the transaction's log when the savepoint was
	// set, restarts that of its sequence restarts; meaningful when writer
	// is.
	mark, restarts int
	// writer says that the session held the writer slot (and so e.tx was
	// its transaction).
	writer bool
	// vals and local are copies of the session's settings (SET and SET
	// LOCAL) when the savepoint was set, never changed: savepoints may
	// share them.
	vals, local map[string]string
	// seq numbers the session's savepoints from 1, in the order they were
	// set (SavepointSeq).
	seq uint64
	// sends and listens are the lengths of the transaction's NOTIFYs and
	// LISTENs (notify.go).
	sends, listens int
	// cons is a copy of the block's SET CONSTRAINTS, which ROLLBACK TO
	// restores, as PostgreSQL does (trigger_constraint.go).
	cons conModes
	// ddl is the number of the block's catalog changes (txddl.go), which
	// ROLLBACK TO undoes back to.
	ddl int
	// temps is the number of temporary relations the block had made,
	// whose later ones ROLLBACK TO drops (temp_block.go).
	temps int
}

// invalidSavepoint is PostgreSQL's SQLSTATE for a savepoint that does not
// exist (invalid_savepoint_specification).
const invalidSavepoint = "3B001"

// execSavepoint runs SAVEPOINT, RELEASE and ROLLBACK TO.
func (s *Session) execSavepoint(t *sql.Tx) (Result, error) {
	what := map[sql.TxKind]string{sql.TxSavepoint: "SAVEPOINT", sql.TxRelease: "RELEASE SAVEPOINT",
		sql.TxRollbackTo: "ROLLBACK TO SAVEPOINT"}[t.Kind]
	if !s.block {
		return Result{}, pgerr.New(pgerr.NoActiveTransaction, "%s can only be used in transaction blocks", what)
	}
	if t.Kind == sql.TxSavepoint {
		s.setSavepoint(t.Savepoint)
		return Result{Tag: "SAVEPOINT"}, nil
	}
	i := len(s.savepoints) - 1
	for i >= 0 && s.savepoints[i].name != t.Savepoint {
		i--
	}
	if i < 0 {
		return Result{}, pgerr.New(invalidSavepoint, "savepoint %q does not exist", t.Savepoint)
	}
	if t.Kind == sql.TxRelease {
		clear(s.savepoints[i:])
		s.savepoints = s.savepoints[:i]
		return Result{Tag: "RELEASE"}, nil
	}
	s.rollbackTo(i)
	return Result{Tag: "ROLLBACK"}, nil
}

// setSavepoint sets a savepoint named name at the end of the session's
// transaction so far.
func (s *Session) setSavepoint(name string) {
	s.spSeq++
	sp := savepoint{name: name, writer: s.writer, seq: s.spSeq, cons: s.cons.clone(), temps: len(s.tempsMade)}
	sp.sends, sp.listens = s.notifyMark()
	// The copies are never changed: a savepoint set while the settings
	// are those of the last one shares its copies (a client that sets a
	// savepoint before each statement sets thousands).
	if n := len(s.savepoints); n > 0 && maps.Equal(s.savepoints[n-1].vals, s.gucs.vals) &&
		maps.Equal(s.savepoints[n-1].local, s.gucs.local) {
		sp.vals, sp.local = s.savepoints[n-1].vals, s.savepoints[n-1].local
	} else {
		sp.vals, sp.local = cloneMap(s.gucs.vals), cloneMap(s.gucs.local)
	}
	if s.writer {
		// Only the writer changes its transaction: no lock to read it.
		// Replacements kept by the typed API were written before the
		// statement ran (writeKept).
		if tx := s.e.tx; tx != nil {
			sp.mark, sp.restarts = len(tx.log), len(tx.restarts)
		}
		sp.ddl = s.e.catalogMark()
	}
	s.savepoints = append(s.savepoints, sp)
}

// rollbackTo rolls the session's transaction back to its savepoint i,
// which stays; the savepoints after it are forgotten.
func (s *Session) rollbackTo(i int) {
	s.forgetFresh(i)
	sp := s.savepoints[i]
	clear(s.savepoints[i+1:])
	s.savepoints = s.savepoints[:i+1]
	if s.writer {
		e := s.e
		e.mu.Lock()
		if !sp.writer {
			e.rollback() // every change of the transaction came after the savepoint
			e.endBlock()
		} else if e.tx != nil {
			e.flushPending()
			e.undoRestarts(min(sp.restarts, len(e.tx.restarts)))
			e.undoCatalog(sp.ddl)
			e.undoTo(min(sp.mark, len(e.tx.log)))
		}
		e.mu.Unlock()
		if !sp.writer && !s.keepsSnapshot() {
			s.releaseSlot()
		}
	}
	s.dropTempsSince(sp.temps)
	s.notifyUndo(sp.sends, sp.listens)
	s.cons = sp.cons.clone()
	g := &s.gucs
	g.vals, g.local = cloneMap(sp.vals), cloneMap(sp.local)
	s.applySettings()
	if s.rolledBack == 0 || sp.seq < s.rolledBack {
		s.rolledBack = sp.seq
	}
	s.portals.CloseFrom(int(sp.seq))
	s.failed = false
}

// SavepointSeq is the number of savepoints the session has set so far.
// Something opened now (a cursor) belongs to the savepoints numbered up
// to it: a ROLLBACK TO any of them undoes it.
func (s *Session) SavepointSeq() uint64 { return s.spSeq }

// TakeRolledBack returns the lowest number of a savepoint that a ROLLBACK
// TO rolled back to since the last call, and whether there was one: what
// was opened when SavepointSeq was at least that number is undone.
func (s *Session) TakeRolledBack() (uint64, bool) {
	n := s.rolledBack
	s.rolledBack = 0
	return n, n > 0
}
