package sql

import (
	"errors"
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// General decorrelation. The fast paths (bindSemiJoin, bindScalarSubquery)
// turn the common shapes, a subquery correlated by conditions of its WHERE
// and, for a scalar one, by equalities under one aggregate, straight into
// a join. Every other subquery is bound whole, with the enclosing query's
// columns as expr.Outer references, and plan.Decorrelate evaluates it over
// the domain of the values it reads (see internal/plan/decorrelate.go);
// the result is joined back to the query level it appears in, before the
// filter or projection that reads it.

// errGeneral is returned by a fast path for a subquery it does not handle.
var errGeneral = errors.New("sql: subquery needs general decorrelation")

// subquery is a bound subquery whose enclosing query's columns are outer
// references.
type subquery struct {
	plan plan.Node
	loc  int32
	// origin is its first column's (a scalar subquery's domain).
	origin Origin
}

// bindSubquery binds sel as a subquery of the query level whose columns
// outer holds.
func (b *binder) bindSubquery(outer *scope, sl *pg_query.SubLink) (*subquery, error) {
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil {
		return nil, b.refuse(sl.Location, "this subquery is not supported")
	}
	sub := &binder{rlsOpen: b.rlsOpen, lock: b.lock, cat: b.cat, stmt: b.stmt, stmtClock: b.stmtClock, forView: b.forView, ctes: b.ctes, params: b.params, rows: b.rowCounts(),
		outers: append([]*scope{outer}, b.outers...)}
	p, err := sub.bindSelect(sel)
	if err != nil {
		return nil, err
	}
	if cols := p.Columns(); sl.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK && len(cols) > 0 && subqueryColumnName(sl.Subselect) == "" {
		if b.stmt.starNames == nil {
			b.stmt.starNames = starNames{}
		}
		b.stmt.starNames[subLinkKey(sl)] = cols[0].Name
	}
	q := &subquery{plan: p, loc: sl.Location}
	if len(sub.originOut) > 0 {
		q.origin = sub.originOut[0]
	}
	return q, nil
}

// level is where a subquery's result joins the query: a query's input
// (before its WHERE or select list) or its grouped rows (before HAVING and
// the select list of a grouped query).
type level struct {
	sc *scope
	// group maps a column of the query's input to the grouped row's
	// column; nil at an ungrouped level.
	group *aggScope
}

// domainOf returns the expressions, over the level's rows, that a
// subquery's outer references read: the level's own columns, or outer
// references one level further out.
func (b *binder) domainOf(lv level, free []*expr.Outer, loc int32) ([]expr.Expr, error) {
	out := make([]expr.Expr, len(free))
	for i, o := range free {
		if o.Depth > 1 {
			out[i] = &expr.Outer{Depth: o.Depth - 1, Idx: o.Idx, T: o.T, Name: o.Name}
			continue
		}
		var e expr.Expr = &expr.Col{Idx: o.Idx, T: o.T, Name: o.Name}
		if lv.group != nil && o.Idx >= len(lv.sc.cols) {
			// An aggregate of the level (see outerAggregate).
			out[i] = &expr.Col{Idx: o.Idx - len(lv.sc.cols), T: o.T, Name: o.Name}
			continue
		}
		if lv.group != nil {
			found := false
			for j, g := range lv.group.groups {
				if exprKey(g) == exprKey(e) {
					e, found = &expr.Col{Idx: j, T: o.T, Name: o.Name}, true
					break
				}
			}
			if !found {
				return nil, b.stmt.errf(loc, pgerr.GroupingError, "subquery uses ungrouped column %q from outer query", o.Name)
			}
		}
		out[i] = e
	}
	return out, nil
}

// joinSub returns a function that joins a level's rows to p, a subquery
// plan with outer references, evaluated per distinct value of what it
// reads: the rows gain the domain's columns and p's (NULL when no row of p
// matches: kind is LeftJoin, or SemiJoin/AntiJoin to keep the rows only).
// leftKeys and rightKeys (over the level's row and p's) are extra join
// keys. Errors surface now, not when the join is built.
func (b *binder) joinSub(lv level, p plan.Node, kind plan.JoinKind, leftKeys, rightKeys []expr.Expr, loc int32) (func(plan.Node) plan.Node, error) {
	free := plan.Free(p)
	dom, err := b.domainOf(lv, free, loc)
	if err != nil {
		return nil, err
	}
	w := len(free)
	domCols := make([]plan.Column, w)
	for i, o := range free {
		domCols[i] = plan.Column{Name: o.Name, Type: o.T}
	}
	build := func(input plan.Node) (plan.Node, error) {
		right := p
		var lk, rk []expr.Expr
		if w > 0 {
			// The domain comes from the level's own rows, not from rows
			// that earlier subqueries' joins widened.
			rows := input
			if lv.group == nil && lv.sc.base != nil {
				rows = lv.sc.base
			} else if lv.group != nil && lv.group.base != nil {
				rows = lv.group.base
			}
			d := &plan.Distinct{Input: &plan.Project{Input: rows, Exprs: dom, Cols: domCols}}
			var err error
			if right, err = plan.Decorrelate(p, d, free); err != nil {
				return nil, err
			}
			for i, e := range dom {
				l, r := plan.NullSafeKeys(e, &expr.Col{Idx: i, T: domCols[i].Type, Name: domCols[i].Name})
				lk, rk = append(lk, l...), append(rk, r...)
			}
		}
		lk = append(lk, leftKeys...)
		for _, k := range rightKeys {
			rk = append(rk, plan.Shift(k, w))
		}
		cols := input.Columns()
		if kind.Outputs() {
			cols = append(append([]plan.Column{}, cols...), right.Columns()...)
		}
		return &plan.Join{Kind: kind, Left: input, Right: right, LeftKeys: lk, RightKeys: rk, Cols: cols}, nil
	}
	// Check now with a stand-in for the level's rows.
	if _, err := build(&plan.Values{Cols: nil}); err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	return func(input plan.Node) plan.Node {
		n, _ := build(input)
		return n
	}, nil
}

// subLinkLevel returns the level a subquery in an expression bound over s
// joins, or false when s is not one.
func (b *binder) subLinkLevel(s *scope) (level, bool) {
	if b.agg != nil && s == b.agg.post {
		return level{sc: b.agg.input, group: b.agg}, !b.agg.closed
	}
	if s.allowScalar {
		return level{sc: s}, true
	}
	return level{}, false
}

// addJoin adds the hidden columns for a join at lv and returns a reference
// maker for them: col(i) is the i-th.
func (b *binder) addJoin(lv level, join func(plan.Node) plan.Node, cols []plan.Column) func(i int) *expr.Col {
	if lv.group == nil {
		s := lv.sc
		base := len(s.cols)
		if s.star == nil {
			s.star = s.starCols()
		}
		for _, c := range cols {
			s.cols = append(s.cols, scopeCol{typ: c.Type})
		}
		s.pending = append(s.pending, join)
		return func(i int) *expr.Col { return &expr.Col{Idx: base + i, T: cols[i].Type} }
	}
	// Above a grouping the positions are known only once every aggregate
	// is: finish numbers these columns.
	as := lv.group
	off := as.subWidth
	as.subWidth += len(cols)
	as.subs = append(as.subs, join)
	return func(i int) *expr.Col {
		c := &expr.Col{Idx: -1, T: cols[i].Type}
		as.holes = append(as.holes, hole{col: c, off: off + i})
		return c
	}
}

// hole is a column of a subquery joined above a grouping, numbered when
// the grouped row's width is known.
type hole struct {
	col *expr.Col
	off int
}

// bindSubLink binds a subquery in an expression: a scalar subquery,
// EXISTS, IN / = ANY, NOT IN / <> ALL anywhere a scalar subquery may be.
// The same subquery written twice at one level (in the select list and in
// ORDER BY) is joined once and reads the same columns, so that the two
// expressions are the same, as PostgreSQL finds them.
func (b *binder) bindSubLink(s *scope, sl *pg_query.SubLink) (expr.Expr, error) {
	if b.fast {
		return nil, errGeneral
	}
	key := subLinkKey(sl)
	if e, ok := s.subCache[key]; ok && key != "" {
		return e, nil
	}
	e, err := b.bindSubLinkOnce(s, sl)
	if err == nil && key != "" {
		if s.subCache == nil {
			s.subCache = map[string]expr.Expr{}
		}
		s.subCache[key] = e
	}
	return e, err
}

// subLinkKey is the text of a subquery without positions, "" when it has
// none.
func subLinkKey(sl *pg_query.SubLink) string {
	return nodeText(&pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: sl}})
}

