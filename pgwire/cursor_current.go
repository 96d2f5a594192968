package pgwire

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// WHERE CURRENT OF a cursor of the transaction block. A cursor whose query
// is a simply updatable scan of a table (sql.CursorScan) reads the
// table's oid and each row's ctid as two more columns, kept apart from
// its rows; the connection answers its session which row a cursor stands
// on (engine.CursorSource): the last one FETCH returned, none before the
// first FETCH or once a FETCH returned fewer rows than it asked for.

// cursorScan is the table and the ctids of a cursor's scan.
type cursorScan struct {
	unpin  func() // lets the tables' rows be renumbered again
	locked bool   // FOR UPDATE or FOR SHARE
	// oids and tids are the table and the ctid of each row not fetched
	// yet (a scan of a table with inheritance children reads several).
	oids  []uint32
	tids  []value.Value
	at    value.Value // the ctid of the row the cursor stands on; NULL for none
	atOID uint32      // its table
}

// tables are the tables the scan's rows are of, each once.
func (s *cursorScan) tables() []uint32 {
	out := slices.Clone(s.oids)
	slices.Sort(out)
	return slices.Compact(out)
}

// cursorQuery returns the query a cursor over q runs: the scan with the
// two columns when q is a simply updatable scan of a table (scan is then
// set), else q.
func (c *conn) cursorQuery(q *sql.Stmt) (_ *sql.Stmt, scan bool) {
	st, ok := sql.CursorScan(q)
	if !ok {
		return q, false
	}
	if _, err := c.sess.Prepare(st); err != nil {
		return q, false // no table: a view or a function has no ctid
	}
	return st, true
}

// keepScan moves the two columns of a scan's rows to cur.scan.
func (cur *cursor) keepScan(locked bool) {
	n := len(cur.cols) - 2
	s := &cursorScan{oids: make([]uint32, len(cur.rows)), tids: make([]value.Value, len(cur.rows)), at: value.Null, locked: locked}
	for i, r := range cur.rows {
		s.oids[i], s.tids[i] = r[n].OID(), r[n+1]
		cur.rows[i] = r[:n:n]
	}
	cur.cols = cur.cols[:n:n]
	cur.scan = s
}

// move follows a FETCH that returned n rows of the want it asked for
// (want < 0 for ALL).
func (s *cursorScan) move(n, want int) {
	if s == nil || want == 0 {
		return
	}
	if n > 0 {
		s.at, s.atOID = s.tids[n-1], s.oids[n-1]
	}
	s.tids, s.oids = s.tids[n:], s.oids[n:]
	if want < 0 || n < want {
		s.at = value.Null
	}
}

// CurrentOf implements engine.CursorSource.
func (c *conn) CurrentOf(name string) (uint32, value.Value, bool, error) {
	cur, ok := c.cursors[name]
	if !ok {
		return 0, value.Null, false, pgerr.New(pgerr.UndefinedCursor, "cursor %q does not exist", name)
	}
	cur.mu.Lock()
	defer cur.mu.Unlock()
	if cur.scan == nil {
		return 0, value.Null, false, nil
	}
	if cur.scan.at.IsNull() {
		return 0, value.Null, false, pgerr.New(pgerr.InvalidCursorState, "cursor %q is not positioned on a row", name)
	}
	return cur.scan.atOID, cur.scan.at, cur.scan.locked, nil
}
