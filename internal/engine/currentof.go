package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// WHERE CURRENT OF: a statement asks its session (the Backend of its
// clock) which row a cursor stands on. The cursors are those of the
// PL/pgSQL calls running, innermost first, then those of the transaction
// block, which the server keeps (SetCursors).

// CursorSource is what holds cursors: CurrentOf returns the oid of the
// table and the ctid of the row that the cursor named stands on (oid 0
// for a query that is no simply updatable scan), or the error 34000 of a
// cursor that does not exist, 24000 of one not positioned on a row.
type CursorSource interface {
	CurrentOf(name string) (oid uint32, tid value.Value, locked bool, err error)
}

var _ expr.CursorSource = (*Session)(nil)

// SetCursors makes src the session's cursors of its transaction block.
func (s *Session) SetCursors(src CursorSource) { s.cursors = src }

// CurrentOf implements expr.CursorSource.
func (s *Session) CurrentOf(name string) (uint32, value.Value, bool, error) {
	for i := len(s.plCursors) - 1; i >= 0; i-- {
		oid, tid, locked, err := s.plCursors[i].CurrentOf(name)
		if pgerr.Code(err) != pgerr.UndefinedCursor {
			return oid, tid, locked, err
		}
	}
	if s.portals.Has(name) {
		return s.portals.CurrentOf(name)
	}
	if s.cursors == nil {
		return 0, value.Null, false, pgerr.New(pgerr.UndefinedCursor, "cursor %q does not exist", name)
	}
	return s.cursors.CurrentOf(name)
}

// PushCursors implements plpgsql.CursorRuntime.
func (rt *plRuntime) PushCursors(c interface {
	CurrentOf(string) (uint32, value.Value, bool, error)
}) func() {
	s := rt.s
	s.plCursors = append(s.plCursors, c)
	n := len(s.plCursors)
	return func() { s.plCursors = s.plCursors[:n-1] }
}

// checkCurrentOf evaluates the cursor check of an UPDATE or a DELETE
// WHERE CURRENT OF (nil for another), before its rows.
func checkCurrentOf(check expr.Expr) error {
	if check == nil {
		return nil
	}
	_, err := check.Eval(nil)
	return err
}

// PinRows keeps the ctids of the rows of the table of oid as they are
// until unpin: a cursor of a transaction block holds them for WHERE
// CURRENT OF while other sessions commit, whose commits would otherwise
// renumber a table that deletions left sparse.
func (s *Session) PinRows(oid uint32) (unpin func()) {
	e := s.e
	e.mu.Lock()
	defer e.mu.Unlock()
	for name, t := range e.tables {
		if RelationOID(name) == oid {
			t.cursorPins++
			return func() {
				e.mu.Lock()
				t.cursorPins--
				e.mu.Unlock()
			}
		}
	}
	return func() {}
}

// Calls implements plpgsql.CallStack: the PL/pgSQL calls running in the
// session, outermost first.
func (rt *plRuntime) Calls() []any {
	out := make([]any, len(rt.s.plCursors))
	for i, c := range rt.s.plCursors {
		out[i] = c
	}
	return out
}