// nodeText is an expression's text as PostgreSQL prints it, the same for
// the same expression wherever it is written; "" when it cannot be
// printed.
func nodeText(n *pg_query.Node) string {
	sel := &pg_query.SelectStmt{TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Val: n}}}}}
	text, err := pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}}}}})
	if err != nil {
		return ""
	}
	return text
}

// treeVersion is the parse tree version Deparse expects.
var treeVersion = sync.OnceValue(func() int32 {
	r, err := pg_query.Parse("SELECT 1")
	if err != nil {
		return 0
	}
	return r.Version
})

func (b *binder) bindSubLinkOnce(s *scope, sl *pg_query.SubLink) (expr.Expr, error) {
	if sl.SubLinkType == pg_query.SubLinkType_ARRAY_SUBLINK {
		asl, err := b.arraySubLink(sl)
		if err != nil {
			return nil, err
		}
		sl = asl
	}
	if n, ok, err := b.rowInSubLink(s, sl, true); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return b.bindExpr(s, n)
	}
	if sl.SubLinkType == pg_query.SubLinkType_ROWCOMPARE_SUBLINK {
		l, lok := b.rowElems(s, sl.Testexpr)
		r, rok := subLinkColumns(sl)
		if !lok || !rok {
			return nil, b.refuse(sl.Location, "this row comparison with a subquery is not supported").
				WithHint("list the subquery's columns: (a, b) = (SELECT x, y FROM …)")
		}
		return b.bindRowCompare(s, opName(sl.OperName), l, r, sl.Location)
	}
	lv, ok := b.subLinkLevel(s)
	if !ok {
		return nil, b.refuse(sl.Location, "a subquery is not supported here").
			WithHint("subqueries are supported in WHERE, the select list, HAVING, GROUP BY, ORDER BY and JOIN … ON")
	}
	if sl.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK && lv.group == nil {
		saved := b.outers
		b.outers, b.fast = append([]*scope{s}, saved...), true
		e, err := b.bindScalarSubquery(s, sl)
		b.outers, b.fast = saved, false
		if err != errGeneral {
			return e, err
		}
	}
	q, err := b.bindSubquery(lv.sc, sl)
	if err != nil {
		return nil, err
	}
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXPR_SUBLINK:
		e, err := b.scalarSub(lv, q)
		if err != nil {
			return nil, err
		}
		e = b.subqueryCollated(e, q.plan, sl.Location)
		if d := b.originDomain(q.origin); d != nil {
			b.noteDomain(e, d)
		}
		return e, nil
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		p := &plan.Distinct{Input: &plan.Project{Input: q.plan, Exprs: []expr.Expr{trueConst()}, Cols: []plan.Column{{Name: "?exists?", Type: value.BoolType}}}}
		join, err := b.joinSub(lv, p, plan.LeftJoin, nil, nil, q.loc)
		if err != nil {
			return nil, err
		}
		jc := joinedCols(p)
		col := b.addJoin(lv, join, jc)
		return &expr.IsNull{E: col(len(jc) - 1), Not: true}, nil
	case pg_query.SubLinkType_ANY_SUBLINK, pg_query.SubLinkType_ALL_SUBLINK:
		if op, ok := quantOp(sl); ok {
			return b.quantSub(lv, s, q, sl, op)
		}
		if _, ok := cmpOps[opName(sl.OperName)]; !ok && len(sl.OperName) > 0 {
			break
		}
		in, err := b.inSub(lv, s, q, sl)
		if err != nil || sl.SubLinkType == pg_query.SubLinkType_ANY_SUBLINK {
			return in, err
		}
		return &expr.Not{E: in}, nil
	}
	return nil, b.refuse(sl.Location, "this subquery is not supported").
		WithHint("scalar subqueries, EXISTS, IN, NOT IN and op ANY / op ALL (subquery) with a comparison operator are supported")
}

