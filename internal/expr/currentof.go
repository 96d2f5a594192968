package expr

import "github.com/deltaview/deltaview/internal/value"

// CursorSource answers WHERE CURRENT OF: the session, which a statement's
// clock carries as its Backend, holds the cursors of the transaction
// block (DECLARE) and of the PL/pgSQL calls running.
type CursorSource interface {
	// CurrentOf returns the oid of the table whose row the cursor named
	// stands on and that row's ctid. A cursor that does not exist is
	// 34000; one before its first row or past its last is 24000 (not
	// positioned on a row); one whose query is not a simply updatable
	// scan of a table gives oid 0. locked reports FOR UPDATE or FOR SHARE
	// in its query.
	CurrentOf(name string) (oid uint32, tid value.Value, locked bool, err error)
}
