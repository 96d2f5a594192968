package sql

import (
	"reflect"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// aggregatesMaintained is set once views compile aggregates.
const aggregatesMaintained = true

// aggScope is the binding context above a GROUP BY: expressions see the
// group keys and the aggregates' results, not the input's columns.
type aggScope struct {
	input  *scope
	post   *scope // the marker scope expressions above the grouping bind in
	groups []expr.Expr
	aggs   []plan.AggCall
	// sets are the grouping sets of GROUPING SETS, ROLLUP and CUBE, as
	// positions in groups; nil for a plain GROUP BY.
	sets [][]int
	// subs join subqueries of HAVING and the select list to the grouped
	// rows; their columns (subWidth in all) follow the aggregates', and
	// holes are the references to them, numbered by finish.
	subs     []func(plan.Node) plan.Node
	subWidth int
	holes    []hole
	base     plan.Node // the grouped rows, under the subqueries' joins
	// groupings are the GROUPING() calls of a query with grouping sets,
	// as positions in groups: each is a column of the grouped row after
	// the aggregates', a constant of each set's branch, numbered by
	// finish.
	groupings     [][]int
	groupingHoles []*expr.Col
	// windows are the window functions of the select list, which run
	// over the grouped rows after HAVING, in this order; their columns
	// follow the subqueries' and are numbered by finish.
	windows []winHole
	// closed is set once the select list and HAVING are bound: a subquery
	// met later (in ORDER BY) has no join to go in.
	closed bool
	// subGroups finds the group expressions that hold a subquery by
	// their text: the select list's copy of one is the group column.
	subGroups map[string]int
	// b is the binder of the grouped level, which binds the aggregates a
	// subquery calls on its columns.
	b *binder
}

// hasAggregate reports whether n calls an aggregate function, outside
// subqueries.
func hasAggregate(n *pg_query.Node) bool {
	found := false
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil || found {
			return
		}
		if aggCall(n) != nil {
			found = true
			return
		}
		if sl := n.GetSubLink(); sl != nil {
			walk(sl.Testexpr) // x IN (…): x is of this level
			return
		}
		forEachChild(n, walk)
	}
	walk(n)
	return found
}

func isAggregateName(name string) bool { return plan.IsAggName(name) }

// isHypothetical reports whether name is a hypothetical-set aggregate's,
// an aggregate when called WITHIN GROUP (rank(3) WITHIN GROUP (ORDER BY
// x)) and a window function otherwise.
func isHypothetical(name string) bool {
	_, ok := plan.LookupHypothetical(name)
	return ok
}

// aggCall returns n when it is a call of an aggregate function (not a
// window function), else nil.
func aggCall(n *pg_query.Node) *pg_query.FuncCall {
	if f := n.GetFuncCall(); f != nil && f.Over == nil && (f.AggStar || isAggregateName(opName(f.Funcname)) || isUserAggCall(f) || f.AggWithinGroup && isHypothetical(opName(f.Funcname))) {
		return f
	}
	return nil
}

// forEachChild calls fn on the expression children of n that can hold an
// aggregate call.
func forEachChild(n *pg_query.Node, fn func(*pg_query.Node)) {
	each := func(ns []*pg_query.Node) {
		for _, c := range ns {
			fn(c)
		}
	}
	switch {
	case n.GetAExpr() != nil:
		fn(n.GetAExpr().Lexpr)
		fn(n.GetAExpr().Rexpr)
	case n.GetBoolExpr() != nil:
		each(n.GetBoolExpr().Args)
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall()
		each(f.Args)
		if f.Over != nil {
			// An aggregate in a window's PARTITION BY or ORDER BY is the
			// query's (rank() OVER (ORDER BY sum(v))).
			each(f.Over.PartitionClause)
			each(f.Over.OrderClause)
		}
	case n.GetTypeCast() != nil:
		fn(n.GetTypeCast().Arg)
	case n.GetCaseExpr() != nil:
		c := n.GetCaseExpr()
		fn(c.Arg)
		for _, w := range c.Args {
			fn(w.GetCaseWhen().Expr)
			fn(w.GetCaseWhen().Result)
		}
		fn(c.Defresult)
	case n.GetCoalesceExpr() != nil:
		each(n.GetCoalesceExpr().Args)
	case n.GetMinMaxExpr() != nil:
		each(n.GetMinMaxExpr().Args)
	case n.GetNullTest() != nil:
		fn(n.GetNullTest().Arg)
	case n.GetBooleanTest() != nil:
		fn(n.GetBooleanTest().Arg)
	case n.GetList() != nil:
		each(n.GetList().Items)
	case n.GetResTarget() != nil:
		fn(n.GetResTarget().Val)
	case n.GetSortBy() != nil:
		fn(n.GetSortBy().Node)
	case n.GetAIndirection() != nil:
		ind := n.GetAIndirection()
		fn(ind.Arg)
		for _, i := range ind.Indirection {
			if x := i.GetAIndices(); x != nil {
				fn(x.Lidx)
				fn(x.Uidx)
			}
		}
	case n.GetRowExpr() != nil:
		each(n.GetRowExpr().Args)
	case n.GetAArrayExpr() != nil:
		each(n.GetAArrayExpr().Elements)
	case n.GetCollateClause() != nil:
		fn(n.GetCollateClause().Arg)
	case n.GetXmlExpr() != nil:
		each(n.GetXmlExpr().NamedArgs)
		each(n.GetXmlExpr().Args)
	case n.GetXmlSerialize() != nil:
		fn(n.GetXmlSerialize().Expr)
	}
}

