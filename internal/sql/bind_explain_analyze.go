package sql

import (
	"strings"
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
}

func (*ExplainAnalyze) bound() {}

// explainBools are EXPLAIN's boolean options PostgreSQL 15 knows.
var explainBools = map[string]bool{"analyze": true, "verbose": true, "costs": true, "settings": true, "buffers": true,
	"wal": true, "timing": true, "summary": true}

// bindExplainAnalyze binds EXPLAIN with ANALYZE on; ok is false without
// it, for bindExplain.
func (b *binder) bindExplainAnalyze(e *pg_query.ExplainStmt) (Bound, bool, error) {
	start := time.Now()
	set := map[string]bool{}
	val := map[string]bool{}
	format := "text"
	for _, o := range e.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		name := strings.ToLower(d.Defname)
		switch {
		case name == "format":
			format = strings.ToLower(d.Arg.GetString_().GetSval())
		case explainBools[name]:
			set[name], val[name] = true, defTrue(d)
		default:
			return nil, true, b.stmt.errf(d.Location, pgerr.SyntaxError, "unrecognized EXPLAIN option %q", d.Defname)
		}
	}
	if !val["analyze"] {
		if set["timing"] && val["timing"] {
			return nil, true, pgerr.New(pgerr.InvalidParameter, "EXPLAIN option TIMING requires ANALYZE")
		}
		return nil, false, nil // the plan of a view (bindExplain)
	}
	if format != "text" {
		return nil, true, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN (ANALYZE, FORMAT %s) is not supported", format).
			WithHint("EXPLAIN ANALYZE prints text")
	}
	out := &ExplainAnalyze{Timing: !set["timing"] || val["timing"], Summary: !set["summary"] || val["summary"]}
	q := e.Query
	if err := b.explainModifying(q); err != nil {
		return nil, true, err
	}
	var err error
	switch {
	case q.GetSelectStmt() != nil && q.GetSelectStmt().IntoClause == nil:
		b.lock = &Locking{}
		if out.Query, err = b.bindSelect(q.GetSelectStmt()); err != nil {
			return nil, true, err
		}
		if b.lock.Strength != "" {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN ANALYZE of a query that locks rows is not supported")
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
		return nil, true, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN ANALYZE is supported for SELECT, INSERT, UPDATE, DELETE, MERGE, CREATE TABLE … AS, CREATE MATERIALIZED VIEW and SELECT … INTO")
	}
	if err != nil {
		return nil, true, err
	}
	if rd, ok := out.DML.(*RuleDML); ok {
		return nil, true, ruleExplainRefusal(rd)
	}
	out.Planning = time.Since(start)
	return out, true, nil
}
