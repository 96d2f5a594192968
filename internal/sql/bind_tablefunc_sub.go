package sql

import (
	"fmt"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
)

// Subqueries in the arguments of functions in FROM:
// generate_series(1, (SELECT max(a) FROM t)), or, reading the items before
// the function, unnest((SELECT array_agg(b) FROM u WHERE u.a = t.a)).
// The subqueries become the select list of a one-row query of their own,
// bound as a LATERAL subquery in the function's place would be (so a
// correlated one is decorrelated as there), and the functions run over
// its row: TableFunc{Input: that query}, whose columns a projection then
// drops. An uncorrelated subquery is so evaluated once, as PostgreSQL
// does; a view maintains the item where it maintains the functions and
// the subqueries.

// argsQual is the qualifier of the subqueries' columns, which no name a
// user writes can reach.
const argsQual = "?args?"

// argScope is the scope the arguments of a function in FROM are bound in.
func (b *binder) argScope() *scope {
	if b.fromArgs != nil {
		return b.fromArgs
	}
	return &scope{}
}

// argSubqueries reports whether a function of rf has a subquery among its
// arguments, and rf is the user's (not the rewrite of a select list's
// set-returning calls, whose arguments are already columns).
func argSubqueries(rf *pg_query.RangeFunction) bool {
	if selectListCalls(rf) {
		return false
	}
	return slices.ContainsFunc(rf.Functions, func(item *pg_query.Node) bool {
		items := item.GetList().GetItems()
		return len(items) > 0 && items[0].GetFuncCall() != nil && hasSubLink(items[0])
	})
}

// bindTableFuncSubqueries binds rf, whose functions' arguments hold
// subqueries, over the one-row query of those subqueries.
func (b *binder) bindTableFuncSubqueries(rf *pg_query.RangeFunction) (plan.Node, *scope, error) {
	rf = proto.Clone(rf).(*pg_query.RangeFunction)
	sel := &pg_query.SelectStmt{Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT}
	for _, item := range rf.Functions {
		f := item.GetList().GetItems()[0].GetFuncCall()
		if f == nil {
			continue
		}
		for _, a := range f.Args {
			walkNodesPruned(a.ProtoReflect(), func(n *pg_query.Node) bool {
				sl := n.GetSubLink()
				if sl == nil {
					return true
				}
				name := fmt.Sprintf("?arg%d?", len(sel.TargetList)+1)
				sel.TargetList = append(sel.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
					Name: name, Val: &pg_query.Node{Node: n.Node}, Location: sl.Location}}})
				n.Node = &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{Fields: []*pg_query.Node{
					{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: argsQual}}},
					{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: name}}},
				}, Location: sl.Location}}
				return false
			})
		}
	}
	sub := &binder{rlsOpen: b.rlsOpen, lock: b.lock, cat: b.cat, stmt: b.stmt, stmtClock: b.stmtClock, forView: b.forView, ctes: b.ctes, params: b.params, outers: b.outers, rows: b.rowCounts()}
	args, err := sub.bindSelect(sel)
	if err != nil {
		return nil, nil, err
	}
	saved := b.fromArgs
	b.fromArgs = newScope(argsQual, args.Columns())
	p, sc, err := b.bindTableFunc(rf)
	b.fromArgs = saved
	if err != nil {
		return nil, nil, err
	}
	tf := p.(*plan.TableFunc)
	tf.Input = args
	w := len(args.Columns())
	exprs := make([]expr.Expr, len(tf.Cols))
	for i, c := range tf.Cols {
		exprs[i] = &expr.Col{Idx: w + i, T: c.Type, Name: c.Name}
	}
	return &plan.Project{Input: tf, Exprs: exprs, Cols: tf.Cols}, sc, nil
}
