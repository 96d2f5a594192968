package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bindTableSample binds t TABLESAMPLE SYSTEM | BERNOULLI (percent)
// [REPEATABLE (seed)] ad hoc: the table's rows under a filter that keeps
// each with probability percent/100 (expr.NewSample). A view refuses it:
// a sample of a changing table is not a function of the table.
func (b *binder) bindTableSample(ts *pg_query.RangeTableSample) (plan.Node, *scope, error) {
	if b.forView {
		return nil, nil, b.refuse(b.keyword("tablesample", 0), "TABLESAMPLE is not supported in a materialized view").
			WithHint("a view holds all of its rows: sample them when reading it, SELECT … FROM v TABLESAMPLE …")
	}
	var names []string
	for _, n := range ts.Method {
		names = append(names, n.GetString_().GetSval())
	}
	method := strings.Join(names, ".")
	if method != "system" && method != "bernoulli" {
		return nil, nil, b.stmt.errf(ts.Location, pgerr.UndefinedObject, "tablesample method %s does not exist", method)
	}
	if len(ts.Args) != 1 {
		return nil, nil, b.stmt.errf(ts.Location, pgerr.InvalidTablesampleArg, "tablesample method %s requires 1 argument, not %d", method, len(ts.Args))
	}
	rv := ts.Relation.GetRangeVar()
	if rv == nil {
		return nil, nil, b.refuse(ts.Location, "TABLESAMPLE clause can only be applied to tables and materialized views")
	}
	_, cte := b.lookupCTE(rv.Relname)
	rel, ok := b.cat.Relation(rv.Relname)
	if cte && rv.Schemaname == "" || ok && rel.Kind == KindView {
		return nil, nil, b.refuse(rv.Location, "TABLESAMPLE clause can only be applied to tables and materialized views")
	}
	p, sc, err := b.bindRangeVar(rv)
	if err != nil {
		return nil, nil, err
	}
	// The arguments see no column of the query, as in PostgreSQL.
	arg := func(n *pg_query.Node, t value.Type) (expr.Expr, error) {
		e, err := b.bindExpr(&scope{}, n)
		if err != nil {
			return nil, err
		}
		return b.coerce(e, t, nodeLoc(n, ts.Location))
	}
	percent, err := arg(ts.Args[0], value.Float4Type)
	if err != nil {
		return nil, nil, err
	}
	var seed expr.Expr
	if ts.Repeatable != nil {
		if seed, err = arg(ts.Repeatable, value.Float8Type); err != nil {
			return nil, nil, err
		}
	}
	cols := make([]expr.Expr, len(p.Columns()))
	for i, c := range p.Columns() {
		cols[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	return &plan.Filter{Input: p, Pred: expr.NewSample(strings.ToUpper(method), percent, seed, cols)}, sc, nil
}