func trueConst() expr.Expr { return &expr.Const{V: value.NewBool(true), T: value.BoolType} }

// joinedCols are the columns a subquery plan adds to a level: its domain's
// and its own.
func joinedCols(p plan.Node) []plan.Column {
	var cols []plan.Column
	for _, o := range plan.Free(p) {
		cols = append(cols, plan.Column{Name: o.Name, Type: o.T})
	}
	return append(cols, p.Columns()...)
}

// scalarSub is a scalar subquery: its only column, NULL when it returns no
// row, error 21000 when it returns more than one.
func (b *binder) scalarSub(lv level, q *subquery) (expr.Expr, error) {
	cols := q.plan.Columns()
	if len(cols) != 1 {
		return nil, b.stmt.errf(q.loc, pgerr.SyntaxError, "subquery must return only one column")
	}
	p := q.plan
	if !atMostOneRow(p) {
		v := &expr.Col{Idx: 0, T: cols[0].Type, Name: cols[0].Name}
		agg := &plan.Aggregate{Input: p, Aggs: []plan.AggCall{
			{Name: "count", Func: plan.AggCountStar, Star: true, Type: value.Int8Type},
			{Name: "min", Func: plan.AggMin, Arg: v, Type: v.T},
		}, Cols: []plan.Column{{Name: "count", Type: value.Int8Type}, {Name: "min", Type: v.T}}}
		many := &expr.Cmp{Op: expr.GT, L: &expr.Col{Idx: 0, T: value.Int8Type}, R: &expr.Const{V: value.NewInt(value.Int8, 1), T: value.Int8Type}}
		val := &expr.Case{Whens: []expr.When{{Cond: many, Result: &expr.Raise{Code: pgerr.CardinalityViolation,
			Msg: "more than one row returned by a subquery used as an expression", T: v.T}}},
			Else: &expr.Col{Idx: 1, T: v.T, Name: cols[0].Name}, T: v.T}
		p = &plan.Project{Input: agg, Exprs: []expr.Expr{val}, Cols: cols}
	}
	join, err := b.joinSub(lv, p, plan.LeftJoin, nil, nil, q.loc)
	if err != nil {
		return nil, err
	}
	jc := joinedCols(p)
	col := b.addJoin(lv, join, jc)
	return col(len(jc) - 1), nil
}

