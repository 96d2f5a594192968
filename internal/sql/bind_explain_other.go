package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// bindExplainOther binds EXPLAIN (without ANALYZE) of the statements
// whose plan is that of a query run once: CREATE TABLE … AS and SELECT …
// INTO (the table is not created), DECLARE … CURSOR (the cursor is not
// opened); and of REFRESH MATERIALIZED VIEW, which PostgreSQL explains
// as a utility statement without a plan. ok is false for other
// statements.
func (b *binder) bindExplainOther(q *pg_query.Node, format string) (Bound, bool, error) {
	switch {
	case q.GetCreateTableAsStmt().GetObjtype() == pg_query.ObjectType_OBJECT_TABLE,
		q.GetSelectStmt() != nil && q.GetSelectStmt().IntoClause != nil:
		bd, err := b.bindStmt(q)
		if err != nil {
			return nil, true, err
		}
		c, ok := bd.(*CreateTableAs)
		if !ok {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN of %s is not supported", stmtName(q))
		}
		return &Explain{TableAs: c, Format: format}, true, nil
	case q.GetDeclareCursorStmt() != nil:
		p, err := b.bindCursorQuery(q.GetDeclareCursorStmt())
		if err != nil {
			return nil, true, err
		}
		return &Explain{Query: p, Format: format}, true, nil
	case q.GetRefreshMatViewStmt() != nil:
		return &Explain{Utility: true, Format: format}, true, nil
	case q.GetExecuteStmt() != nil:
		// A session runs EXPLAIN EXECUTE with its prepared statement
		// (the engine's sqlprepare.go); bound anywhere else there is none.
		return nil, true, pgerr.New(pgerr.UndefinedPrepared, "prepared statement %q does not exist", q.GetExecuteStmt().Name)
	}
	return nil, false, nil
}

// bindCursorQuery binds DECLARE's query as the ad-hoc query it runs.
func (b *binder) bindCursorQuery(dc *pg_query.DeclareCursorStmt) (plan.Node, error) {
	bd, err := b.bindStmt(dc.Query)
	if err != nil {
		return nil, err
	}
	sel, ok := bd.(*Select)
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN of DECLARE … CURSOR FOR %s is not supported", stmtName(dc.Query))
	}
	return sel.Plan, nil
}

// explainAdHoc binds EXPLAIN SELECT of a query no view can keep for a
// call of a user's routine (binder.adHocCall) as the query run once: its
// plan is that query's (Function Scan for a call in FROM), as DECLARE's
// is.
func (b *binder) explainAdHoc(sel *pg_query.SelectStmt, format string) (Bound, error) {
	nb := &binder{cat: b.cat, stmt: b.stmt, params: b.params, stmtClock: b.stmtClock}
	p, err := nb.bindSelect(sel)
	if err != nil {
		return nil, err
	}
	return &Explain{Query: p, Format: format}, nil
}
