package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A subquery in JOIN … ON may read both sides, so it is decorrelated over
// the pairs the rest of the condition matches: the conjuncts that hold a
// subquery filter the inner join's result as a WHERE would (semi-joins,
// joined subqueries, see bindWhere). That is the whole answer for an inner
// join. An outer join keeps, besides, the rows of its preserved side that
// no pair kept: M, the kept pairs, is an inner join, and
//
//	L LEFT JOIN R ON c = M ∪ (L ▷ distinct πL(M)) padded with NULLs
//
// where ▷ is an anti-join on every column of L (NULL matching NULL). Equal
// rows of L have the same matches, so the anti-join keeps each unmatched
// row as often as L has it. RIGHT and FULL joins keep R's (and both).

// splitSubConjuncts splits an ON condition into its AND-ed conjuncts
// without a subquery (nil when none) and those with one.
func splitSubConjuncts(n *pg_query.Node) (plain *pg_query.Node, withSub []*pg_query.Node) {
	var flat []*pg_query.Node
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if be := n.GetBoolExpr(); be != nil && be.Boolop == pg_query.BoolExprType_AND_EXPR {
			for _, a := range be.Args {
				walk(a)
			}
			return
		}
		if hasSubLink(n) {
			withSub = append(withSub, n)
		} else {
			flat = append(flat, n)
		}
	}
	walk(n)
	return andNode(flat), withSub
}

// andNode is the conjunction of ns, nil when empty.
func andNode(ns []*pg_query.Node) *pg_query.Node {
	switch len(ns) {
	case 0:
		return nil
	case 1:
		return ns[0]
	}
	return &pg_query.Node{Node: &pg_query.Node_BoolExpr{BoolExpr: &pg_query.BoolExpr{Boolop: pg_query.BoolExprType_AND_EXPR, Args: ns, Location: -1}}}
}

// joinOnSubqueries filters join (whose Kind is the join's as written, its
// condition the conjuncts without a subquery) by conds, the conjuncts with
// one, in the join's scope sc; lw is the left side's width.
func (b *binder) joinOnSubqueries(join *plan.Join, sc *scope, lw int, conds []*pg_query.Node) (plan.Node, error) {
	inner := *join
	inner.Kind = plan.InnerJoin
	return b.filterOnSubqueries(&inner, join.Left, join.Right, join.Kind, join.Cols, sc, lw, conds)
}

// filterOnSubqueries filters inner, the pairs of left and right that the
// conjuncts without a subquery match, by conds, and adds the unmatched
// rows of the side(s) an outer join of kind keeps. A LATERAL item's join
// passes its right side as nil: it is LEFT at most.
func (b *binder) filterOnSubqueries(inner, left, right plan.Node, kind plan.JoinKind, cols []plan.Column, sc *scope, lw int, conds []*pg_query.Node) (plan.Node, error) {
	width := len(sc.cols)
	sc.allowScalar = true
	filtered, err := b.bindWhere(sc, inner, andNode(conds))
	sc.allowScalar = false
	if err != nil {
		return nil, err
	}
	// The subqueries' columns leave with the filter.
	sc.cols, sc.subCache = sc.cols[:width], nil
	matched := &plan.Project{Input: filtered, Exprs: colRefs(cols, 0, width), Cols: cols}
	if kind == plan.InnerJoin {
		return matched, nil
	}
	out := &plan.UnionAll{Inputs: []plan.Node{matched}, Cols: cols}
	if kind == plan.LeftJoin || kind == plan.FullJoin {
		out.Inputs = append(out.Inputs, unmatched(left, matched, 0, lw, cols))
	}
	if kind == plan.RightJoin || kind == plan.FullJoin {
		out.Inputs = append(out.Inputs, unmatched(right, matched, lw, width, cols))
	}
	return out, nil
}

// unmatched is the rows of side, whose columns are [from, to) of the
// join's, that no row of matched holds, padded with NULLs to the join's
// columns.
func unmatched(side, matched plan.Node, from, to int, cols []plan.Column) plan.Node {
	sideCols := cols[from:to]
	kept := &plan.Distinct{Input: &plan.Project{Input: matched, Exprs: colRefs(cols, from, to), Cols: sideCols}}
	var lk, rk []expr.Expr
	for i, c := range sideCols {
		ref := &expr.Col{Idx: i, T: c.Type, Name: c.Name}
		l, r := plan.NullSafeKeys(ref, ref)
		lk, rk = append(lk, l...), append(rk, r...)
	}
	anti := &plan.Join{Kind: plan.AntiJoin, Left: side, Right: kept, LeftKeys: lk, RightKeys: rk, Cols: side.Columns()}
	exprs := make([]expr.Expr, len(cols))
	for i, c := range cols {
		if i >= from && i < to {
			exprs[i] = &expr.Col{Idx: i - from, T: c.Type, Name: c.Name}
		} else {
			exprs[i] = &expr.Const{V: value.Null, T: c.Type}
		}
	}
	return &plan.Project{Input: anti, Exprs: exprs, Cols: cols}
}

// colRefs references the columns [from, to) of cols.
func colRefs(cols []plan.Column, from, to int) []expr.Expr {
	out := make([]expr.Expr, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, &expr.Col{Idx: i, T: cols[i].Type, Name: cols[i].Name})
	}
	return out
}
