package sql

import (
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// ExplainAnalyze is EXPLAIN ANALYZE of an ad-hoc SELECT (Query) or of a
// data-changing statement (DML, a *CreateTableAs too): the statement
// runs, as in PostgreSQL, and the figures of its run are reported.
type ExplainAnalyze struct {
	Query plan.Node
	DML   Bound
	// Table is the table DML changes.
	Table string
	// Timing: the nodes' times (TIMING, on by default); Summary: the
	// planning and execution times (SUMMARY, on by default).
	Timing, Summary bool
	// Planning is the time binding the statement took.
	Planning time.Duration
	// Format is text, json, xml or yaml.
	Format string
}

func (*ExplainAnalyze) bound() {}

// bindExplainAnalyze binds EXPLAIN with ANALYZE on.
func (b *binder) bindExplainAnalyze(e *pg_query.ExplainStmt, opts ExplainOptions) (Bound, error) {
	start := time.Now()
	out := &ExplainAnalyze{Timing: opts.Timing, Summary: opts.Summary, Format: opts.Format}
	q := e.Query
	if w, ok, err := b.explainModifying(q); ok {
		// Its parts run; each says the rows it returned.
		if err != nil {
			return nil, err
		}
		out.DML, out.Planning = w, time.Since(start)
		return out, nil
	}
	if q.GetRefreshMatViewStmt() != nil {
		return &Explain{Utility: true, Format: opts.Format}, nil // nothing runs, as in PostgreSQL
	}
	if dc := q.GetDeclareCursorStmt(); dc != nil {
		// The query runs; no cursor is opened, as in PostgreSQL.
		p, err := b.bindCursorQuery(dc)
		if err != nil {
			return nil, err
		}
		out.Query, out.Planning = p, time.Since(start)
		return out, nil
	}
	var err error
	switch {
	case q.GetSelectStmt() != nil && q.GetSelectStmt().IntoClause == nil:
		b.lock = &Locking{}
		if out.Query, err = b.bindSelect(q.GetSelectStmt()); err != nil {
			return nil, err
		}
		if b.lock.Strength != "" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN ANALYZE of a query that locks rows is not supported")
		}
	case q.GetInsertStmt() != nil:
		out.Table = q.GetInsertStmt().Relation.GetRelname()
		out.DML, err = b.bindStmt(q)
	case q.GetUpdateStmt() != nil:
		out.Table = q.GetUpdateStmt().Relation.GetRelname()
		out.DML, err = b.bindStmt(q)
	case q.GetDeleteStmt() != nil:
		out.Table = q.GetDeleteStmt().Relation.GetRelname()
		out.DML, err = b.bindStmt(q)
	case q.GetMergeStmt() != nil:
		out.Table = q.GetMergeStmt().Relation.GetRelname()
		out.DML, err = b.bindStmt(q)
	case q.GetSelectStmt() != nil, q.GetCreateTableAsStmt().GetObjtype() == pg_query.ObjectType_OBJECT_TABLE:
		// SELECT … INTO and CREATE TABLE … AS: the table is created and
		// filled, and the plan is the query's, as in PostgreSQL.
		out.DML, err = b.bindStmt(q)
	case q.GetCreateTableAsStmt().GetObjtype() == pg_query.ObjectType_OBJECT_MATVIEW:
		// The view is created and built; the plan is its circuit.
		out.DML, err = b.bindStmt(q)
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN ANALYZE is supported for SELECT, INSERT, UPDATE, DELETE, MERGE, CREATE TABLE … AS, CREATE MATERIALIZED VIEW and SELECT … INTO")
	}
	if err != nil {
		return nil, err
	}
	if rd, ok := out.DML.(*RuleDML); ok {
		return nil, ruleExplainRefusal(rd)
	}
	out.Planning = time.Since(start)
	return out, nil
}
