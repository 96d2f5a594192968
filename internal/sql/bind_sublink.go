package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bindWhere binds a WHERE clause over input. Top-level conjuncts that are
// EXISTS, NOT EXISTS, IN (subquery), NOT IN (subquery), = ANY and <> ALL
// become semi- and anti-joins with the subquery; the rest is a filter.
func (b *binder) bindWhere(sc *scope, input plan.Node, where *pg_query.Node) (plan.Node, error) {
	var preds []expr.Expr
	type sub struct {
		link *pg_query.SubLink
		not  bool
	}
	var subs []sub
	var walk func(n *pg_query.Node) error
	walk = func(n *pg_query.Node) error {
		if sl := n.GetSubLink(); sl != nil {
			// A row IN (subquery) conjunct is an EXISTS, a semi-join.
			if e, ok, err := b.rowInSubLink(sc, sl, false); err != nil {
				return err
			} else if ok {
				n = e
			}
		}
		if be := n.GetBoolExpr(); be != nil && be.Boolop == pg_query.BoolExprType_AND_EXPR {
			for _, a := range be.Args {
				if err := walk(a); err != nil {
					return err
				}
			}
			return nil
		}
		if sl := n.GetSubLink(); sl != nil && isCondition(sl) {
			subs = append(subs, sub{link: sl})
			return nil
		}
		if be := n.GetBoolExpr(); be != nil && be.Boolop == pg_query.BoolExprType_NOT_EXPR && isCondition(be.Args[0].GetSubLink()) && !isRowSubLink(be.Args[0].GetSubLink()) {
			subs = append(subs, sub{link: be.Args[0].GetSubLink(), not: true})
			return nil
		}
		b.clockOK = b.forView && len(b.outers) == 0
		e, err := b.bindExpr(sc, n)
		b.clockOK = false
		if err != nil {
			return err
		}
		if e, err = b.toBool(e, "WHERE", nodeLoc(n, -1)); err != nil {
			return err
		}
		if b.forView && expr.ReadsClock(e) {
			if _, why := expr.AsTemporal(e); why != "" {
				name, loc := clockCall(n)
				if loc < 0 {
					loc = nodeLoc(n, -1)
				}
				return b.refuse(loc, "%s cannot be maintained in this condition: %s", name, why).WithHint(clockHint)
			}
		}
		preds = append(preds, e)
		return nil
	}
	if err := walk(where); err != nil {
		return nil, err
	}
	input = applyPending(sc, input)
	if len(preds) > 0 {
		input = plan.WindowTopK.Apply(plan.PushFilter.Apply(&plan.Filter{Input: input, Pred: plan.AndOf(preds)}))
	}
	for _, s := range subs {
		var err error
		if input, err = b.bindSemiJoin(sc, input, s.link, s.not); err != nil {
			return nil, err
		}
	}
	return input, nil
}

// isRowSubLink reports whether sl compares a row constructor with a
// subquery's rows.
func isRowSubLink(sl *pg_query.SubLink) bool {
	_, ok := rowArgs(sl.Testexpr)
	return ok
}

// isCondition reports whether sl is EXISTS, op ANY or op ALL: a condition
// that a semi- or anti-join can decide.
func isCondition(sl *pg_query.SubLink) bool {
	if sl == nil {
		return false
	}
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK, pg_query.SubLinkType_ANY_SUBLINK, pg_query.SubLinkType_ALL_SUBLINK:
		return true
	}
	return false
}

// bindSemiJoin decorrelates one subquery conjunct into a join of input
// with the subquery: conditions of the subquery's WHERE that read the outer
// row become the join's condition.
func (b *binder) bindSemiJoin(outer *scope, input plan.Node, sl *pg_query.SubLink, not bool) (plan.Node, error) {
	if b.forView && !joinsMaintained {
		return nil, b.refuse(sl.Location, "subqueries in WHERE are not maintained in a view yet")
	}
	saved := b.outers
	b.outers, b.fast = append([]*scope{outer}, saved...), true
	out, err := b.semiJoinFast(outer, input, sl, not)
	b.outers, b.fast = saved, false
	if err != errGeneral {
		return out, err
	}
	return b.semiJoinGeneral(outer, input, sl, not)
}

