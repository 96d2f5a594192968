package engine

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// explainExecute runs EXPLAIN [options] EXECUTE name [(args)]: the
// prepared statement explained with the arguments' values, as
// PostgreSQL explains it. Its options are checked first, then the
// statement's name and arguments as EXECUTE checks them. A SELECT is
// explained as the ad-hoc query EXECUTE runs (the query of a cursor),
// not as a view; under ANALYZE the statement runs, a data change
// changing the data.
func (s *Session) explainExecute(st *sql.Stmt) ([]Result, error) {
	x := st.Node.GetExplainStmt()
	if s.failed {
		return nil, pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	if _, err := sql.ReadExplainOptions(st, x); err != nil {
		return nil, err
	}
	p, args, err := s.executeArgs(st, x.Query.GetExecuteStmt())
	if err != nil {
		return nil, err
	}
	q := p.stmt.Node
	if q.GetSelectStmt() != nil && q.GetSelectStmt().IntoClause == nil {
		q = &pg_query.Node{Node: &pg_query.Node_DeclareCursorStmt{DeclareCursorStmt: &pg_query.DeclareCursorStmt{Query: q}}}
	}
	options := make([]*pg_query.Node, len(x.Options))
	for i, o := range x.Options {
		// Checked above; their positions are not in the prepared text.
		d := *o.GetDefElem()
		d.Location = -1
		options[i] = &pg_query.Node{Node: &pg_query.Node_DefElem{DefElem: &d}}
	}
	explain := &pg_query.Node{Node: &pg_query.Node_ExplainStmt{ExplainStmt: &pg_query.ExplainStmt{Query: q, Options: options}}}
	ep, err := s.Prepare(&sql.Stmt{SQL: p.stmt.SQL, Node: explain, Declared: p.stmt.Declared, DeclaredTypes: p.stmt.DeclaredTypes})
	if err != nil {
		return nil, err
	}
	return s.ExecPrepared(ep, args)
}