// bindGrouped binds GROUP BY, the aggregates of the select list, HAVING
// and ORDER BY over input, and returns the grouped plan with the select
// list's projection.
//
// ORDER BY is bound after it, still above the grouping, so the caller binds
// it with the returned scope and then calls finish, which records every
// aggregate found (ORDER BY may add some) and leaves the grouping context.
func (b *binder) bindGrouped(sel *pg_query.SelectStmt, input plan.Node, sc *scope) (p plan.Node, exprs []expr.Expr, post *scope, finish func(), err error) {
	if b.forView && !aggregatesMaintained {
		loc := b.keyword("group", 0)
		if loc < 0 {
			loc = firstAggregateLoc(sel)
		}
		return nil, nil, nil, nil, b.refuse(loc, "aggregates are not maintained in a view yet")
	}
	as := &aggScope{input: sc, post: &scope{}, b: b}
	// Each GROUP BY item is a list of alternative sets of group
	// expressions; the grouping sets are their cross product.
	sets := [][]int{{}}
	plain := true
	sel.GroupClause = implicitRowSets(sel.GroupClause, true)
	for _, g := range sel.GroupClause {
		alts, err := b.groupingAlternatives(sel, g, sc, as, false)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if g.GetGroupingSet() != nil {
			plain = false
		}
		var next [][]int
		for _, s := range sets {
			for _, a := range alts {
				next = append(next, unionInts(s, a))
			}
		}
		sets = next
	}
	if sel.GroupDistinct {
		sets = distinctSets(sets)
	}
	if !plain {
		as.sets = sets
	}
	b.groupDependents(sel, as)
	// GROUP BY's subqueries join the input under the grouping.
	input = applyPending(sc, input)
	sc.allowScalar = false
	b.agg = as
	sc.grouping = as
	fail := func(err error) (plan.Node, []expr.Expr, *scope, func(), error) {
		b.agg, sc.grouping = nil, nil
		return nil, nil, nil, nil, err
	}
	as.post.allowWindow = true
	exprs, cols, err := b.bindTargets(as.post, sel.TargetList)
	if err == nil {
		err = b.bindSortWindows(sel, as.post, len(cols))
	}
	as.post.allowWindow = false
	if err != nil {
		return fail(err)
	}
	var having expr.Expr
	if sel.HavingClause != nil {
		h, err := b.bindExpr(as.post, sel.HavingClause)
		if err != nil {
			return fail(err)
		}
		if having, err = b.toBool(h, "HAVING", nodeLoc(sel.HavingClause, -1)); err != nil {
			return fail(err)
		}
	}
	sc.grouping = nil
	agg := &plan.Aggregate{Input: input, GroupBy: as.groups}
	union := &plan.UnionAll{}
	finish = func() {
		b.agg, as.closed = nil, true
		if len(sc.pending) > 0 {
			// The joins of the aggregates' subqueries.
			input = applyPending(sc, input)
			agg.Input = input
		}
		agg.Input = b.hashNoCollation(sc, agg.Input, as.groups)
		agg.Aggs = as.aggs
		agg.Cols = nil
		for _, g := range as.groups {
			agg.Cols = append(agg.Cols, plan.Column{Name: colName(g), Type: g.Type()})
		}
		for _, a := range as.aggs {
			agg.Cols = append(agg.Cols, plan.Column{Name: a.Name, Type: a.Type})
		}
		if as.sets != nil {
			union.Cols = slices.Clone(agg.Cols)
			for k, h := range as.groupingHoles {
				h.Idx = len(agg.Cols) + k
				union.Cols = append(union.Cols, plan.Column{Name: "grouping", Type: value.Int4Type})
			}
			for _, set := range as.sets {
				union.Inputs = append(union.Inputs, groupingBranch(input, as, set, union.Cols))
			}
		}
	}
	p = agg
	if as.sets != nil {
		p = union
	}
	// ORDER BY's subqueries are still to come, unless a view drops the
	// order.
	sortSubs := sortHasSubLink(sel) && !viewDropsOrder(b, sel)
	if having != nil || len(as.subs) > 0 || sortSubs {
		if having == nil {
			having = trueConst()
		}
		f := &plan.Filter{Input: p, Pred: having}
		if len(as.subs) > 0 || sortSubs {
			// The subqueries' joins go between the grouping and this
			// filter once finish has the grouped row's width.
			grouped, done := p, finish
			finish = func() {
				done()
				base := len(as.groups) + len(as.aggs) + len(as.groupings)
				for _, h := range as.holes {
					h.col.Idx = base + h.off
				}
				in := grouped
				as.base = grouped
				for _, join := range as.subs {
					in = join(in)
				}
				as.base = nil
				f.Input = in
			}
		}
		p = f
	}
	if len(as.windows) > 0 {
		// The window chain is built now, so that a projection copied
		// before finish (ORDER BY's hidden columns) reads it; finish
		// gives each Window its columns once the grouped row's are known.
		for _, w := range as.windows {
			w.win.Input = p
			p = w.win
		}
		done := finish
		finish = func() {
			done()
			width := len(as.groups) + len(as.aggs) + len(as.groupings) + as.subWidth
			for i, w := range as.windows {
				w.win.Cols = append(slices.Clone(w.win.Input.Columns()), plan.Column{Name: w.win.Func.Name, Type: w.win.Func.Type})
				w.col.Idx = width + i
			}
		}
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: cols}, exprs, as.post, finish, nil
}

// winHole is a window function of a grouped query's select list and the
// references to its result.
type winHole struct {
	win *plan.Window
	col *expr.Col
}

// sortHasSubLink reports whether ORDER BY or DISTINCT ON holds a
// subquery.
func sortHasSubLink(sel *pg_query.SelectStmt) bool {
	for _, n := range append(append([]*pg_query.Node{}, sel.SortClause...), sel.DistinctClause...) {
		if n != nil && hasSubLink(n) {
			return true
		}
	}
	return false
}

