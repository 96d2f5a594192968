package engine

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// CREATE TABLE name AS EXECUTE p [(args)] [WITH [NO] DATA], and EXPLAIN
// [options] of it: the prepared statement, which must be a SELECT
// (42809 otherwise, as PostgreSQL says), becomes the query of a CREATE
// TABLE … AS, run or explained with the arguments' values as EXECUTE
// gives them. EXPLAIN of one whose statement is not a SELECT explains
// that statement, as PostgreSQL does.

// isCreateAsExecute reports whether n is CREATE TABLE … AS EXECUTE or
// an EXPLAIN of one.
func isCreateAsExecute(n *pg_query.Node) bool {
	if x := n.GetExplainStmt(); x != nil {
		n = x.Query
	}
	return n.GetCreateTableAsStmt().GetQuery().GetExecuteStmt() != nil
}

// createAsExecute runs st, CREATE TABLE … AS EXECUTE or an EXPLAIN of it.
func (s *Session) createAsExecute(st *sql.Stmt) ([]Result, error) {
	if s.failed {
		return nil, pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	x := st.Node.GetExplainStmt()
	ctas := st.Node.GetCreateTableAsStmt()
	if x != nil {
		if _, err := sql.ReadExplainOptions(st, x); err != nil {
			return nil, err
		}
		ctas = x.Query.GetCreateTableAsStmt()
	}
	p, args, err := s.executeArgs(st, ctas.Query.GetExecuteStmt())
	if err != nil {
		return nil, err
	}
	if sel := p.stmt.Node.GetSelectStmt(); sel == nil || sel.IntoClause != nil {
		if x != nil {
			// PostgreSQL's EXPLAIN explains (and under ANALYZE runs) the
			// statement as EXECUTE would, and creates no table.
			ex := proto.Clone(x).(*pg_query.ExplainStmt)
			ex.Query = ctas.Query
			return s.explainExecute(&sql.Stmt{SQL: st.SQL, Node: &pg_query.Node{Node: &pg_query.Node_ExplainStmt{ExplainStmt: ex}}})
		}
		return nil, pgerr.New(pgerr.WrongObjectType, "prepared statement is not a SELECT")
	}
	// The arguments are written into the query as typed literals (a
	// CREATE TABLE … AS takes no parameters). The statement runs as text
	// of the prepared statement: the parts of this one keep no position
	// in it.
	query := proto.Clone(p.stmt.Node).(*pg_query.Node)
	types := p.ParamTypes()
	walkNodes(query, func(n *pg_query.Node) {
		ref := n.GetParamRef()
		if ref == nil || err != nil || ref.Number < 1 || int(ref.Number) > len(args) {
			return
		}
		v, t := args[ref.Number-1], types[ref.Number-1]
		lit := "NULL"
		if !v.IsNull() {
			lit = "'" + strings.ReplaceAll(v.String(), "'", "''") + "'"
		}
		var x *pg_query.Node
		if x, err = parseExpr(lit + "::" + t.String()); err == nil {
			n.Node = x.Node
		}
	})
	if err != nil {
		return nil, err
	}
	into := proto.Clone(ctas.Into).(*pg_query.IntoClause)
	into.Rel.Location = -1
	var node *pg_query.Node = &pg_query.Node{Node: &pg_query.Node_CreateTableAsStmt{CreateTableAsStmt: &pg_query.CreateTableAsStmt{
		Query: query, Into: into, Objtype: pg_query.ObjectType_OBJECT_TABLE, IfNotExists: ctas.IfNotExists}}}
	if x != nil {
		options := make([]*pg_query.Node, len(x.Options))
		for i, o := range x.Options {
			d := *o.GetDefElem() // checked above
			d.Location = -1
			options[i] = &pg_query.Node{Node: &pg_query.Node_DefElem{DefElem: &d}}
		}
		node = &pg_query.Node{Node: &pg_query.Node_ExplainStmt{ExplainStmt: &pg_query.ExplainStmt{Query: node, Options: options}}}
	}
	ep, err := s.Prepare(&sql.Stmt{SQL: p.stmt.SQL, Node: node})
	if err != nil {
		return nil, err
	}
	return s.ExecPrepared(ep, nil)
}
