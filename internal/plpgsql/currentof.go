package plpgsql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// WHERE CURRENT OF in a body's UPDATE and DELETE. A cursor whose query is
// a simply updatable scan of a table (sql.CursorScan) keeps the table's
// oid and each row's ctid; the call answers which row a cursor stands on
// (CurrentOf) through the runtime, which asks the innermost call running.

// CursorRuntime is a Runtime that answers WHERE CURRENT OF from the
// cursors of the calls running: PushCursors makes c's cursors the ones
// its statements see, until pop.
type CursorRuntime interface {
	PushCursors(c interface {
		CurrentOf(name string) (uint32, value.Value, bool, error)
	}) (pop func())
}

// cursorScan is the table and the ctids of the rows of a cursor's scan.
type cursorScan struct {
	oids   []uint32
	tids   []value.Value
	locked bool // FOR UPDATE or FOR SHARE
}

// runScan runs the query of a cursor, pe: through sql.CursorScan when it
// is a simply updatable scan, keeping the table and the ctids of its rows
// apart from the rows; scan is nil otherwise.
func (c *call) runScan(pe *pexpr) (*Result, *cursorScan, error) {
	p, err := c.prep(pe)
	if err != nil {
		return nil, nil, err
	}
	st, ok := sql.CursorScan(p.st)
	if !ok {
		res, err := c.run(pe)
		return res, nil, err
	}
	types, args, err := c.params(p)
	if err != nil {
		return nil, nil, err
	}
	res, err := c.rt.Run(st, types, args, false)
	if pgerr.Code(err) == pgerr.UndefinedColumn {
		// No table: a view or a function has no ctid.
		res, err := c.run(pe)
		return res, nil, err
	}
	if err != nil {
		return nil, nil, statementContext(err, pe.text)
	}
	n := len(res.Cols) - 2
	scan := &cursorScan{oids: make([]uint32, len(res.Rows)), tids: make([]value.Value, len(res.Rows)), locked: sql.Locked(p.st)}
	for i, r := range res.Rows {
		scan.oids[i], scan.tids[i] = r[n].OID(), r[n+1]
		res.Rows[i] = r[:n:n]
	}
	res.Cols = res.Cols[:n:n]
	return res, scan, nil
}

// CurrentOf implements WHERE CURRENT OF name for the call's statements:
// name is a cursor variable, whose value names the cursor, or a cursor's
// name.
func (c *call) CurrentOf(name string) (uint32, value.Value, bool, error) {
	portal := name
	if v := c.fr.find("", name); v != nil && !v.v.IsNull() && (v.t.Kind.IsString() || v.t.Kind == value.RefCursor) {
		portal = v.v.String()
	}
	cur := c.cursors.m[portal]
	if cur == nil {
		return 0, value.Null, false, pgerr.New(pgerr.UndefinedCursor, "cursor %q does not exist", portal)
	}
	return cur.currentOf(portal)
}

// currentOf is the table, the ctid and the lock of the row the cursor
// named portal stands on.
func (cur *cursor) currentOf(portal string) (uint32, value.Value, bool, error) {
	if cur.pos < 1 || cur.pos > int64(len(cur.res.Rows)) {
		return 0, value.Null, false, pgerr.New(pgerr.InvalidCursorState, "cursor %q is not positioned on a row", portal)
	}
	if cur.tids == nil {
		return 0, value.Null, false, nil
	}
	return cur.oids[cur.pos-1], cur.tids[cur.pos-1], cur.locked, nil
}
