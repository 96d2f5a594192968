package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// A function of several OUT parameters (RETURNS record with them, or no
// RETURNS) returns, outside SETOF, one anonymous record, as in
// PostgreSQL: its type is the call's own, whose fields are the OUT
// parameters, named and typed as they are. A call in an expression is
// that record, which a field selection ((f(x)).b), a star ((f(x)).*),
// comparisons and the output read as any record's; a call in FROM is
// the record's fields, one row, NULL fields when the body gives no row.
// A SQL function's call is the scalar subquery of its body whose one
// column is ROW(…) of the OUT parameters (recordQuery); a PL/pgSQL
// function's returns the record itself.

// OutRecordType is the anonymous record type of a call of f, a function
// of several result columns: a field per column.
func (f *Function) OutRecordType() value.Type {
	fields := make([]value.RecordField, len(f.Cols))
	for i, c := range f.Cols {
		fields[i] = value.RecordField{Name: c.Name, Type: c.Type}
	}
	return value.RecordTypeOf("", fields)
}

// outRecord reports whether a call of f in an expression is the
// anonymous record of its OUT parameters.
func (f *Function) outRecord() bool {
	return !f.Set && len(f.Cols) > 1
}

// recordQuery is rowsQuery(first) whose one column is the record of the
// function's columns, ROW(CAST(r.c1 AS t1), …) named after them: never
// NULL for a row of NULLs, NULL when the body gives no row.
func (c *userCall) recordQuery(first bool) *pg_query.Node {
	q := c.rowsQuery(true, first)
	sel := q.GetSelectStmt()
	row := &pg_query.RowExpr{RowFormat: pg_query.CoercionForm_COERCE_SQL_SYNTAX, Location: c.loc}
	if c.fn.anyInstance && !c.fn.recordList {
		row.RowFormat = pg_query.CoercionForm_COERCE_EXPLICIT_CAST // unregistered
	}
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		row.Args = append(row.Args, rt.Val)
		row.Colnames = append(row.Colnames, pg_query.MakeStrNode(rt.Name))
	}
	sel.TargetList = []*pg_query.Node{resTarget(&pg_query.Node{Node: &pg_query.Node_RowExpr{RowExpr: row}}, c.fn.Name)}
	return q
}

// outRecordCall binds a call of a PL/pgSQL function of several OUT
// parameters: the function returns the record of their values.
func outRecordCall(call *expr.RoutineCall, fn *Function) expr.Expr {
	call.T = fn.OutRecordType()
	return call
}