// groupTarget resolves a GROUP BY item that is a select-list position or an
// output column name (when no input column has that name) to the select
// list's expression, as PostgreSQL does; any other constant is an error
// there, since grouping by it would be grouping by nothing.
func (b *binder) groupTarget(sel *pg_query.SelectStmt, g *pg_query.Node, sc *scope) (*pg_query.Node, error) {
	if c := g.GetAConst(); c != nil {
		if c.GetIval() == nil || c.Isnull {
			return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "non-integer constant in GROUP BY")
		}
		pos := int(c.GetIval().Ival)
		if pos < 1 || pos > len(sel.TargetList) {
			return nil, b.stmt.errf(c.Location, pgerr.InvalidColumnRef, "GROUP BY position %d is not in select list", pos)
		}
		return sel.TargetList[pos-1].GetResTarget().Val, nil
	}
	if cr := g.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
		name := cr.Fields[0].GetString_().Sval
		for _, c := range sc.cols {
			if c.name == name {
				return g, nil
			}
		}
		for _, t := range sel.TargetList {
			if rt := t.GetResTarget(); rt.Name == name {
				return rt.Val, nil
			}
		}
	}
	return g, nil
}

func firstAggregateLoc(sel *pg_query.SelectStmt) int32 {
	for _, t := range sel.TargetList {
		if loc := aggregateLoc(t); loc >= 0 {
			return loc
		}
	}
	return aggregateLoc(sel.HavingClause)
}

// bindAggregated binds an expression above the grouping: a group key
// becomes a column of the grouped row, an aggregate call becomes its
// result column, and a column of the input outside both is an error.
// It returns nil, nil when n is neither, for bindExpr to bind structurally.
func (b *binder) bindAggregated(n *pg_query.Node) (expr.Expr, error) {
	as := b.agg
	if f := aggCall(n); f != nil {
		return b.bindAggCall(f)
	}
	if hasSubLink(n) && as.subGroups != nil {
		if i, ok := as.subGroups[nodeText(n)]; ok {
			g := as.groups[i]
			return &expr.Col{Idx: i, T: g.Type(), Name: colName(g)}, nil
		}
	}
	if n.GetSubLink() != nil {
		return nil, nil // joined to the grouped rows by bindSubLink
	}
	if f := n.GetFuncCall(); f != nil && f.Over != nil {
		return nil, nil // a window over the grouped rows: bindWindow
	}
	if gf := n.GetGroupingFunc(); gf != nil {
		return b.bindGrouping(gf)
	}
	if !hasAggregate(n) {
		b.agg = nil
		e, err := b.bindExpr(as.input, n)
		b.agg = as
		if err == nil {
			for i, g := range as.groups {
				if exprKey(g) == exprKey(e) {
					return &expr.Col{Idx: i, T: g.Type(), Name: colName(g)}, nil
				}
			}
			if e.Type().Kind != value.Unknown && len(expr.Columns(e)) == 0 {
				return e, nil // a constant
			}
			if r, ok := groupedRow(e, as.groups); ok {
				return r, nil
			}
		}
		if cr := n.GetColumnRef(); cr != nil {
			if err != nil {
				return nil, err
			}
			return nil, b.stmt.errf(cr.Location, pgerr.GroupingError,
				"column %q must appear in the GROUP BY clause or be used in an aggregate function", as.input.exprName(e))
		}
	}
	return nil, nil
}

func colName(e expr.Expr) string {
	if c, ok := e.(*expr.Col); ok {
		return c.Name
	}
	return ""
}