// semiJoinFast joins a subquery whose only correlation is in its WHERE;
// errGeneral for any other.
func (b *binder) semiJoinFast(outer *scope, input plan.Node, sl *pg_query.SubLink, not bool) (plan.Node, error) {
	var kind plan.JoinKind
	switch {
	case sl.SubLinkType == pg_query.SubLinkType_EXISTS_SUBLINK:
		kind = plan.SemiJoin
		if not {
			kind = plan.AntiJoin
		}
	case sl.SubLinkType == pg_query.SubLinkType_ANY_SUBLINK && (opName(sl.OperName) == "=" || len(sl.OperName) == 0): // IN has no operator name
		kind = plan.SemiJoin
		if not {
			kind = plan.AntiNullJoin
		}
	case sl.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK && (opName(sl.OperName) == "<>" || opName(sl.OperName) == "!=") && !not:
		kind = plan.AntiNullJoin
	default:
		return nil, errGeneral
	}
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil || sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.GroupClause) > 0 || sel.HavingClause != nil ||
		len(sel.SortClause) > 0 || sel.LimitCount != nil || sel.LimitOffset != nil || len(sel.DistinctClause) > 0 || len(sel.ValuesLists) > 0 {
		return nil, errGeneral
	}
	if sel.WithClause != nil {
		if err := b.pushWith(sel.WithClause); err != nil {
			return nil, err
		}
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	}
	right, rsc, residual, err := b.bindCorrelated(outer, sel)
	if err != nil {
		return nil, err
	}
	j := &plan.Join{Kind: kind, Left: input, Right: right, Cols: input.Columns(), Residual: plan.AndOf(residual)}
	if sl.SubLinkType != pg_query.SubLinkType_EXISTS_SUBLINK {
		if cr := sel.TargetList[0].GetResTarget().Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			return nil, errGeneral // x IN (SELECT * …): its columns are counted once bound
		}
		// The left side is bound before the columns are counted, as
		// PostgreSQL does: a subquery of several columns there is its
		// error.
		l, err := b.bindExpr(outer, sl.Testexpr)
		if err != nil {
			return nil, err
		}
		if len(sel.TargetList) != 1 {
			return nil, b.stmt.errf(sl.Location, pgerr.SyntaxError, "subquery has too many columns")
		}
		r, err := b.bindExpr(rsc, sel.TargetList[0].GetResTarget().Val)
		if err != nil {
			return nil, err
		}
		t, err := expr.ResolveCompare(l.Type(), r.Type())
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(sl.Location))
		}
		if err := subqueryRecordCheck(l, r, sl, !not); err != nil {
			return nil, err
		}
		if t.Kind == value.Unknown {
			t = value.TextType
		}
		if l, err = b.coerce(l, t, sl.Location); err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, t, sl.Location); err != nil {
			return nil, err
		}
		j.LeftKeys, j.RightKeys = []expr.Expr{l}, []expr.Expr{r}
	}
	out := plan.ExtractJoinKeys.Apply(j).(*plan.Join)
	if out.Kind == plan.AntiNullJoin && out.Residual != nil || plan.HasOuter(out) {
		return nil, errGeneral
	}
	return out, nil
}

