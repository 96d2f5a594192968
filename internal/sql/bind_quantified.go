package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// x op ANY (Q) and x op ALL (Q) for the comparisons other than = ANY and
// <> ALL (which are IN and NOT IN, inSub) read four aggregates of Q per
// domain value: count(*), count(y), min(y) and max(y). One row of Q
// decides each form, the least or the greatest for an order (x < ANY (Q)
// holds for some row exactly when x < max(y)), either of them for = and
// <> (all non-NULL rows equal x exactly when min(y) = x = max(y)). The
// counts give SQL's three values: no row makes ANY false and ALL true;
// otherwise, when no row decides, a NULL x or a NULL y makes the result
// NULL. The aggregates keep a few values per domain value, so a change
// costs what a grouping costs, never a join on an inequality.

// quantOp returns the comparison of a quantified subquery whose result
// quantSub computes, or false for = ANY, <> ALL (IN, NOT IN) and
// operators that are not comparisons.
func quantOp(sl *pg_query.SubLink) (expr.CmpOp, bool) {
	op, ok := cmpOps[opName(sl.OperName)]
	if !ok {
		return 0, false
	}
	switch sl.SubLinkType {
	case pg_query.SubLinkType_ANY_SUBLINK:
		return op, op != expr.EQ && len(sl.OperName) > 0
	case pg_query.SubLinkType_ALL_SUBLINK:
		return op, op != expr.NE
	}
	return 0, false
}

// quantSub is x op ANY (Q) or x op ALL (Q) at level lv, x bound in s.
func (b *binder) quantSub(lv level, s *scope, q *subquery, sl *pg_query.SubLink, op expr.CmpOp) (expr.Expr, error) {
	x, y, t, err := b.inOperands(s, q, sl)
	if err != nil {
		return nil, err
	}
	i8 := value.Int8Type
	counts := &plan.Aggregate{Input: q.plan, Aggs: []plan.AggCall{
		{Name: "count", Func: plan.AggCountStar, Star: true, Type: i8},
		{Name: "count", Func: plan.AggCount, Arg: y, Type: i8},
		{Name: "min", Func: plan.AggMin, Arg: y, Type: t},
		{Name: "max", Func: plan.AggMax, Arg: y, Type: t},
	}, Cols: []plan.Column{{Name: "count", Type: i8}, {Name: "count", Type: i8}, {Name: "min", Type: t}, {Name: "max", Type: t}}}
	join, err := b.joinSub(lv, counts, plan.LeftJoin, nil, nil, sl.Location)
	if err != nil {
		return nil, err
	}
	cc := joinedCols(counts)
	col := b.addJoin(lv, join, cc)
	n := len(cc) - 4
	rows, nonNull, lo, hi := col(n), col(n+1), col(n+2), col(n+3)
	cmp := func(r expr.Expr) expr.Expr { return &expr.Cmp{Op: op, L: x, R: r} }
	all := sl.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK
	// decide is the comparison with the row that decides: true for ANY
	// when it holds, false for ALL when it fails.
	var decide expr.Expr
	switch op {
	case expr.LT, expr.LE:
		decide = cmp(hi)
		if all {
			decide = cmp(lo)
		}
	case expr.GT, expr.GE:
		decide = cmp(lo)
		if all {
			decide = cmp(hi)
		}
	case expr.NE: // <> ANY: some row differs from x
		decide = &expr.Or{Args: []expr.Expr{cmp(lo), cmp(hi)}}
	case expr.EQ: // = ALL: fails when some row differs from x
		decide = &expr.And{Args: []expr.Expr{cmp(lo), cmp(hi)}}
	}
	boolConst := func(v bool) expr.Expr { return &expr.Const{V: value.NewBool(v), T: value.BoolType} }
	zero := &expr.Const{V: value.NewInt(value.Int8, 0), T: i8}
	empty := &expr.Or{Args: []expr.Expr{&expr.IsNull{E: rows}, &expr.Cmp{Op: expr.EQ, L: rows, R: zero}}}
	someNull := &expr.Or{Args: []expr.Expr{&expr.IsNull{E: x}, &expr.Cmp{Op: expr.GT, L: rows, R: nonNull}}}
	want := int8(1)
	if all {
		want = 0
	}
	return &expr.Case{Whens: []expr.When{
		{Cond: empty, Result: boolConst(all)},
		{Cond: &expr.IsBool{E: decide, Want: want}, Result: boolConst(!all)},
		{Cond: someNull, Result: &expr.Const{V: value.Null, T: value.BoolType}},
	}, Else: boolConst(all), T: value.BoolType}, nil
}