// bindAggCall binds one aggregate call over the input and returns its
// result column in the grouped row.
func (b *binder) bindAggCall(f *pg_query.FuncCall) (expr.Expr, error) {
	as := b.agg
	if e, err := b.outerAggregate(as.input, f); e != nil || err != nil {
		return e, err
	}
	if err := b.builtinOutOfSchema(as.input, f); err != nil {
		return nil, err
	}
	name := opName(f.Funcname)
	if perValue, finish, ok := expr.JSONAggFuncs(name); ok {
		return b.bindJSONAgg(f, name, perValue, finish)
	}
	if name == "xmlagg" {
		return b.bindXMLAgg(f)
	}
	fn, ok := plan.LookupAgg(name)
	if isUserAggCall(f) {
		fn, ok = plan.AggUser, true
	}
	if !ok && f.AggWithinGroup {
		fn, ok = plan.LookupHypothetical(name)
	}
	if !ok {
		return nil, b.refuse(f.Location, "aggregate function %s is not supported", name)
	}
	savedArgs, savedScalar := b.aggArgs, as.input.allowScalar
	b.agg, b.aggArgs = nil, f
	// A subquery in the arguments, FILTER or ORDER BY joins the input
	// below the grouping (finish puts those joins under the Aggregate).
	as.input.allowScalar = !as.closed
	defer func() { b.agg, b.aggArgs, as.input.allowScalar = as, savedArgs, savedScalar }()
	if len(b.outers) == 0 {
		for _, a := range f.Args {
			if hasAggregate(a) {
				return nil, b.stmt.errf(f.Location, pgerr.GroupingError, "aggregate function calls cannot be nested")
			}
		}
	}
	if fn.Has(plan.AggNotMaintained) && b.forView && !fn.Has(plan.AggTwoArgs) {
		return nil, b.refuse(f.Location, "aggregate function %s is not supported in a materialized view", name).
			WithHint("it is computed from each group's rows, which a view does not keep; ad-hoc queries accept it")
	}
	if f.AggWithinGroup != fn.Has(plan.AggOrderedSet) {
		if f.AggWithinGroup {
			return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with WITHIN GROUP does not exist", name).
				WithHint("%s is not an ordered-set aggregate, so it cannot have WITHIN GROUP", name)
		}
		return nil, b.stmt.errf(f.Location, pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name)
	}
	call := plan.AggCall{Name: name, Func: fn, Distinct: f.AggDistinct}
	argType := value.UnknownType
	var bound expr.Expr // string_agg's value, bound before its separator
	switch {
	case fn == plan.AggUser:
		if err := b.bindUserAggArgs(as, &call, f); err != nil {
			return nil, err
		}
	case fn.Has(plan.AggOrderedSet):
		if err := b.bindOrderedSet(as, &call, f); err != nil {
			return nil, err
		}
		argType = call.Arg.Type()
	case fn.Has(plan.AggTwoArgs):
		if len(f.Args) != 2 {
			return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(f.Args))
		}
		var args [2]expr.Expr
		for i, a := range f.Args {
			e, err := b.bindExpr(as.input, a)
			if err != nil {
				return nil, err
			}
			if k := e.Type().Kind; !k.IsInteger() && !k.IsFloat() && k != value.Numeric && k != value.Unknown {
				return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(%s, …) does not exist", name, e.Type()).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
			}
			if args[i], err = b.coerce(e, value.Float8Type, f.Location); err != nil {
				return nil, err
			}
		}
		call.Arg, call.X = args[0], args[1]
		call.Exact = b.forView
		argType = value.Float8Type
	case f.AggStar:
		if name != "count" {
			return nil, b.stmt.errf(f.Location, pgerr.SyntaxError, "%s(*) must be used to call a parameterless aggregate function", name)
		}
		call.Star, call.Func = true, plan.AggCountStar
	case fn.Has(plan.AggSeparated):
		if len(f.Args) != 2 {
			return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function string_agg with %d arguments does not exist", len(f.Args))
		}
		// The value first: string_agg(bytea, bytea) or string_agg(text, text).
		var err error
		if bound, err = b.bindExpr(as.input, f.Args[0]); err != nil {
			return nil, err
		}
		sep, err := b.bindExpr(as.input, f.Args[1])
		if err != nil {
			return nil, err
		}
		sepType, err := stringAggType(bound, sep)
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
		}
		if call.Sep, err = b.coerce(sep, sepType, f.Location); err != nil {
			return nil, err
		}
		fallthrough
	default:
		if len(f.Args) < 1 || !fn.Has(plan.AggSeparated) && len(f.Args) != 1 {
			return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(f.Args))
		}
		arg, err := bound, error(nil)
		if arg == nil {
			if arg, err = b.bindExpr(as.input, f.Args[0]); err != nil {
				return nil, err
			}
		}
		if arg.Type().Kind == value.Unknown || fn.Has(plan.AggSeparated) && arg.Type().Kind != value.Bytea {
			if arg, err = b.coerce(arg, value.TextType, f.Location); err != nil {
				return nil, err
			}
		}
		call.Arg = timeAggArg(fn, arg)
		if (fn == plan.AggMin || fn == plan.AggMax) && arg.Type().Kind == value.Cidr {
			call.Arg = &expr.Cast{E: arg, To: value.InetType} // min(inet) and max(inet), as PostgreSQL resolves them
		}
		if (fn == plan.AggMin || fn == plan.AggMax) && (arg.Type().Kind == value.InternalChar || arg.Type().Kind == value.Name) {
			call.Arg = &expr.Cast{E: arg, To: value.TextType} // "char" and name have no min or max: text's, through the implicit cast
		}
		if fn == plan.AggArrayAgg && arg.Type().Kind.IsVector() && b.forView && !b.arraySubAggs[f] {
			// PostgreSQL's array_agg stacks vectors into a
			// two-dimensional array, never a valid vector: a query run
			// once fails on its first row (value.ArrayAgg).
			return nil, b.refuse(f.Location, "array_agg of %s is not supported", arg.Type())
		}
		argType = call.Arg.Type()
		if f.AggDistinct {
			if err := b.noJSONOrder(argType, "equality", nodeLoc(f.Args[0], f.Location)); err != nil {
				return nil, err
			}
			if err := b.sortCollationConflict(as.input, call.Arg); err != nil {
				return nil, err // a sort key of the aggregate's input
			}
			if err := b.sortKeyNoCollation(as.input, call.Arg); err != nil {
				return nil, err
			}
			if k := argType.Kind; k == value.ACLItem || k.Elem() == value.ACLItem {
				// aclitem has equality but no order, which DISTINCT needs here.
				return nil, b.noJSONOrder(argType, "ordering", nodeLoc(f.Args[0], f.Location)).(*pgerr.Error).
					WithDetail("Aggregates with DISTINCT must be able to sort their inputs.").WithHint("")
			}
		}
	}
	t, err := call.Func.ResultType(argType)
	if call.User != nil {
		t, err = call.User.Result, nil
	}
	if fn == plan.AggArrayAgg && argType.Kind.IsVector() && b.arraySubAggs[f] {
		t = value.ArrayType(argType.Kind)
	}
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	if call.Direct != nil && call.Direct.Type().Kind.IsArray() {
		t = value.ArrayType(t.Kind)
	}
	call.Type = t
	if b.forView && t.Kind == value.Bit {
		return nil, b.refuse(f.Location, "%s of bit strings is not supported in a materialized view", name).
			WithHint("ad-hoc queries accept it; in a view, aggregate integers")
	}
	if f.AggFilter != nil {
		p, err := b.bindExpr(as.input, f.AggFilter)
		if err != nil {
			return nil, err
		}
		if call.Filter, err = b.toBool(p, "FILTER", f.Location); err != nil {
			return nil, err
		}
	}
	for _, o := range f.AggOrder {
		if call.Func.Has(plan.AggOrderedSet) {
			break // bound by bindOrderedSet
		}
		sb := o.GetSortBy()
		e, err := b.bindExpr(as.input, sb.Node)
		if err != nil {
			return nil, err
		}
		if err := b.noJSONOrder(e.Type(), "ordering", nodeLoc(sb.Node, sb.Location)); err != nil {
			return nil, err // xml, json, geometric types: no btree order
		}
		if err := b.sortCollationConflict(as.input, e); err != nil {
			return nil, err
		}
		if err := b.sortKeyNoCollation(as.input, e); err != nil {
			return nil, err
		}
		if f.AggDistinct && !distinctArg(f, sb.Node, e, &call) {
			return nil, b.stmt.errf(nodeLoc(sb.Node, f.Location), pgerr.InvalidColumnRef, "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list")
		}
		desc, nullsFirst, err := b.sortDirection(sb)
		if err != nil {
			return nil, err
		}
		call.OrderBy = append(call.OrderBy, plan.SortKey{Expr: e, Desc: desc, NullsFirst: nullsFirst})
	}
	key := aggKey(&call)
	for i := range as.aggs {
		if aggKey(&as.aggs[i]) == key {
			// This call's arguments derive its collation, at their positions.
			return b.minMaxCollation(as, &call, b.aggCollated(as.input, &call, &expr.Col{Idx: len(as.groups) + i, T: as.aggs[i].Type, Name: name}, f.Location)), nil
		}
	}
	as.aggs = append(as.aggs, call)
	return b.minMaxCollation(as, &call, b.aggCollated(as.input, &call, &expr.Col{Idx: len(as.groups) + len(as.aggs) - 1, T: call.Type, Name: name}, f.Location)), nil
}