// atMostOneRow reports whether p returns at most one row per evaluation.
func atMostOneRow(p plan.Node) bool {
	switch n := p.(type) {
	case *plan.Aggregate:
		return len(n.GroupBy) == 0
	case *plan.Project:
		return atMostOneRow(n.Input)
	case *plan.Filter:
		return atMostOneRow(n.Input)
	case *plan.Distinct:
		return atMostOneRow(n.Input)
	case *plan.TopK:
		return len(n.Partition) == 0 && n.Limit <= 1
	case *plan.Values:
		return len(n.Rows) <= 1
	}
	return false
}

// inSub is x IN (subquery) with SQL's three values: TRUE when some row
// equals x; else NULL when x is NULL or some row is NULL, the subquery
// not being empty; else FALSE. Two joins compute it per domain value:
// the distinct rows (for the match), and count(*) with count(y).
func (b *binder) inSub(lv level, s *scope, q *subquery, sl *pg_query.SubLink) (expr.Expr, error) {
	x, y, t, err := b.inOperands(s, q, sl)
	if err != nil {
		return nil, err
	}
	match := &plan.Distinct{Input: &plan.Project{Input: q.plan, Exprs: []expr.Expr{y, trueConst()},
		Cols: []plan.Column{{Name: "?in?", Type: t}, {Name: "?match?", Type: value.BoolType}}}}
	join, err := b.joinSub(lv, match, plan.LeftJoin, []expr.Expr{expr.EqualityKey(x)}, []expr.Expr{expr.EqualityKey(&expr.Col{Idx: 0, T: t})}, sl.Location)
	if err != nil {
		return nil, err
	}
	mc := joinedCols(match)
	mcol := b.addJoin(lv, join, mc)
	matched := mcol(len(mc) - 1)
	counts := &plan.Aggregate{Input: q.plan, Aggs: []plan.AggCall{
		{Name: "count", Func: plan.AggCountStar, Star: true, Type: value.Int8Type},
		{Name: "count", Func: plan.AggCount, Arg: y, Type: value.Int8Type},
	}, Cols: []plan.Column{{Name: "count", Type: value.Int8Type}, {Name: "count", Type: value.Int8Type}}}
	join, err = b.joinSub(lv, counts, plan.LeftJoin, nil, nil, sl.Location)
	if err != nil {
		return nil, err
	}
	cc := joinedCols(counts)
	ccol := b.addJoin(lv, join, cc)
	rows, nonNull := ccol(len(cc)-2), ccol(len(cc)-1)
	zero := &expr.Const{V: value.NewInt(value.Int8, 0), T: value.Int8Type}
	null := &expr.Const{V: value.Null, T: value.BoolType}
	empty := &expr.Or{Args: []expr.Expr{&expr.IsNull{E: rows}, &expr.Cmp{Op: expr.EQ, L: rows, R: zero}}}
	someNull := &expr.Or{Args: []expr.Expr{&expr.IsNull{E: x}, &expr.Cmp{Op: expr.GT, L: rows, R: nonNull}}}
	return &expr.Case{Whens: []expr.When{
		{Cond: &expr.IsNull{E: matched, Not: true}, Result: trueConst()},
		{Cond: empty, Result: &expr.Const{V: value.NewBool(false), T: value.BoolType}},
		{Cond: someNull, Result: null},
	}, Else: &expr.Const{V: value.NewBool(false), T: value.BoolType}, T: value.BoolType}, nil
}