// semiJoinGeneral joins input to a decorrelated subquery: EXISTS and IN
// keep the rows with a match, NOT EXISTS those without; NOT IN and <> ALL,
// whose NULLs make three values, filter on the value inSub computes.
func (b *binder) semiJoinGeneral(outer *scope, input plan.Node, sl *pg_query.SubLink, not bool) (plan.Node, error) {
	q, err := b.bindSubquery(outer, sl)
	if err != nil {
		return nil, err
	}
	lv := level{sc: outer}
	if sl.SubLinkType == pg_query.SubLinkType_EXISTS_SUBLINK {
		kind := plan.SemiJoin
		if not {
			kind = plan.AntiJoin
		}
		join, err := b.joinSub(lv, q.plan, kind, nil, nil, sl.Location)
		if err != nil {
			return nil, err
		}
		return join(input), nil
	}
	if _, ok := cmpOps[opName(sl.OperName)]; !ok && len(sl.OperName) > 0 {
		return nil, b.refuse(sl.Location, "this subquery is not supported").
			WithHint("EXISTS, IN, NOT IN and op ANY / op ALL (subquery) with a comparison operator are supported")
	}
	if _, quant := quantOp(sl); sl.SubLinkType == pg_query.SubLinkType_ANY_SUBLINK && !not && !quant {
		// A WHERE drops the rows whose IN is NULL as those whose IN is
		// false: IN is a semi-join on the domain and x = y, without the
		// counts that make its third value (a global count would join
		// every outer row and change them all when it changes).
		return b.inSemiJoin(lv, outer, input, q, sl)
	}
	width := len(outer.cols)
	var in expr.Expr
	if op, ok := quantOp(sl); ok {
		if in, err = b.quantSub(lv, outer, q, sl, op); err != nil {
			return nil, err
		}
		if not {
			in = &expr.Not{E: in}
		}
	} else {
		if in, err = b.inSub(lv, outer, q, sl); err != nil {
			return nil, err
		}
		if sl.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK != not {
			in = &expr.Not{E: in}
		}
	}
	p := &plan.Filter{Input: applyPending(outer, input), Pred: in}
	// Drop the joined columns again: the level's row is input's.
	outer.cols, outer.subCache = outer.cols[:width], nil
	cols := input.Columns()
	exprs := make([]expr.Expr, len(cols))
	for i, c := range cols {
		exprs[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: cols}, nil
}

// bindCorrelated binds a subquery's FROM and WHERE, WHERE in the scope of
// the outer query's columns followed by the subquery's. The conjuncts that
// read no outer column (none at all, like 1 = 2) filter the subquery's
// rows, right; the others, which correlate it, are returned over outer ++
// subquery columns.
func (b *binder) bindCorrelated(outer *scope, sel *pg_query.SelectStmt) (right plan.Node, rsc *scope, correlated []expr.Expr, err error) {
	right, rsc, err = b.bindFrom(sel.FromClause)
	if err != nil || sel.WhereClause == nil {
		return right, rsc, nil, err
	}
	lw := len(outer.cols)
	both := joinScope(outer, rsc)
	for i := 0; i < lw; i++ {
		both.cols[i].outer = true
	}
	pred, err := b.bindExpr(both, sel.WhereClause)
	if err != nil {
		return nil, nil, nil, err
	}
	if pred, err = b.toBool(pred, "WHERE", nodeLoc(sel.WhereClause, -1)); err != nil {
		return nil, nil, nil, err
	}
	var inner []expr.Expr
	for _, c := range plan.Conjuncts(pred) {
		if cols := expr.Columns(c); len(cols) == 0 || cols[0] >= lw {
			inner = append(inner, plan.Shift(c, -lw))
		} else {
			// Name the outer columns with their relation (t.b < b), for
			// EXPLAIN and messages.
			c = expr.Rewrite(c, func(x expr.Expr) expr.Expr {
				if col, ok := x.(*expr.Col); ok && col.Idx < lw && outer.cols[col.Idx].qual != "" {
					return &expr.Col{Idx: col.Idx, T: col.T, Name: outer.cols[col.Idx].qual + "." + outer.cols[col.Idx].name}
				}
				return x
			})
			correlated = append(correlated, c)
		}
	}
	if len(inner) > 0 {
		right = b.orderJoins(plan.PushFilter.Apply(&plan.Filter{Input: right, Pred: plan.AndOf(inner)}))
	}
	return right, rsc, correlated, nil
}

// clockCall finds the first call of a clock function in a condition's
// syntax tree: its name as written and its position (-1 when none is
// found among the expressions searched).
func clockCall(n *pg_query.Node) (string, int32) {
	switch {
	case n == nil:
	case n.GetSqlvalueFunction() != nil:
		f := n.GetSqlvalueFunction()
		switch f.Op {
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
			return "current_date", f.Location
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP:
			return "current_timestamp", f.Location
		}
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall()
		if name := opName(f.Funcname); expr.IsClockFunc(name) {
			return name + "()", f.Location
		}
		for _, a := range f.Args {
			if name, loc := clockCall(a); loc >= 0 {
				return name, loc
			}
		}
	case n.GetAExpr() != nil:
		if name, loc := clockCall(n.GetAExpr().Lexpr); loc >= 0 {
			return name, loc
		}
		return clockCall(n.GetAExpr().Rexpr)
	case n.GetBoolExpr() != nil:
		for _, a := range n.GetBoolExpr().Args {
			if name, loc := clockCall(a); loc >= 0 {
				return name, loc
			}
		}
	case n.GetTypeCast() != nil:
		return clockCall(n.GetTypeCast().Arg)
	case n.GetNullTest() != nil:
		return clockCall(n.GetNullTest().Arg)
	case n.GetCaseExpr() != nil:
		c := n.GetCaseExpr()
		for _, w := range c.Args {
			if cw := w.GetCaseWhen(); cw != nil {
				if name, loc := clockCall(cw.Expr); loc >= 0 {
					return name, loc
				}
				if name, loc := clockCall(cw.Result); loc >= 0 {
					return name, loc
				}
			}
		}
		return clockCall(c.Defresult)
	}
	return "now()", -1
}

// inSemiJoin keeps the rows of input for which x IN (q) is true: those
// with a row of q, for their domain value, equal to x.
func (b *binder) inSemiJoin(lv level, outer *scope, input plan.Node, q *subquery, sl *pg_query.SubLink) (plan.Node, error) {
	x, y, t, err := b.inOperands(outer, q, sl)
	if err != nil {
		return nil, err
	}
	right := &plan.Project{Input: q.plan, Exprs: []expr.Expr{y}, Cols: []plan.Column{{Name: "?in?", Type: t}}}
	join, err := b.joinSub(lv, right, plan.SemiJoin, []expr.Expr{expr.EqualityKey(x)},
		[]expr.Expr{expr.EqualityKey(&expr.Col{Idx: 0, T: t})}, sl.Location)
	if err != nil {
		return nil, err
	}
	return join(input), nil
}
