package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
)

// Catalog changes in PL/pgSQL code. They keep no state of their own
// beyond plRuntime.final and top, and Session.promoted. Inside a
// transaction block the code of a DO block or a called procedure runs
// them as catalog changes of the block (runBlockCatalogChange), which
// undoes them. Outside one, a final statement of a DO block
// (plpgsql.FinalRuntime: after its success none of the block's code runs)
// run while the statement's transaction has changed no row runs as the
// statement would on its own, which covers the catalog changes a block
// cannot undo (temporary tables, subscriptions); a failure leaves the
// catalog as it was, for an EXCEPTION handler to catch. Any other catalog
// change of a DO block's or a called procedure's code makes the
// statement a transaction block from there to its end (promoted), so that
// a later error undoes it as ROLLBACK would. A function called by a query
// runs them only when the query reads no relation (SELECT f(…)), the
// common way of calling one for its effect: otherwise the query's plan
// may read what it would change (0A000).

var _ plpgsql.FinalRuntime = (*plRuntime)(nil)

// Final implements plpgsql.FinalRuntime.
func (rt *plRuntime) Final(final bool) { rt.final = final }

// catalogChange reports whether b is a statement that execBound runs as
// a catalog change (Session.ddl).
func catalogChange(b sql.Bound) bool {
	switch b.(type) {
	case *sql.Select, *sql.Insert, *sql.Update, *sql.Delete, *sql.Merge, *sql.RuleDML, *sql.RuleThrough,
		*sql.Call, *sql.Do, *sql.Tx, *sql.SetConstraints, *sql.WithModify, *sql.Truncate,
		*sql.Explain, *sql.ExplainAnalyze, *sql.Show, *sql.Set, *sql.Maintenance, *sql.Schema,
		*sql.Copy, *sql.CopyTo, *sql.Refresh, *sql.Cluster, *sql.Reindex, *sql.LockTable,
		*sql.Listen, *sql.Notify, *sql.Subscribe,
		*sql.CreateSubscription, *sql.AlterSubscription, *sql.DropSubscription,
		*sql.CreateServer, *sql.CreateForeignTable, *sql.DropSink:
		return false
	}
	return true
}

// runBlockCatalogChange runs the catalog change st of a DO block or a
// procedure called inside a transaction block as a catalog change of the
// block (txddl.go): anywhere in the code, undone by the block's ROLLBACK
// or ROLLBACK TO, by an EXCEPTION handler that catches an error after it
// (plRuntime.Undo), and, when the statement that runs the code fails, by
// the failed block's end. The kinds the block cannot undo are 25001.
func (rt *plRuntime) runBlockCatalogChange(st *sql.Stmt) (*plpgsql.Result, error) {
	s, e := rt.s, rt.s.e
	rec := &recorder{cat: e, seen: map[string]bool{}, text: s.storedText(st.SQL), rowSec: s.rowSecurity(), session: s}
	b, err := s.bindStmt(rec, st)
	if err == nil {
		err = s.readOnlyCheck(b, rec)
	}
	if err == nil {
		err = s.authorize(b, rec)
	}
	if err != nil {
		return nil, err
	}
	stmt, outer, text := s.stmt, s.rec, s.ddlText
	res, err := s.execBound(b, rec)
	s.stmt, s.rec, s.ddlText = stmt, outer, text
	for i, msg := range res.Notices {
		level := "NOTICE"
		if l, ok := res.NoticeLevels[i]; ok {
			level = l
		}
		e.noticeAt(level, msg)
	}
	if err != nil {
		return nil, err
	}
	return &plpgsql.Result{Cols: res.Columns, Rows: res.Rows}, nil
}

// unchanged reports whether the transaction has changed nothing yet.
func (tx *txn) unchanged() bool {
	return len(tx.log) == 0 && len(tx.pending) == 0 && len(tx.restarts) == 0 && len(tx.deferred) == 0 &&
		!tx.fkCheck && !tx.keyCheck
}

// runCatalogChange runs the catalog change st of PL/pgSQL code, which
// has nparams parameters, or refuses it.
func (rt *plRuntime) runCatalogChange(st *sql.Stmt, nparams int) (*plpgsql.Result, error) {
	s, e := rt.s, rt.s.e
	if st.Node.GetIndexStmt().GetConcurrent() {
		return nil, pgerr.New(pgerr.ActiveTransaction, "CREATE INDEX CONCURRENTLY cannot be executed from a function")
	}
	if st.Node.GetDropStmt().GetConcurrent() {
		return nil, pgerr.New(pgerr.ActiveTransaction, "DROP INDEX CONCURRENTLY cannot be executed from a function")
	}
	what := strings.ToUpper(strings.Fields(st.SQL + " ?")[0])
	_, _, elements, _ := sql.SchemaElements(st)
	blockable := (rt.top || s.readsNoRelation()) && !elements && nparams == 0 && s.writer && e.tx != nil
	if s.block && blockable {
		return rt.runBlockCatalogChange(st)
	}
	if elements || nparams > 0 || !rt.final || rt.tx == nil ||
		e.tx != nil && !e.tx.unchanged() {
		if blockable && !e.tx.explicit {
			// The statement, its own transaction, becomes a
			// transaction block from here to its end, which commits
			// it or rolls it back (endPromoted).
			s.block, s.promoted, e.tx.explicit = true, true, true
			return rt.runBlockCatalogChange(st)
		}
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s is not supported in PL/pgSQL here", what).
			WithHint("a function runs catalog changes when called by a query that reads no table (SELECT f(…)), by CALL or from a DO block")
	}
	rec := &recorder{cat: e, seen: map[string]bool{}, text: s.storedText(st.SQL), rowSec: s.rowSecurity(), session: s}
	b, err := s.bindStmt(rec, st)
	if err == nil {
		err = s.readOnlyCheck(b, rec)
	}
	if err == nil {
		err = s.authorize(b, rec)
	}
	if err != nil {
		return nil, err
	}
	// As the statement on its own: no transaction is open around it.
	e.tx = nil
	res, err := s.execBound(b, rec)
	e.begin()
	for i, msg := range res.Notices { // the statement's own (IF NOT EXISTS skipping)
		level := "NOTICE"
		if l, ok := res.NoticeLevels[i]; ok {
			level = l
		}
		e.noticeAt(level, msg)
	}
	if err != nil {
		return nil, err
	}
	return &plpgsql.Result{Cols: res.Columns, Rows: res.Rows}, nil
}

// endPromoted ends the transaction block that a catalog change in
// PL/pgSQL code made of its statement (runCatalogChange): committed when
// the statement succeeded, rolled back when it failed. The commit's
// notices join the statement's.
func (s *Session) endPromoted(res Result, err error) (Result, error) {
	s.promoted = false
	notices, cerr := s.endTx(err == nil)
	if err == nil {
		err = cerr
	}
	res.Notices = append(res.Notices, notices...)
	return res, err
}

// readsNoRelation reports whether the session's statement is a query that
// reads no table, view or sequence, whose PL/pgSQL calls may change the
// catalog as a DO block's code does.
func (s *Session) readsNoRelation() bool {
	_, sel := s.stmt.(*sql.Select)
	return sel && s.rec != nil && len(s.rec.seen) == 0 && len(s.rec.seqs) == 0
}