// inOperands binds the two sides of x IN (subquery): x in scope s, and y,
// the subquery's one column; both coerced to the type they compare in
// (text when both are unknown).
func (b *binder) inOperands(s *scope, q *subquery, sl *pg_query.SubLink) (x, y expr.Expr, t value.Type, err error) {
	cols := q.plan.Columns()
	if x, err = b.bindExpr(s, sl.Testexpr); err != nil {
		return nil, nil, t, err
	}
	if len(cols) != 1 {
		return nil, nil, t, b.stmt.errf(sl.Location, pgerr.SyntaxError, "subquery has too many columns")
	}
	y = &expr.Col{Idx: 0, T: cols[0].Type, Name: cols[0].Name}
	if t, err = expr.ResolveCompare(x.Type(), y.Type()); err != nil {
		return nil, nil, t, pgerr.Wrap(err).At(b.stmt.SQL, int(sl.Location))
	}
	if err := subqueryRecordCheck(x, planOutput(q.plan, 0, y), sl, len(plan.Free(q.plan)) > 0); err != nil {
		return nil, nil, t, err
	}
	if t.Kind == value.Unknown {
		t = value.TextType
	}
	if x, err = b.coerce(x, t, sl.Location); err != nil {
		return nil, nil, t, err
	}
	if y, err = b.coerce(y, t, sl.Location); err != nil {
		return nil, nil, t, err
	}
	return x, y, t, nil
}
