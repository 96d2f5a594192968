package engine

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// The session's portals (Session.portals): the cursors PL/pgSQL calls
// open and those SQL's DECLARE declares, open until CLOSE or the end of
// the transaction (of the statement outside a block), as PostgreSQL's
// portals. A call's FETCH, MOVE and CLOSE read a cursor another call or
// the SQL level opened, and the SQL level's FETCH, MOVE and CLOSE read a
// call's; a ROLLBACK TO closes those opened after its savepoint.

var (
	_ plpgsql.PortalTable = (*plRuntime)(nil)
	_ plpgsql.Opener      = (*plRuntime)(nil)
)

// Portals implements plpgsql.PortalTable.
func (rt *plRuntime) Portals() *plpgsql.Portals { return &rt.s.portals }

// OpenMark implements plpgsql.Opener: a cursor opened now is closed by
// a ROLLBACK TO a savepoint numbered up to it.
func (rt *plRuntime) OpenMark() (int, int64) { return int(rt.s.spSeq), expr.ClockMicros() }

// closePortals closes the session's portals: its transaction ended.
func (s *Session) closePortals() {
	if s.portals.Len() > 0 {
		s.portals.CloseAll()
	}
}

// HasPortal reports whether the session has an open cursor of the name,
// which its FETCH, MOVE and CLOSE read.
func (s *Session) HasPortal(name string) bool { return s.portals.Has(name) }

// PortalColumns are the columns of the open cursor name, which FETCH
// returns; false when none is open.
func (s *Session) PortalColumns(name string) ([]plan.Column, bool) {
	for _, p := range s.portals.List() {
		if p.Name == name {
			return p.Res.Cols, true
		}
	}
	return nil, false
}

// execCursorStmt runs DECLARE … CURSOR FOR query, FETCH, MOVE and CLOSE
// on the session's portals; ok is false for another statement.
func (s *Session) execCursorStmt(st *sql.Stmt) (_ []Result, ok bool, err error) {
	n := st.Node
	dc, fs, cs := n.GetDeclareCursorStmt(), n.GetFetchStmt(), n.GetClosePortalStmt()
	if dc == nil && fs == nil && cs == nil {
		return nil, false, nil
	}
	if s.closed {
		return nil, true, errClosed
	}
	if s.failed {
		return nil, true, pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	var res Result
	switch {
	case dc != nil:
		return s.declareCursor(st, dc)
	case fs != nil:
		res, err = s.fetchPortal(fs)
	case cs.Portalname == "":
		s.closePortals()
		res = Result{Tag: "CLOSE CURSOR ALL"}
	default:
		if err = s.portals.Close(cs.Portalname); err == nil {
			res = Result{Tag: "CLOSE CURSOR"}
		}
	}
	out, err := s.finish(res, err)
	return out, true, err
}

// Options of DECLARE (PostgreSQL's CURSOR_OPT_*).
const (
	cursorOptBinary   = 0x1
	cursorOptScroll   = 0x2
	cursorOptNoScroll = 0x4
	cursorOptHold     = 0x20
)

// declareCursor runs DECLARE name CURSOR FOR query: the query runs now,
// its rows kept for FETCH; one that is a simply updatable scan of a table
// keeps its rows' ctids for WHERE CURRENT OF, the table's rows pinned
// until the cursor closes.
func (s *Session) declareCursor(st *sql.Stmt, dc *pg_query.DeclareCursorStmt) ([]Result, bool, error) {
	fail := func(err error) ([]Result, bool, error) { return nil, true, s.fail(err) }
	if dc.Options&cursorOptHold != 0 {
		return fail(pgerr.New(pgerr.FeatureNotSupported, "DECLARE CURSOR WITH HOLD is not supported").
			WithHint("a cursor lives until its transaction ends"))
	}
	if !s.block {
		return fail(pgerr.New(pgerr.NoActiveTransaction, "DECLARE CURSOR can only be used in transaction blocks"))
	}
	if s.portals.Has(dc.Portalname) {
		return fail(pgerr.New(pgerr.DuplicateCursor, "cursor %q already exists", dc.Portalname))
	}
	q := &sql.Stmt{SQL: st.SQL, Node: dc.Query}
	if sql.Modifies(q) {
		return fail(pgerr.New(pgerr.FeatureNotSupported, "DECLARE CURSOR must not contain data-modifying statements in WITH"))
	}
	scan, isScan := sql.CursorScan(q)
	if isScan {
		if _, err := s.Prepare(scan); err != nil {
			isScan = false // no table: a view or a function has no ctid
		} else {
			q = scan
		}
	}
	results, err := s.Exec(q)
	if err != nil {
		return nil, true, err
	}
	if len(results) == 0 || !results[0].HasRows {
		return fail(pgerr.New(pgerr.InvalidCursorState, "cursor can only scan a query that returns rows"))
	}
	r := results[0]
	res := &plpgsql.Result{Cols: r.Columns, Rows: r.Rows, Count: int64(len(r.Rows))}
	var oids []uint32
	var tids []value.Value
	var release func()
	if isScan {
		k := len(res.Cols) - 2
		oids, tids = make([]uint32, len(res.Rows)), make([]value.Value, len(res.Rows))
		for i, row := range res.Rows {
			oids[i], tids[i] = row[k].OID(), row[k+1]
			res.Rows[i] = row[:k:k]
		}
		res.Cols = res.Cols[:k:k]
		var unpins []func()
		seen := map[uint32]bool{}
		for _, oid := range oids {
			if !seen[oid] {
				seen[oid] = true
				unpins = append(unpins, s.PinRows(oid))
			}
		}
		release = func() {
			for _, u := range unpins {
				u()
			}
		}
	}
	err = s.portals.Declare(dc.Portalname, st.SQL, res, dc.Options&cursorOptScroll != 0, dc.Options&cursorOptNoScroll != 0, dc.Options&cursorOptBinary != 0,
		oids, tids, isScan && sql.Locked(q), release, int(s.spSeq), expr.ClockMicros())
	if err != nil {
		return fail(err)
	}
	return []Result{{Tag: "DECLARE CURSOR"}}, true, nil
}

// fetchPortal runs FETCH or MOVE.
func (s *Session) fetchPortal(fs *pg_query.FetchStmt) (Result, error) {
	dir := plpgsql.FetchForward
	switch fs.Direction {
	case pg_query.FetchDirection_FETCH_BACKWARD:
		dir = plpgsql.FetchBackward
	case pg_query.FetchDirection_FETCH_ABSOLUTE:
		dir = plpgsql.FetchAbsolute
	case pg_query.FetchDirection_FETCH_RELATIVE:
		dir = plpgsql.FetchRelative
	}
	res, rows, n, err := s.portals.Fetch(fs.Portalname, dir, fs.HowMany, fs.Ismove)
	if err != nil {
		return Result{}, err
	}
	if fs.Ismove {
		return Result{Tag: "MOVE " + strconv.FormatInt(n, 10)}, nil
	}
	return Result{Columns: res.Cols, HasRows: true, Rows: rows, Tag: "FETCH " + strconv.FormatInt(n, 10)}, nil
}
