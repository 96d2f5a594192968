package sql

import (
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
// bound with cat, or nil; other statements (a column's DEFAULT) read the
// clock when they run.
func stmtClockFor(cat Catalog, n *pg_query.Node) *expr.StmtClock {
	sc, ok := cat.(StatementClocker)
	if !ok || n == nil {
		return nil
	}
	if n.GetSelectStmt() == nil && n.GetInsertStmt() == nil && n.GetUpdateStmt() == nil && n.GetDeleteStmt() == nil {
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
