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
// The join is added under the expression's query level (scope.pending)
// before the filter or projection that reads it; the scope gains hidden
// columns for the subquery's output so that positions stay aligned.

// applyPending puts the pending joins and windows of s over input.
func applyPending(s *scope, input plan.Node) plan.Node {
	s.base = input
	for _, wrap := range s.pending {
		input = wrap(input)
	}
	s.pending, s.base = nil, nil
	return input
}

func (b *binder) bindScalarSubquery(outer *scope, sl *pg_query.SubLink) (expr.Expr, error) {
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil || sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.GroupClause) > 0 || sel.HavingClause != nil ||
		len(sel.SortClause) > 0 || sel.LimitCount != nil || sel.LimitOffset != nil || len(sel.DistinctClause) > 0 ||
		len(sel.ValuesLists) > 0 || len(sel.TargetList) != 1 {
		return nil, errGeneral
	}
	target := sel.TargetList[0].GetResTarget().Val
	if !hasAggregate(target) {
		return nil, errGeneral
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
	right, rsc, correlated, err := b.bindCorrelated(outer, sel)
	if err != nil {
		return nil, err
	}
	lw := len(outer.cols)
	var outerKeys, innerKeys []expr.Expr
	for _, c := range correlated {
		cmp, ok := c.(*expr.Cmp)
		if !ok || cmp.Op != expr.EQ {
			return nil, errGeneral
		}
		l, r := cmp.L, cmp.R
		lc, rc := expr.Columns(l), expr.Columns(r)
		if len(rc) > 0 && rc[0] < lw { // the outer side on the right
			l, r, lc, rc = r, l, rc, lc
		}
		if len(lc) == 0 || lc[len(lc)-1] >= lw || len(rc) == 0 || rc[0] < lw {
			return nil, errGeneral
		}
		outerKeys = append(outerKeys, l)
		innerKeys = append(innerKeys, plan.Shift(r, -lw))
	}
	// Aggregate the subquery per correlation key.
	as := &aggScope{input: rsc, post: &scope{}, groups: innerKeys}
	b.agg = as
	val, err := b.bindExpr(as.post, target)
	b.agg = nil
	if err != nil {
		return nil, err
	}
	if expr.HasOuter(val) {
		return nil, errGeneral
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
	// A subquery reading the outer query elsewhere (or further out) than
	// its WHERE's equalities needs general decorrelation.
	if plan.HasOuter(sub) {
		return nil, errGeneral
	}
	for _, k := range outerKeys {
		if expr.HasOuter(k) {
			return nil, errGeneral
		}
	}
	base := len(outer.cols)
	if outer.star == nil {
		outer.star = outer.starCols()
	}
	for _, c := range cols {
		outer.cols = append(outer.cols, scopeCol{name: "", typ: c.Type})
	}
	kind, leftKeys, rightKeys := plan.InnerJoin, outerKeys, []expr.Expr(nil)
	var result expr.Expr = &expr.Col{Idx: base + len(innerKeys), T: val.Type(), Name: "?subquery?"}
	if len(innerKeys) > 0 {
		kind = plan.LeftJoin
		for i, k := range innerKeys {
			rightKeys = append(rightKeys, &expr.Col{Idx: i, T: k.Type()})
		}
		if !emptyVal.IsNull() {
			unmatched := &expr.IsNull{E: &expr.Col{Idx: base, T: innerKeys[0].Type()}}
			result = &expr.Case{Whens: []expr.When{{Cond: unmatched, Result: &expr.Const{V: emptyVal, T: val.Type()}}}, Else: result, T: val.Type()}
		}
	}
	// Keys compare with SQL equality: both sides of one type.
	for i := range leftKeys {
		t, err := expr.ResolveCompare(leftKeys[i].Type(), innerKeys[i].Type())
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(sl.Location))
		}
		if leftKeys[i], err = b.coerce(leftKeys[i], t, sl.Location); err != nil {
			return nil, err
		}
		if rightKeys[i], err = b.coerce(rightKeys[i], t, sl.Location); err != nil {
			return nil, err
		}
	}
	outer.pending = append(outer.pending, func(input plan.Node) plan.Node {
		cols := append(append([]plan.Column{}, input.Columns()...), sub.Columns()...)
		return &plan.Join{Kind: kind, Left: input, Right: sub, LeftKeys: leftKeys, RightKeys: rightKeys, Cols: cols}
	})
	return result, nil
}

// bindWindow binds row_number() OVER (PARTITION BY … ORDER BY …) in a
// select list: a Window node under the projection computes it.
func (b *binder) bindWindow(s *scope, f *pg_query.FuncCall) (expr.Expr, error) {
	name := opName(f.Funcname)
	if name != "row_number" || len(f.Args) > 0 || f.AggStar || f.AggDistinct || f.AggFilter != nil {
		return nil, b.refuse(f.Location, "window function %s is not supported yet", name).
			WithHint("row_number() OVER (PARTITION BY … ORDER BY …), filtered by rn <= k in an outer query, is maintained")
	}
	if !s.allowWindow {
		return nil, b.stmt.errf(f.Location, "42P20", "window functions are only allowed in the select list of a query without GROUP BY")
	}
	w := f.Over
	if w.Refname != "" || w.Name != "" {
		return nil, b.refuse(w.Location, "named windows are not supported").WithHint("write the window inline: OVER (PARTITION BY … ORDER BY …)")
	}
	win := &plan.Window{Pos: f.Location}
	for _, p := range w.PartitionClause {
		e, err := b.bindExpr(s, p)
		if err != nil {
			return nil, err
		}
		win.Partition = append(win.Partition, e)
	}
	for _, o := range w.OrderClause {
		sb := o.GetSortBy()
		e, err := b.bindExpr(s, sb.Node)
		if err != nil {
			return nil, err
		}
		desc, nullsFirst := sortDirection(sb)
		win.Order = append(win.Order, plan.SortKey{Expr: e, Desc: desc, NullsFirst: nullsFirst})
	}
	idx := len(s.cols)
	if s.star == nil {
		s.star = s.starCols()
	}
	s.cols = append(s.cols, scopeCol{typ: plan.RowNumberType})
	s.pending = append(s.pending, func(input plan.Node) plan.Node {
		win.Input = input
		win.Cols = append(append([]plan.Column{}, input.Columns()...), plan.Column{Name: "row_number", Type: plan.RowNumberType})
		return win
	})
	return &expr.Col{Idx: idx, T: plan.RowNumberType, Name: "row_number"}, nil
}

// checkWindows refuses, in a view, a row numbering that no filter
// rn <= k bounds: maintaining it would renumber whole partitions.
func (b *binder) checkWindows(p plan.Node) error {
	var err error
	var walk func(plan.Node)
	walk = func(n plan.Node) {
		if w, ok := n.(*plan.Window); ok && !w.Bounded() && err == nil {
			err = b.refuse(w.Pos, "row_number() is maintained only when an outer query keeps rn <= k").
				WithHint("SELECT … FROM (SELECT …, row_number() OVER (PARTITION BY … ORDER BY …) AS rn FROM …) s WHERE rn <= 10")
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(p)
	return err
}
