package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// StatementClocker is a Catalog that runs the statements it binds ad hoc
// and gives each binding a clock: now(), current_timestamp, current_date,
// current_time, localtime, localtimestamp and transaction_timestamp()
// read the start of the transaction, statement_timestamp() the start of
// the statement, as in PostgreSQL, rather than the clock at each call.
// The runner sets the clock before each execution. A Catalog without it,
// and a view's query, read the clock at each call (a view keeps them in
// temporal filters only).
type StatementClocker interface {
	StatementClock() *expr.StmtClock
}

// stmtClockFor returns the clock of a SELECT, INSERT, UPDATE or DELETE
// bound with cat (also of COPY (query) TO, EXPLAIN and CREATE TABLE … AS,
// which run one),
// or nil; other statements (a column's DEFAULT) read the
// clock when they run.
func stmtClockFor(cat Catalog, n *pg_query.Node) *expr.StmtClock {
	sc, ok := cat.(StatementClocker)
	if !ok || n == nil {
		return nil
	}
	if n.GetSelectStmt() == nil && n.GetInsertStmt() == nil && n.GetUpdateStmt() == nil && n.GetDeleteStmt() == nil && n.GetMergeStmt() == nil && n.GetCallStmt() == nil &&
		n.GetCopyStmt().GetQuery() == nil && n.GetExplainStmt() == nil &&
		n.GetCreateTableAsStmt().GetObjtype() != pg_query.ObjectType_OBJECT_TABLE {
		return nil
	}
	return sc.StatementClock()
}

// clockRead binds a call of the transaction's or statement's clock to the
// statement's clock; ok is false for other functions, or when the
// statement has no clock.
func (b *binder) clockRead(name string, loc int32) (e expr.Expr, ok bool, err error) {
	if b.stmtClock == nil || b.forView {
		return nil, false, nil
	}
	switch name {
	case "now", "current_timestamp", "transaction_timestamp":
		return &expr.ClockRead{C: b.stmtClock, Name: name}, true, nil
	case "statement_timestamp":
		return &expr.ClockRead{C: b.stmtClock, Stmt: true, Name: name}, true, nil
	case "current_date":
		e, err := expr.Coerce(&expr.ClockRead{C: b.stmtClock, Name: "now"}, value.DateType, true)
		if err != nil {
			return nil, false, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		return e, true, nil
	}
	return nil, false, nil
}

// bindSessionValue binds SQL's session keywords: CURRENT_USER,
// CURRENT_ROLE, USER and SESSION_USER (the role the session acts as,
// read when the statement runs; a view, which no session runs, refuses
// them), CURRENT_CATALOG (the database) and CURRENT_SCHEMA.
func (b *binder) bindSessionValue(f *pg_query.SQLValueFunction) (expr.Expr, error) {
	name := strings.ToLower(strings.TrimPrefix(f.Op.String(), "SVFOP_"))
	switch f.Op {
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE,
		pg_query.SQLValueFunctionOp_SVFOP_USER, pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER:
		if b.forView {
			return nil, b.refuse(f.Location, "%s depends on the session and cannot be maintained in a view", name).
				WithHint("store the role in a table column when the row is written")
		}
		if b.stmtClock == nil && b.inDefault {
			// Read when a row is inserted: expr.WithClock gives it the
			// inserting statement's clock.
			return &expr.SessionUser{Name: name}, nil
		}
		if b.stmtClock == nil {
			return nil, b.refuse(f.Location, "%s is supported in queries and data changes only", name)
		}
		return &expr.SessionUser{C: b.stmtClock, Name: name}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		return b.callFunc(nil, "current_database", nil, nil, f.Location)
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		return b.callFunc(nil, "current_schema", nil, nil, f.Location)
	}
	return nil, b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "%s is not supported", name)
}
