package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Row locks. SELECT … FOR UPDATE (and FOR NO KEY UPDATE, FOR SHARE, FOR
// KEY SHARE) takes the writer slot, as a session's first change does, and
// keeps it to the end of the transaction (of the statement in
// autocommit): no other session changes a row meanwhile, so the rows the
// query read cannot change under the transaction, as PostgreSQL promises.
// The lock is coarser than PostgreSQL's: it holds every row of every
// table, so two sessions locking different rows take turns.

// locks reports whether b is a query that locks rows.
func locks(b sql.Bound) bool {
	sel, ok := b.(*sql.Select)
	return ok && sel.Lock.Strength != ""
}

// lockNoWait takes the writer slot for a query with NOWAIT: at once, or
// 55P03 as PostgreSQL fails when a row is locked by another transaction.
func (s *Session) lockNoWait(b sql.Bound, rec *recorder) error {
	if l, ok := b.(*sql.LockTable); ok && l.NoWait {
		return s.lockTableNoWait(l)
	}
	sel, ok := b.(*sql.Select)
	if !ok || !sel.Lock.NoWait || s.writer {
		return nil
	}
	if s.e.slot.tryAcquire() {
		s.writer = true
		return nil
	}
	rel := "?"
	if len(rec.direct) > 0 {
		rel = rec.direct[0]
	}
	return pgerr.New(pgerr.LockNotAvailable, "could not obtain lock on row in relation %q", rel).
		WithHint("another session's transaction holds the right to write; its end releases it")
}

// lockAllowed checks the privilege locking needs beyond reading: UPDATE
// on each relation the query names, as in PostgreSQL.
func (s *Session) lockAllowed(rec *recorder) error {
	for _, name := range rec.direct {
		if err := s.allowed(name, sql.PrivUpdate); err != nil {
			return err
		}
	}
	return nil
}
