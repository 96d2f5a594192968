package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
)

// Catalog changes in PL/pgSQL code. They keep no state of their own
// beyond plRuntime.final and top. Inside a transaction block the code of a
// DO block or a called procedure runs them as catalog changes of the block
// (runBlockCatalogChange), which undoes them. Outside one, deltaview's
// catalog changes are not undone, so code runs one only where nothing
// could ask to undo it: as a final statement
// of a DO block (plpgsql.FinalRuntime: after its success none of the
// block's code runs) run outside a transaction block, while the block's
// transaction has changed no row. It then runs as the statement would on
// its own; a failure leaves the catalog as it was, for an EXCEPTION
// handler to catch. Anywhere else it is refused (0A000).

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
	if s.block && rt.top && !elements && nparams == 0 && s.writer && e.tx != nil {
		return rt.runBlockCatalogChange(st)
	}
	if elements || nparams > 0 || !rt.final || rt.tx == nil ||
		e.tx != nil && !e.tx.unchanged() {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s is not supported in PL/pgSQL here", what).
			WithHint("outside a transaction block PL/pgSQL runs a catalog change only as the last statement of a DO block, before the block changes any row; inside BEGIN … COMMIT a DO block or a procedure runs any")
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
