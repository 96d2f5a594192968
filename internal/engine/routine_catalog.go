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
// a later error undoes it as ROLLBACK would; the code's COMMIT or
// ROLLBACK ends that block and the next change starts another
// (endPromotedPart). A function called by a query or a data change runs
// them too, while the relations its running queries use are kept from
// changes (routine_inuse.go): the plans have read their rows or will
// read them as they were, and their shapes hold.

var _ plpgsql.FinalRuntime = (*plRuntime)(nil)

// Final implements plpgsql.FinalRuntime.
func (rt *plRuntime) Final(final bool) { rt.final = final }

// catalogChange reports whether b is a statement that execBound runs as
// a catalog change (Session.ddl).
func catalogChange(b sql.Bound) bool {
	if serverCatalogStmt(b) {
		return true
	}
	switch b.(type) {
	case *sql.Select, *sql.Insert, *sql.Update, *sql.Delete, *sql.Merge, *sql.RuleDML, *sql.RuleThrough,
		*sql.Call, *sql.Do, *sql.Tx, *sql.SetConstraints, *sql.WithModify, *sql.Truncate,
		*sql.Explain, *sql.ExplainAnalyze, *sql.Show, *sql.Set, *sql.Maintenance, *sql.Schema,
		*sql.Copy, *sql.CopyTo, *sql.Cluster, *sql.Reindex, *sql.LockTable,
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
	if head, elems, ok, err := sql.SchemaElements(st); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return rt.runBlockSchemaElements(head, elems)
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
	if err := s.inUseCheck(b); err != nil {
		return nil, err
	}
	had := s.inUseNow()
	undo := 0
	if e.txd != nil {
		undo = len(e.txd.undo)
	}
	stmt, outer, text := s.stmt, s.rec, s.ddlText
	res, err := s.execBound(b, rec)
	s.stmt, s.rec, s.ddlText = stmt, outer, text
	if err == nil {
		if from := s.followRenamed(b); from != "" {
			delete(had, from) // renamed, not dropped
		}
		if err = s.droppedInUse(had); err != nil {
			e.undoCatalog(undo) // as a failed catalog change of the block
			res = Result{}
		}
	}
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

// runBlockSchemaElements runs CREATE SCHEMA with schema elements as
// catalog changes of the block: CREATE SCHEMA, then each element in the
// new schema, as execSchemaElements does outside PL/pgSQL. An element's
// error leaves the others for the block's undo: the statement's end, or
// the EXCEPTION handler that catches it.
func (rt *plRuntime) runBlockSchemaElements(head *sql.Stmt, elems []*sql.Stmt) (*plpgsql.Result, error) {
	s := rt.s
	if _, err := rt.runBlockCatalogChange(head); err != nil {
		return nil, err
	}
	name := head.Node.GetCreateSchemaStmt().Schemaname
	if name == "" {
		name = s.userName()
	}
	saved := s.pathOverride
	s.pathOverride = append([]string{name}, s.searchPath()...)
	defer func() { s.pathOverride = saved }()
	for _, el := range elems {
		if _, err := rt.runBlockCatalogChange(el); err != nil {
			// Its position is in the element's own text.
			pe := *pgerr.Wrap(err)
			pe.Position = 0
			return nil, &pe
		}
	}
	return &plpgsql.Result{}, nil
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
	blockable := (rt.top || s.callerRunsCode()) && nparams == 0 && s.writer && e.tx != nil
	if s.block && blockable {
		return rt.runBlockCatalogChange(st)
	}
	// A final statement while a cursor's query is open runs as a block's
	// too: its relations are kept from it, and a DROP … CASCADE that
	// reached one is undone (routine_inuse.go).
	if elements || nparams > 0 || !rt.final || rt.tx == nil ||
		e.tx != nil && !e.tx.unchanged() || len(s.active) > 0 {
		if blockable && !e.tx.explicit {
			// The statement, its own transaction, becomes a
			// transaction block from here to its end, which commits
			// it or rolls it back (endPromoted).
			s.block, s.promoted, e.tx.explicit = true, true, true
			return rt.runBlockCatalogChange(st)
		}
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s is not supported in PL/pgSQL here", what).
			WithHint("PL/pgSQL code runs catalog changes from a DO block, a CALL, or a function called by a query or a data change")
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

// endPromotedPart ends, by COMMIT or ROLLBACK in procedure code, the
// transaction block that a catalog change made of its statement, under
// the statement's lock: its part stays committed whatever the statement
// does after, and the code goes on in a transaction of its own, as
// before the catalog change.
func (s *Session) endPromotedPart(rollback bool) error {
	e := s.e
	commit := !rollback
	var err error
	if commit && e.txd != nil {
		if err = e.commitBlock(); err != nil {
			commit = false
		}
	}
	if commit {
		err = e.commit()
	} else {
		e.rollback()
	}
	e.endBlock()
	s.block, s.promoted, s.failed, s.snapped = false, false, false, false
	clear(s.savepoints)
	s.savepoints = s.savepoints[:0]
	s.endNotify(commit && err == nil)
	e.begin()
	return err
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

// callerRunsCode reports whether the session's statement is one whose
// queries' function calls may change the catalog as a DO block's code
// does: a query or a data change (also under COPY (query) TO, which runs
// it as the session's statement, and EXPLAIN ANALYZE), or a DO or CALL
// whose code runs the query. A relation the running queries use is kept from changes
// (routine_inuse.go).
func (s *Session) callerRunsCode() bool {
	switch s.stmt.(type) {
	case *sql.Select, *sql.Insert, *sql.Update, *sql.Delete, *sql.Merge, *sql.WithModify, *sql.Do, *sql.Call,
		*sql.ExplainAnalyze, *sql.CreateTableAs:
		return true
	}
	return false
}

// promoteForCode makes the catalog change whose query rec calls PL/pgSQL
// code (CREATE TABLE … AS, SELECT … INTO) a transaction block from its
// start to its end, as a catalog change in that code would (endPromoted
// commits it or rolls it back): the code's catalog changes and the
// statement's own are then changes of one block, undone together when
// either fails, as PostgreSQL's one transaction is. Outside a block only;
// inside one the statement already is such a change.
func (s *Session) promoteForCode(rec *recorder) {
	e := s.e
	if s.block || !s.writer || !e.callsRoutine(rec) {
		return
	}
	if e.tx == nil {
		e.tx = e.newTxn(true)
	}
	s.block, s.promoted, e.tx.explicit = true, true, true
}