// bindOrderedSet binds f(direct) WITHIN GROUP (ORDER BY x): x, the one
// sort key, is the aggregated value (double precision or interval for
// percentile_cont), and percentile_cont's and percentile_disc's fraction
// is double precision.
func (b *binder) bindOrderedSet(as *aggScope, call *plan.AggCall, f *pg_query.FuncCall) error {
	if call.Func.Has(plan.AggHypothetical) {
		return b.bindHypothetical(as, call, f)
	}
	in := as.input
	wantDirect := 1
	if call.Func == plan.AggMode {
		wantDirect = 0
	}
	if len(f.Args) != wantDirect || len(f.AggOrder) != 1 {
		return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d direct and %d ordered arguments does not exist", call.Name, len(f.Args), len(f.AggOrder)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if f.AggDistinct {
		return b.stmt.errf(f.Location, pgerr.SyntaxError, "cannot use DISTINCT with WITHIN GROUP")
	}
	sb := f.AggOrder[0].GetSortBy()
	x, err := b.bindExpr(in, sb.Node)
	if err != nil {
		return err
	}
	if call.Func == plan.AggPercentileCont && x.Type().Kind == value.Time {
		x = &expr.Cast{E: x, To: value.IntervalType} // through the implicit cast, as in PostgreSQL
	}
	xType := x.Type()
	switch k := x.Type().Kind; {
	case call.Func == plan.AggPercentileCont && k != value.Interval:
		if !k.IsInteger() && !k.IsFloat() && k != value.Numeric && k != value.Unknown {
			return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(double precision ORDER BY %s) does not exist", call.Name, x.Type()).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		if x, err = b.coerce(x, value.Float8Type, f.Location); err != nil {
			return err
		}
	case k == value.Unknown:
		if x, err = b.coerce(x, value.TextType, f.Location); err != nil {
			return err
		}
	}
	desc, nullsFirst, err := b.sortDirection(sb)
	if err != nil {
		return err
	}
	call.Arg = x
	call.OrderBy = []plan.SortKey{{Expr: x, Desc: desc, NullsFirst: nullsFirst}}
	if wantDirect == 1 {
		d, err := b.bindExpr(in, f.Args[0])
		if err != nil {
			return err
		}
		if err := b.directGrouped(as, d, f.Args[0]); err != nil {
			return err
		}
		if d.Type().Kind == value.Interval || d.Type().Kind.IsString() {
			return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(%s ORDER BY %s) does not exist", call.Name, d.Type(), x.Type()).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		want := value.Float8Type
		if k := d.Type().Kind; k.IsArray() {
			// An array of fractions gives an array of results.
			if e := k.Elem(); !e.IsInteger() && !e.IsFloat() && e != value.Numeric {
				return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(%s, %s) does not exist", call.Name, d.Type(), xType).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
			}
			want = value.ArrayType(value.Float8)
		}
		if call.Direct, err = b.coerce(d, want, nodeLoc(f.Args[0], f.Location)); err != nil {
			return err
		}
	}
	return nil
}

// exprKey is expr.Key: two bound expressions are the same when they
// compute the same thing over the same row.
func exprKey(e expr.Expr) string { return expr.Key(e) }

func aggKey(a *plan.AggCall) string {
	k := a.Name + "|" + exprKey(a.Arg) + "|" + exprKey(a.Sep) + "|" + exprKey(a.X) + "|" + exprKey(a.Direct) + "|" + exprKey(a.Filter)
	if a.Star {
		k += "|*"
	}
	if a.Distinct {
		k += "|distinct"
	}
	for _, o := range a.OrderBy {
		k += "|" + exprKey(o.Expr)
		if o.Desc {
			k += " desc"
		}
		if o.NullsFirst {
			k += " nulls first"
		}
	}
	return k
}

// groupingAlternatives binds one GROUP BY item and returns the sets of
// group expressions (positions in as.groups) it stands for: one set for an
// expression, several for ROLLUP, CUBE and GROUPING SETS.
func (b *binder) groupingAlternatives(sel *pg_query.SelectStmt, g *pg_query.Node, sc *scope, as *aggScope, inGroupingSet bool) ([][]int, error) {
	gs := g.GetGroupingSet()
	if r := g.GetRowExpr(); r != nil && r.RowFormat == pg_query.CoercionForm_COERCE_IMPLICIT_CAST && inGroupingSet {
		// (a, b) inside a grouping set is the set of a and b, as
		// PostgreSQL's flatten_grouping_sets reads it
		var set []int
		for _, e := range r.Args {
			i, err := b.groupExpr(sel, e, sc, as)
			if err != nil {
				return nil, err
			}
			set = unionInts(set, []int{i})
		}
		return [][]int{set}, nil
	}
	if gs == nil {
		i, err := b.groupExpr(sel, g, sc, as)
		if err != nil {
			return nil, err
		}
		return [][]int{{i}}, nil
	}
	// units binds each element of a ROLLUP or CUBE: an expression or a
	// parenthesised list of them.
	units := func() ([][]int, error) {
		var out [][]int
		for _, c := range gs.Content {
			var simple []*pg_query.Node
			if inner := c.GetGroupingSet(); inner != nil && inner.Kind == pg_query.GroupingSetKind_GROUPING_SET_SIMPLE {
				simple = inner.Content
			} else if r := c.GetRowExpr(); r != nil && r.RowFormat == pg_query.CoercionForm_COERCE_IMPLICIT_CAST {
				simple = r.Args
			}
			if simple != nil {
				var u []int
				for _, e := range simple {
					i, err := b.groupExpr(sel, e, sc, as)
					if err != nil {
						return nil, err
					}
					u = append(u, i)
				}
				out = append(out, u)
				continue
			}
			i, err := b.groupExpr(sel, c, sc, as)
			if err != nil {
				return nil, err
			}
			out = append(out, []int{i})
		}
		return out, nil
	}
	switch gs.Kind {
	case pg_query.GroupingSetKind_GROUPING_SET_EMPTY:
		return [][]int{{}}, nil
	case pg_query.GroupingSetKind_GROUPING_SET_SIMPLE:
		u, err := units()
		if err != nil {
			return nil, err
		}
		var set []int
		for _, x := range u {
			set = unionInts(set, x)
		}
		return [][]int{set}, nil
	case pg_query.GroupingSetKind_GROUPING_SET_ROLLUP:
		u, err := units()
		if err != nil {
			return nil, err
		}
		var out [][]int
		for n := len(u); n >= 0; n-- {
			var set []int
			for _, x := range u[:n] {
				set = unionInts(set, x)
			}
			out = append(out, set)
		}
		return out, nil
	case pg_query.GroupingSetKind_GROUPING_SET_CUBE:
		u, err := units()
		if err != nil {
			return nil, err
		}
		if len(u) > 12 {
			return nil, b.refuse(gs.Location, "CUBE of more than 12 elements is not supported")
		}
		var out [][]int
		for mask := (1 << len(u)) - 1; mask >= 0; mask-- {
			var set []int
			for i, x := range u {
				if mask&(1<<i) != 0 {
					set = unionInts(set, x)
				}
			}
			out = append(out, set)
		}
		return out, nil
	case pg_query.GroupingSetKind_GROUPING_SET_SETS:
		var out [][]int
		for _, c := range gs.Content {
			alts, err := b.groupingAlternatives(sel, c, sc, as, true)
			if err != nil {
				return nil, err
			}
			out = append(out, alts...)
		}
		return out, nil
	}
	return nil, b.refuse(gs.Location, "this grouping set is not supported")
}

// groupExpr binds one group expression and returns its position in
// as.groups, adding it when new.
func (b *binder) groupExpr(sel *pg_query.SelectStmt, g *pg_query.Node, sc *scope, as *aggScope) (int, error) {
	n, err := b.groupTarget(sel, g, sc)
	if err != nil {
		return 0, err
	}
	if hasAggregate(n) {
		return 0, b.stmt.errf(nodeLoc(n, -1), pgerr.GroupingError, "aggregate functions are not allowed in GROUP BY")
	}
	e, err := b.bindExpr(sc, n)
	if err != nil {
		return 0, err
	}
	if e.Type().Kind == value.Unknown {
		e, _ = b.coerce(e, value.TextType, -1)
	}
	if err := b.noJSONOrder(e.Type(), "equality", nodeLoc(n, -1)); err != nil {
		return 0, err
	}
	if err := b.groupKeyCollation(sel, sc, e); err != nil {
		return 0, err
	}
	i := slices.IndexFunc(as.groups, func(prev expr.Expr) bool { return exprKey(prev) == exprKey(e) })
	if i < 0 {
		as.groups = append(as.groups, e)
		i = len(as.groups) - 1
	}
	if hasSubLink(n) {
		if as.subGroups == nil {
			as.subGroups = map[string]int{}
		}
		as.subGroups[nodeText(n)] = i
	}
	return i, nil
}

// implicitRowSets reads a parenthesised list of expressions among GROUP
// BY items, (a, b), which the grammar parses as a row, as PostgreSQL's
// parse analysis does: a grouping set of those expressions. At the top
// level (GROUP BY (a, b)) that is the expressions themselves; inside
// GROUPING SETS, ROLLUP and CUBE, a set of them. ROW(a, b) stays a row.
func implicitRowSets(items []*pg_query.Node, top bool) []*pg_query.Node {
	out := items[:0:0]
	for _, n := range items {
		if r := n.GetRowExpr(); r != nil && r.RowFormat == pg_query.CoercionForm_COERCE_IMPLICIT_CAST {
			if top {
				out = append(out, r.Args...)
				continue
			}
			n = &pg_query.Node{Node: &pg_query.Node_GroupingSet{GroupingSet: &pg_query.GroupingSet{
				Kind: pg_query.GroupingSetKind_GROUPING_SET_SIMPLE, Content: r.Args, Location: r.Location}}}
		} else if gs := n.GetGroupingSet(); gs != nil && gs.Kind != pg_query.GroupingSetKind_GROUPING_SET_SIMPLE {
			gs.Content = implicitRowSets(gs.Content, false)
		}
		out = append(out, n)
	}
	return out
}

// unionInts returns a with the elements of b it lacks appended.
func unionInts(a, b []int) []int {
	out := append([]int(nil), a...)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// groupingBranch is one grouping set's aggregate, padded to the full
// grouped row: the group columns outside the set are NULL.
func groupingBranch(input plan.Node, as *aggScope, set []int, cols []plan.Column) plan.Node {
	keys := make([]expr.Expr, len(set))
	for i, g := range set {
		keys[i] = as.groups[g]
	}
	branch := &plan.Aggregate{Input: input, GroupBy: keys, Aggs: as.aggs}
	for _, g := range set {
		branch.Cols = append(branch.Cols, cols[g])
	}
	branch.Cols = append(branch.Cols, cols[len(as.groups):]...)
	exprs := make([]expr.Expr, len(cols))
	for i := range as.groups {
		exprs[i] = &expr.Const{V: value.Null, T: cols[i].Type}
		if j := slices.Index(set, i); j >= 0 {
			exprs[i] = &expr.Col{Idx: j, T: cols[i].Type, Name: cols[i].Name}
		}
	}
	for i := range as.aggs {
		exprs[len(as.groups)+i] = &expr.Col{Idx: len(set) + i, T: as.aggs[i].Type, Name: as.aggs[i].Name}
	}
	for k, args := range as.groupings {
		exprs[len(as.groups)+len(as.aggs)+k] = &expr.Const{V: value.NewInt(value.Int4, groupingMask(args, set)), T: value.Int4Type}
	}
	return &plan.Project{Input: branch, Exprs: exprs, Cols: cols}
}

// groupingMask is GROUPING(args) in the branch of set: a bit per argument,
// the first the most significant, set when the set does not group by it.
func groupingMask(args, set []int) int64 {
	var mask int64
	for _, g := range args {
		mask <<= 1
		if !slices.Contains(set, g) {
			mask |= 1
		}
	}
	return mask
}

// bindGrouping binds GROUPING(args) above a grouping: 0 without grouping
// sets, else the column of the grouped row that each set's branch fills.
func (b *binder) bindGrouping(gf *pg_query.GroupingFunc) (expr.Expr, error) {
	as := b.agg
	if len(gf.Args) > 31 {
		return nil, b.stmt.errf(gf.Location, "54011", "GROUPING must have fewer than 32 arguments")
	}
	var args []int
	for _, a := range gf.Args {
		b.agg = nil
		e, err := b.bindExpr(as.input, a)
		b.agg = as
		if err != nil {
			return nil, err
		}
		j := slices.IndexFunc(as.groups, func(g expr.Expr) bool { return exprKey(g) == exprKey(e) })
		if j < 0 {
			return nil, b.stmt.errf(nodeLoc(a, gf.Location), pgerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level")
		}
		args = append(args, j)
	}
	if as.sets == nil {
		return &expr.Const{V: value.NewInt(value.Int4, 0), T: value.Int4Type}, nil
	}
	for k, prev := range as.groupings {
		if slices.Equal(prev, args) {
			return as.groupingHoles[k], nil
		}
	}
	c := &expr.Col{Idx: -1, T: value.Int4Type, Name: "grouping"}
	as.groupings = append(as.groupings, args)
	as.groupingHoles = append(as.groupingHoles, c)
	return c, nil
}

// outerAggregate binds an aggregate call met in a subquery whose arguments
// (with its FILTER and ORDER BY) read no column of the subquery but some of
// an enclosing query: as in PostgreSQL it is an aggregate of the nearest query level whose columns
// it reads. When that level is grouped and binding its select list or
// HAVING, the call is added to its aggregates and returned as an outer
// reference to its result, which decorrelation then reads like any other
// correlated value. It returns nil, nil when the call is the subquery's own
// (or is of a level that cannot have it, for the caller's error); s is the
// scope the call's arguments bind in.
func (b *binder) outerAggregate(s *scope, f *pg_query.FuncCall) (expr.Expr, error) {
	depth := b.aggLevel(s, f)
	if depth == 0 {
		return nil, nil
	}
	as := b.outers[depth-1].grouping
	if as == nil {
		if b.outers[depth-1].allowWindow {
			// The select list of an ungrouped query: PostgreSQL makes
			// the query grouped by this aggregate alone, which
			// subqueryAggregate finds one subquery deep only.
			return nil, b.refuse(f.Location, "an aggregate of an enclosing query, in a subquery nested in a subquery of its select list, is not supported").
				WithHint("add GROUP BY () to the enclosing query")
		}
		return nil, b.misplacedAggregateAt(f.Location, depth)
	}
	saved := as.b.agg
	as.b.agg = as
	e, err := as.b.bindAggCall(f)
	as.b.agg = saved
	if err != nil {
		return nil, err
	}
	c := e.(*expr.Col)
	// An outer reference past the level's input columns is a column of its
	// grouped row: domainOf maps it back.
	return &expr.Outer{Depth: depth, Idx: len(as.input.cols) + c.Idx, T: c.T, Name: c.Name}, nil
}

// hasSubLink reports whether n holds a subquery.
func hasSubLink(n *pg_query.Node) bool {
	found := false
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil || found {
			return
		}
		if n.GetSubLink() != nil {
			found = true
			return
		}
		forEachChild(n, walk)
	}
	walk(n)
	return found
}

// aggLevel returns how many query levels out the aggregate call f belongs,
// as PostgreSQL decides it: 0 (the level being bound, whose columns s
// holds) when its arguments, FILTER and ORDER BY read a column of it or
// none at all, else the nearest enclosing level whose columns they read.
func (b *binder) aggLevel(s *scope, f *pg_query.FuncCall) int {
	if len(b.outers) == 0 {
		return 0
	}
	nodes := append([]*pg_query.Node{}, f.Args...)
	if f.AggFilter != nil {
		nodes = append(nodes, f.AggFilter)
	}
	for _, o := range f.AggOrder {
		nodes = append(nodes, o.GetSortBy().Node)
	}
	// Bound here, they read this level's columns (expr.Col) or an
	// enclosing one's (expr.Outer). A subquery or an aggregate in them
	// leaves the call to this level, whose binding reports what is wrong.
	depth := 0
	for _, n := range nodes {
		if hasSubLink(n) || hasAggregate(n) {
			return 0
		}
		saved := b.agg
		b.agg = nil
		e, err := b.bindExpr(s, n)
		b.agg = saved
		if err != nil {
			return 0
		}
		local := false
		expr.Walk(e, func(x expr.Expr) bool {
			switch x := x.(type) {
			case *expr.Col:
				local = true
			case *expr.Outer:
				if depth == 0 || x.Depth < depth {
					depth = x.Depth
				}
			}
			return !local
		})
		if local {
			return 0
		}
	}
	return depth
}

// ownAggregate reports whether the select list targets calls an aggregate
// of the level whose columns s holds, which makes that level grouped: an
// aggregate of an enclosing query does not.
func (b *binder) ownAggregate(s *scope, targets []*pg_query.Node) bool {
	found := false
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil || found {
			return
		}
		if sl := n.GetSubLink(); sl != nil {
			walk(sl.Testexpr)
			return
		}
		if f := aggCall(n); f != nil {
			found = b.aggLevel(s, f) == 0
			return
		}
		forEachChild(n, walk)
	}
	for _, t := range targets {
		walk(t)
	}
	return found
}

// subqueryAggregate reports whether a subquery of the select list targets
// calls an aggregate of the level whose columns s holds (SELECT (SELECT
// max(t.b) FROM u) FROM t), at any depth of nesting, which makes that
// level grouped, as in PostgreSQL.
func (b *binder) subqueryAggregate(s *scope, targets []*pg_query.Node) bool {
	found := false
	var inSub func(sel *pg_query.SelectStmt, outers []*scope, depth int)
	// walk looks for subqueries in n, an expression of the level whose
	// enclosing levels are outers (s at depth-1).
	var walk func(n *pg_query.Node, outers []*scope, depth int)
	walk = func(n *pg_query.Node, outers []*scope, depth int) {
		if n == nil || found {
			return
		}
		if sl := n.GetSubLink(); sl != nil {
			if sel := sl.Subselect.GetSelectStmt(); sel != nil && sel.Op == pg_query.SetOperation_SETOP_NONE && sel.WithClause == nil {
				inSub(sel, outers, depth)
			}
			return
		}
		forEachChild(n, func(c *pg_query.Node) { walk(c, outers, depth) })
	}
	inSub = func(sel *pg_query.SelectStmt, outers []*scope, depth int) {
		clauses := []*pg_query.Node{sel.WhereClause, sel.HavingClause, {Node: &pg_query.Node_List{List: &pg_query.List{Items: sel.TargetList}}}}
		if !slices.ContainsFunc(clauses, func(n *pg_query.Node) bool { return hasAggregate(n) || hasSubLink(n) }) {
			return // no aggregate to place: spare binding its FROM
		}
		sub := &binder{rlsOpen: b.rlsOpen, lock: b.lock, cat: b.cat, stmt: b.stmt, stmtClock: b.stmtClock, forView: b.forView, ctes: b.ctes, rows: b.rowCounts(), outers: outers}
		_, rsc, err := sub.bindFrom(sel.FromClause)
		if err != nil {
			return
		}
		inner := append([]*scope{rsc}, outers...)
		var look func(n *pg_query.Node)
		look = func(n *pg_query.Node) {
			if n == nil || found {
				return
			}
			if n.GetSubLink() != nil {
				walk(n, inner, depth+1)
				return
			}
			if f := aggCall(n); f != nil {
				found = sub.aggLevel(rsc, f) == depth
				if !found {
					for _, a := range f.Args {
						look(a)
					}
				}
				return
			}
			forEachChild(n, look)
		}
		for _, c := range clauses {
			look(c)
		}
	}
	outers := append([]*scope{s}, b.outers...)
	for _, t := range targets {
		walk(t, outers, 1)
	}
	return found
}

// stringAggType is the type of string_agg's overload that a value and a
// separator resolve to: bytea for a bytea value, else text; 42883 when
// either does not convert to it implicitly.
func stringAggType(v, sep expr.Expr) (value.Type, error) {
	t := value.TextType
	if v.Type().Kind == value.Bytea {
		t = value.ByteaType
	}
	for _, e := range []expr.Expr{v, sep} {
		if k := e.Type().Kind; k != value.Unknown && k != t.Kind && !value.CanCast(k, t.Kind, false) {
			return t, pgerr.New(pgerr.UndefinedFunction, "function string_agg(%s, %s) does not exist", v.Type().Kind, sep.Type().Kind).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
	}
	return t, nil
}

// distinctArg reports whether an aggregate's ORDER BY expression, raw x
// bound to e, is one of its arguments, as PostgreSQL requires with
// DISTINCT: the same tree as written, or the same bound expression.
func distinctArg(f *pg_query.FuncCall, x *pg_query.Node, e expr.Expr, call *plan.AggCall) bool {
	k := rawKey(x)
	for _, a := range f.Args {
		if rawKey(a) == k {
			return true
		}
	}
	for _, a := range []expr.Expr{call.Arg, call.Sep, call.X} {
		if a != nil && reflect.DeepEqual(a, e) {
			return true
		}
	}
	return false
}
