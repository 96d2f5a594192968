package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A scalar subquery that aggregates, (SELECT agg(…) FROM r WHERE r.k = t.k
// AND …), is decorrelated into a grouping of r on its correlation keys,
// joined to the outer rows: a left join on the keys when correlated (a row
// without match sees the aggregate of no rows: 0 for count, NULL
// otherwise), a join with the single row of a global aggregate when not.
// The join is added under the expression's query level (scope.scalar)
// before the filter or projection that reads it; the scope gains hidden
// columns for the subquery's output so that positions stay aligned.

// scalarJoin is a pending decorrelated subquery.
type scalarJoin struct {
	kind      plan.JoinKind
	right     plan.Node
	leftKeys  []expr.Expr // over the outer row
	rightKeys []expr.Expr
}

// applyScalar joins the pending scalar subqueries of s to input.
func applyScalar(s *scope, input plan.Node) plan.Node {
	for _, j := range s.scalar {
		cols := append(append([]plan.Column{}, input.Columns()...), j.right.Columns()...)
		input = &plan.Join{Kind: j.kind, Left: input, Right: j.right, LeftKeys: j.leftKeys, RightKeys: j.rightKeys, Cols: cols}
	}
	s.scalar = nil
	return input
}

func (b *binder) bindScalarSubquery(outer *scope, sl *pg_query.SubLink) (expr.Expr, error) {
	if !outer.allowScalar {
		return nil, b.refuse(sl.Location, "a scalar subquery is supported only in the select list and WHERE of a query without GROUP BY")
	}
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil || sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.GroupClause) > 0 || sel.HavingClause != nil ||
		len(sel.SortClause) > 0 || sel.LimitCount != nil || sel.LimitOffset != nil || len(sel.DistinctClause) > 0 ||
		len(sel.ValuesLists) > 0 || len(sel.TargetList) != 1 {
		return nil, b.refuse(sl.Location, "a scalar subquery must be a single aggregate over SELECT … FROM … WHERE …").
			WithHint("write (SELECT agg(x) FROM r WHERE r.k = t.k …)")
	}
	target := sel.TargetList[0].GetResTarget().Val
	if !hasAggregate(target) {
		return nil, b.refuse(sl.Location, "a scalar subquery without an aggregate may return several rows and is not supported").
			WithHint("aggregate it, e.g. (SELECT max(x) FROM …), or join the relation in FROM")
	}
	if sel.WithClause != nil {
		if err := b.pushWith(sel.WithClause); err != nil {
			return nil, err
		}
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	}
	saved := b.agg
	b.agg = nil
	defer func() { b.agg = saved }()
	right, rsc, err := b.bindFrom(sel.FromClause)
	if err != nil {
		return nil, err
	}
	lw := len(outer.cols)
	both := joinScope(outer, rsc)
	for i := 0; i < lw; i++ {
		both.cols[i].outer = true
	}
	var outerKeys, innerKeys []expr.Expr
	if sel.WhereClause != nil {
		pred, err := b.bindExpr(both, sel.WhereClause)
		if err != nil {
			return nil, err
		}
		if pred, err = b.toBool(pred, "WHERE", nodeLoc(sel.WhereClause, -1)); err != nil {
			return nil, err
		}
		var inner []expr.Expr
		for _, c := range plan.Conjuncts(pred) {
			cols := expr.Columns(c)
			switch {
			case len(cols) == 0 || cols[0] >= lw:
				inner = append(inner, plan.Shift(c, -lw))
			default:
				cmp, ok := c.(*expr.Cmp)
				if !ok || cmp.Op != expr.EQ {
					return nil, b.refuse(sl.Location, "a scalar subquery may be correlated only by equalities between its columns and the outer query's")
				}
				l, r := cmp.L, cmp.R
				lc, rc := expr.Columns(l), expr.Columns(r)
				if len(rc) > 0 && rc[0] < lw { // the outer side on the right
					l, r, lc, rc = r, l, rc, lc
				}
				if len(lc) == 0 || lc[len(lc)-1] >= lw || len(rc) == 0 || rc[0] < lw {
					return nil, b.refuse(sl.Location, "a scalar subquery may be correlated only by equalities between its columns and the outer query's")
				}
				outerKeys = append(outerKeys, l)
				innerKeys = append(innerKeys, plan.Shift(r, -lw))
			}
		}
		if len(inner) > 0 {
			right = plan.PushFilter.Apply(&plan.Filter{Input: right, Pred: plan.AndOf(inner)})
		}
	}
	// Aggregate the subquery per correlation key.
	as := &aggScope{input: rsc, post: &scope{}, groups: innerKeys}
	b.agg = as
	val, err := b.bindExpr(as.post, target)
	b.agg = nil
	if err != nil {
		return nil, err
	}
	if val.Type().Kind == value.Unknown {
		if val, err = b.coerce(val, value.TextType, sl.Location); err != nil {
			return nil, err
		}
	}
	agg := &plan.Aggregate{Input: right, GroupBy: innerKeys, Aggs: as.aggs}
	for _, k := range innerKeys {
		agg.Cols = append(agg.Cols, plan.Column{Name: colName(k), Type: k.Type()})
	}
	empty := make(value.Row, len(innerKeys)+len(as.aggs))
	for i, a := range as.aggs {
		agg.Cols = append(agg.Cols, plan.Column{Name: a.Name, Type: a.Type})
		if a.Name == "count" {
			empty[len(innerKeys)+i] = value.NewInt(value.Int8, 0)
		}
	}
	// The subquery's output: its keys, then its value.
	exprs := make([]expr.Expr, 0, len(innerKeys)+1)
	cols := make([]plan.Column, 0, len(innerKeys)+1)
	for i, k := range innerKeys {
		exprs = append(exprs, &expr.Col{Idx: i, T: k.Type()})
		cols = append(cols, plan.Column{Name: "?key?", Type: k.Type()})
	}
	exprs = append(exprs, val)
	cols = append(cols, plan.Column{Name: "?subquery?", Type: val.Type()})
	sub := &plan.Project{Input: agg, Exprs: exprs, Cols: cols}
	// A left row without a match sees the value over no rows.
	emptyVal, err := val.Eval(empty)
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(sl.Location))
	}
	base := len(outer.cols)
	if outer.star == nil {
		outer.star = outer.starCols()
	}
	for _, c := range cols {
		outer.cols = append(outer.cols, scopeCol{name: "", typ: c.Type})
	}
	j := scalarJoin{kind: plan.InnerJoin, right: sub, leftKeys: outerKeys}
	var result expr.Expr = &expr.Col{Idx: base + len(innerKeys), T: val.Type(), Name: "?subquery?"}
	if len(innerKeys) > 0 {
		j.kind = plan.LeftJoin
		for i, k := range innerKeys {
			j.rightKeys = append(j.rightKeys, &expr.Col{Idx: i, T: k.Type()})
		}
		if !emptyVal.IsNull() {
			unmatched := &expr.IsNull{E: &expr.Col{Idx: base, T: innerKeys[0].Type()}}
			result = &expr.Case{Whens: []expr.When{{Cond: unmatched, Result: &expr.Const{V: emptyVal, T: val.Type()}}}, Else: result, T: val.Type()}
		}
	}
	// Keys compare with SQL equality: both sides of one type.
	for i := range j.leftKeys {
		t, err := expr.ResolveCompare(j.leftKeys[i].Type(), innerKeys[i].Type())
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(sl.Location))
		}
		if j.leftKeys[i], err = b.coerce(j.leftKeys[i], t, sl.Location); err != nil {
			return nil, err
		}
		if j.rightKeys[i], err = b.coerce(j.rightKeys[i], t, sl.Location); err != nil {
			return nil, err
		}
	}
	outer.scalar = append(outer.scalar, j)
	return result, nil
}
