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
	if !b.ownAggregate(rsc, sel.TargetList) {
		return nil, errGeneral // an enclosing query's aggregate: not grouped
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
	var dom *expr.Domain // the subquery is of its column's domain (array_agg of d is of d[])
	if err == nil {
		dom = b.exprDomain(as.post, val)
	}
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
	if dom != nil {
		b.noteDomain(result, dom)
	}
	return result, nil
}

// bindWindow binds a window function call in a select list: a Window node
// under the projection computes it.
func (b *binder) bindWindow(s *scope, f *pg_query.FuncCall) (expr.Expr, error) {
	if !s.allowWindow {
		return nil, b.misplacedWindow(f.Location)
	}
	w := f.Over
	if w.Name != "" && w.Refname == "" && len(w.PartitionClause) == 0 && len(w.OrderClause) == 0 && w.FrameOptions&frameNonDefault == 0 {
		// OVER w
		nw := b.windows[w.Name]
		if nw == nil {
			return nil, b.stmt.errf(w.Location, "42704", "window \"%s\" does not exist", w.Name)
		}
		w = nw
	} else if w.Refname != "" {
		var err error
		if w, err = b.resolveWindow(w); err != nil {
			return nil, err
		}
	}
	win := &plan.Window{Pos: f.Location}
	for _, p := range w.PartitionClause {
		e, err := b.bindExpr(s, p)
		if err != nil {
			return nil, err
		}
		if err := b.noJSONOrder(e.Type(), "equality", nodeLoc(p, -1)); err != nil {
			return nil, err
		}
		if err := b.windowKeyCollation(s, e); err != nil {
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
		if err := b.windowKeyCollation(s, e); err != nil {
			return nil, err
		}
		desc, nullsFirst, err := b.sortDirection(sb)
		if err != nil {
			return nil, err
		}
		win.Order = append(win.Order, plan.SortKey{Expr: e, Desc: desc, NullsFirst: nullsFirst})
	}
	if loc := aggregateLoc(f.AggFilter); loc >= 0 {
		return nil, b.stmt.errf(loc, pgerr.GroupingError, "aggregate functions are not allowed in FILTER")
	}
	fn, finish, err := b.bindWinAggAdHoc(s, f)
	if fn == nil && err == nil {
		fn, err = b.bindWinFunc(s, f)
	}
	if err != nil {
		return nil, err
	}
	if finish == nil {
		finish = func(c expr.Expr) expr.Expr { return c }
	}
	if fn.Frame, err = b.bindFrame(s, w, win.Order); err != nil {
		return nil, err
	}
	win.Func = *fn
	dom, domKnown := b.winDomain(s, fn)
	if as := b.agg; as != nil && s == as.post {
		// Over a grouped query the window runs over the grouped rows
		// (after HAVING): its column follows theirs, numbered by finish.
		c := &expr.Col{Idx: -1, T: fn.Type, Name: fn.Name}
		if domKnown {
			b.noteDomain(c, dom)
		}
		as.windows = append(as.windows, winHole{win: win, col: c})
		return finish(b.windowCollated(s, fn, c, f.Location)), nil
	}
	idx := len(s.cols)
	if s.star == nil {
		s.star = s.starCols()
	}
	s.cols = append(s.cols, scopeCol{typ: fn.Type, src: Origin{Domain: dom, Typed: domKnown}})
	s.pending = append(s.pending, func(input plan.Node) plan.Node {
		win.Input = input
		win.Cols = append(append([]plan.Column{}, input.Columns()...), plan.Column{Name: fn.Name, Type: fn.Type})
		return win
	})
	return finish(b.windowCollated(s, fn, &expr.Col{Idx: idx, T: fn.Type, Name: fn.Name}, f.Location)), nil
}

// resolveWindow returns w with the named window it copies (OVER (w …),
// or w2 AS (w …)) folded in, as PostgreSQL copies it: the partition and
// the order come from the named window, which must have no frame; w may
// add an order only if the named window has none, and its own frame.
func (b *binder) resolveWindow(w *pg_query.WindowDef) (*pg_query.WindowDef, error) {
	if w.Refname == "" {
		return w, nil
	}
	ref := b.windows[w.Refname]
	if ref == nil {
		return nil, b.stmt.errf(w.Location, "42704", "window \"%s\" does not exist", w.Refname)
	}
	switch {
	case len(w.PartitionClause) > 0:
		return nil, b.stmt.errf(w.Location, "42P20", "cannot override PARTITION BY clause of window \"%s\"", w.Refname)
	case len(w.OrderClause) > 0 && len(ref.OrderClause) > 0:
		return nil, b.stmt.errf(w.Location, "42P20", "cannot override ORDER BY clause of window \"%s\"", w.Refname)
	case ref.FrameOptions&frameNonDefault != 0:
		return nil, b.stmt.errf(w.Location, "42P20", "cannot copy window \"%s\" because it has a frame clause", w.Refname)
	}
	out := &pg_query.WindowDef{Name: w.Name, PartitionClause: ref.PartitionClause, OrderClause: ref.OrderClause,
		FrameOptions: w.FrameOptions, StartOffset: w.StartOffset, EndOffset: w.EndOffset, Location: w.Location}
	if len(w.OrderClause) > 0 {
		out.OrderClause = w.OrderClause
	}
	return out, nil
}

// Frame options of a WindowDef, as PostgreSQL's parser sets them.
const (
	frameNonDefault              = 0x1
	frameRange                   = 0x2
	frameRows                    = 0x4
	frameGroups                  = 0x8
	frameStartUnboundedPreceding = 0x20
	frameStartCurrentRow         = 0x200
	frameEndUnboundedFollowing   = 0x100
	frameEndCurrentRow           = 0x400
	frameStartOffsetPreceding    = 0x800
	frameEndOffsetPreceding      = 0x1000
	frameStartOffsetFollowing    = 0x2000
	frameEndOffsetFollowing      = 0x4000
	frameExcludeCurrentRow       = 0x8000
	frameExcludeGroup            = 0x10000
	frameExcludeTies             = 0x20000
)

// bindFrame binds a window's frame: ROWS and GROUPS with constant
// offsets, RANGE with constant offsets over its one ORDER BY value, and
// its exclusion.
func (b *binder) bindFrame(s *scope, w *pg_query.WindowDef, order []plan.SortKey) (plan.Frame, error) {
	o := w.FrameOptions
	fr := plan.Frame{Rows: o&frameRows != 0, Groups: o&frameGroups != 0}
	switch {
	case fr.Groups && len(w.OrderClause) == 0:
		return fr, b.stmt.errf(w.Location, "42P20", "GROUPS mode requires an ORDER BY clause")
	case o&(frameStartOffsetPreceding|frameStartOffsetFollowing|frameEndOffsetPreceding|frameEndOffsetFollowing) != 0 && !fr.Rows && !fr.Groups:
		return b.bindRangeFrame(s, w, order)
	}
	var outerOff expr.Expr
	off := func(n *pg_query.Node, what string) (int64, error) {
		outerOff = nil
		n, err := b.frameOffsetArg(n)
		if err != nil {
			return 0, err
		}
		e, err := b.bindExpr(s, n)
		if err == nil {
			e, err = b.coerce(e, value.Int8Type, nodeLoc(n, w.Location))
		}
		if err != nil {
			return 0, err
		}
		if len(expr.Columns(e)) > 0 {
			mode := "ROWS"
			if fr.Groups {
				mode = "GROUPS"
			}
			return 0, b.frameOffsetVariables(n, mode, w.Location)
		}
		if e.Volatile() {
			return 0, b.refuse(nodeLoc(n, w.Location), "a frame offset must be a constant")
		}
		if expr.HasOuter(e) {
			// Evaluated per partition, which decorrelation leads with
			// the outer values.
			outerOff = e
			return 0, nil
		}
		v, err := e.Eval(nil)
		switch {
		case err != nil:
			return 0, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(n, w.Location)))
		case v.IsNull():
			return 0, b.stmt.errf(nodeLoc(n, w.Location), "22004", "frame %s offset must not be null", what)
		case v.Int() < 0:
			return 0, b.stmt.errf(nodeLoc(n, w.Location), "22013", "frame %s offset must not be negative", what)
		}
		return v.Int(), nil
	}
	err := setFrameBounds(&fr, w, func(n *pg_query.Node, what string, start bool) error {
		v, err := off(n, what)
		if start {
			fr.StartOff, fr.StartExpr = v, outerOff
		} else {
			fr.EndOff, fr.EndExpr = v, outerOff
		}
		return err
	})
	return fr, err
}

// bindRangeFrame binds a RANGE frame with an offset: PostgreSQL's errors
// for an order of other than one value, a type without in_range, and an
// offset that is NULL, negative or NaN.
func (b *binder) bindRangeFrame(s *scope, w *pg_query.WindowDef, order []plan.SortKey) (plan.Frame, error) {
	var fr plan.Frame
	// PostgreSQL drops an ORDER BY item that repeats an earlier one
	// (whatever its direction) before it counts them.
	distinct := min(len(order), 1)
	for _, o := range order[distinct:] {
		if o.Expr.String() != order[0].Expr.String() {
			distinct++
		}
	}
	if distinct != 1 {
		return fr, b.stmt.errf(w.Location, "42P20", "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
	}
	kt := order[0].Expr.Type()
	ot, ok := plan.RangeOffsetType(kt)
	var outerOff expr.Expr
	off := func(n *pg_query.Node, what string) (value.Value, error) {
		outerOff = nil
		loc := nodeLoc(n, w.Location)
		if !ok {
			return value.Null, b.refuse(loc, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", kt)
		}
		n, err := b.frameOffsetArg(n)
		if err != nil {
			return value.Null, err
		}
		e, err := b.bindExpr(s, n)
		if err != nil {
			return value.Null, err
		}
		// The offset types PostgreSQL casts to implicitly.
		ek := e.Type().Kind
		fits := ek == value.Unknown || ek == ot.Kind
		switch {
		case ot.Kind.IsInteger():
			fits = fits || ek.IsInteger()
		case ot.Kind == value.Numeric:
			fits = fits || ek.IsInteger()
		case ot.Kind.IsFloat():
			fits = fits || ek.IsNumeric()
		}
		if !fits {
			return value.Null, b.refuse(loc, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s", kt, e.Type()).
				WithHint("Cast the offset value to an appropriate type.")
		}
		if e, err = b.coerce(e, ot, loc); err != nil {
			return value.Null, err
		}
		if len(expr.Columns(e)) > 0 {
			return value.Null, b.frameOffsetVariables(n, "RANGE", w.Location)
		}
		if e.Volatile() {
			return value.Null, b.refuse(loc, "a frame offset must be a constant")
		}
		if expr.HasOuter(e) {
			outerOff = e // evaluated per partition, as ROWS's
			return value.Null, nil
		}
		v, err := e.Eval(nil)
		switch {
		case err != nil:
			return value.Null, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		case v.IsNull():
			return value.Null, b.stmt.errf(loc, "22004", "frame %s offset must not be null", what)
		}
		if err := plan.CheckRangeOffset(v); err != nil {
			return value.Null, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		return v, nil
	}
	err := setFrameBounds(&fr, w, func(n *pg_query.Node, what string, start bool) error {
		v, err := off(n, what)
		if start {
			fr.StartVal, fr.StartExpr = v, outerOff
		} else {
			fr.EndVal, fr.EndExpr = v, outerOff
		}
		return err
	})
	return fr, err
}

// setFrameBounds sets fr's bounds and exclusion from w's frame options,
// calling off for each bound with an offset ("starting" or "ending").
func setFrameBounds(fr *plan.Frame, w *pg_query.WindowDef, off func(n *pg_query.Node, what string, start bool) error) error {
	o := w.FrameOptions
	switch {
	case o&frameExcludeCurrentRow != 0:
		fr.Exclude = plan.ExcludeCurrentRow
	case o&frameExcludeGroup != 0:
		fr.Exclude = plan.ExcludeGroup
	case o&frameExcludeTies != 0:
		fr.Exclude = plan.ExcludeTies
	}
	var err error
	switch {
	case o&frameStartUnboundedPreceding != 0:
		fr.Start = plan.UnboundedPreceding
	case o&frameStartCurrentRow != 0:
		fr.Start = plan.CurrentRow
	case o&frameStartOffsetPreceding != 0:
		fr.Start = plan.OffsetPreceding
		err = off(w.StartOffset, "starting", true)
	case o&frameStartOffsetFollowing != 0:
		fr.Start = plan.OffsetFollowing
		err = off(w.StartOffset, "starting", true)
	}
	if err != nil {
		return err
	}
	switch {
	case o&frameEndUnboundedFollowing != 0:
		fr.End = plan.UnboundedFollowing
	case o&frameEndCurrentRow != 0:
		fr.End = plan.CurrentRow
	case o&frameEndOffsetPreceding != 0:
		fr.End = plan.OffsetPreceding
		err = off(w.EndOffset, "ending", false)
	case o&frameEndOffsetFollowing != 0:
		fr.End = plan.OffsetFollowing
		err = off(w.EndOffset, "ending", false)
	}
	return err
}

// bindWinFunc binds the function of a window function call: its kind,
// arguments and result type.
func (b *binder) bindWinFunc(s *scope, f *pg_query.FuncCall) (*plan.WinFunc, error) {
	name := opName(f.Funcname)
	fn := &plan.WinFunc{Name: name}
	// PostgreSQL's errors, in its order.
	if f.AggWithinGroup && isHypothetical(name) {
		return nil, b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "OVER is not supported for ordered-set aggregate %s", name)
	}
	if agg, ok := plan.LookupAgg(name); ok && agg.Has(plan.AggOrderedSet) && f.AggWithinGroup {
		return nil, b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "OVER is not supported for ordered-set aggregate %s", name)
	} else if ok && agg.Has(plan.AggOrderedSet) {
		return nil, b.orderedSetWithoutGroup(s, f, name)
	}
	switch {
	case f.AggDistinct:
		return nil, b.refuse(f.Location, "DISTINCT is not implemented for window functions")
	case len(f.AggOrder) > 0:
		return nil, b.refuse(f.Location, "aggregate ORDER BY is not implemented for window functions")
	}
	nargs := func(lo, hi int) error {
		if len(f.Args) < lo || len(f.Args) > hi || f.AggStar {
			return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(f.Args))
		}
		return nil
	}
	// constArg binds a constant integer argument: ntile's, nth_value's,
	// lag's and lead's offset.
	constArg := func(n *pg_query.Node) error {
		e, err := b.bindExpr(s, n)
		if err == nil {
			err = b.windowCountType(s, f, e)
		}
		if err == nil {
			e, err = b.coerce(e, value.Int4Type, nodeLoc(n, f.Location))
		}
		if err != nil {
			return err
		}
		if len(expr.Columns(e)) > 0 || e.Volatile() || expr.HasOuter(e) {
			// A view evaluates one that reads only the outer query's
			// columns once per partition, which decorrelation leads
			// with the outer values; one that reads the row's own
			// columns for each row (lag, lead, nth_value), as
			// PostgreSQL does, and ntile from the partition's first
			// row where it is not NULL. A volatile count would change
			// under maintenance.
			own := len(expr.Columns(e)) > 0
			if !b.forView || !e.Volatile() {
				fn.NExpr, fn.NPerRow = e, own // evaluated per row ad hoc
				return nil
			}
			return b.refuse(nodeLoc(n, f.Location), "the argument of %s must be a constant here", name).
				WithHint("ad-hoc queries accept it; in a view, use a constant")
		}
		v, err := e.Eval(nil)
		if err != nil {
			return pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(n, f.Location)))
		}
		if v.IsNull() {
			fn.NullN = true
		} else {
			fn.N = v.Int()
		}
		return nil
	}
	valueArg := func() error {
		a, err := b.bindExpr(s, f.Args[0])
		if err != nil {
			return err
		}
		if a.Type().Kind == value.Unknown {
			if a, err = b.coerce(a, value.TextType, f.Location); err != nil {
				return err
			}
		}
		fn.Arg, fn.Type = a, a.Type()
		return nil
	}
	kind, ok := plan.WinFuncNames[name]
	if !ok {
		agg, isAgg := plan.LookupAgg(name)
		switch {
		case isAgg && !agg.Has(plan.AggNotMaintained):
		case plan.IsAggName(name) || isUserAggCall(f):
			err := b.refuse(f.Location, "aggregate %s is not supported as a window function", name)
			if b.forView {
				err = err.WithHint("ad-hoc queries accept it")
			}
			return nil, err
		default:
			return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s is not a window function", name)
		}
		fn.Kind, fn.Agg = plan.WinAgg, agg
		if f.AggFilter != nil {
			p, err := b.bindExpr(s, f.AggFilter)
			if err != nil {
				return nil, err
			}
			if fn.Filter, err = b.toBool(p, "FILTER", f.Location); err != nil {
				return nil, err
			}
		}
		if f.AggStar {
			if agg != plan.AggCount {
				return nil, b.stmt.errf(f.Location, pgerr.SyntaxError, "%s(*) must be used to call a parameterless aggregate function", name)
			}
			fn.Agg, fn.Type = plan.AggCountStar, value.Int8Type
			return fn, nil
		}
		var sep expr.Expr
		if agg.Has(plan.AggSeparated) {
			if len(f.Args) != 2 {
				return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(f.Args))
			}
			var err error
			if sep, err = b.bindExpr(s, f.Args[1]); err != nil {
				return nil, err
			}
		} else if err := nargs(1, 1); err != nil {
			return nil, err
		}
		if err := valueArg(); err != nil {
			return nil, err
		}
		if agg.Has(plan.AggSeparated) {
			// string_agg(bytea, bytea) or string_agg(text, text), by the value.
			t, err := stringAggType(fn.Arg, sep)
			if err != nil {
				return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
			}
			if fn.Sep, err = b.coerce(sep, t, f.Location); err != nil {
				return nil, err
			}
			if fn.Arg, err = b.coerce(fn.Arg, t, f.Location); err != nil {
				return nil, err
			}
		}
		fn.Arg = timeAggArg(agg, fn.Arg)
		t, err := agg.ResultType(fn.Arg.Type())
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
		}
		if b.forView && t.Kind == value.Bit {
			return nil, b.refuse(f.Location, "%s of bit strings is not supported in a materialized view", name).
				WithHint("ad-hoc queries accept it; in a view, aggregate integers")
		}
		fn.Type = t
		return fn, nil
	}
	if f.AggFilter != nil {
		return nil, b.refuse(f.Location, "FILTER is not implemented for non-aggregate window functions")
	}
	fn.Kind = kind
	switch kind {
	case plan.WinRowNumber, plan.WinRank, plan.WinDenseRank:
		fn.Type = value.Int8Type
		return fn, nargs(0, 0)
	case plan.WinPercentRank, plan.WinCumeDist:
		fn.Type = value.Float8Type
		return fn, nargs(0, 0)
	case plan.WinNtile:
		fn.Type = value.Int4Type
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		if err := constArg(f.Args[0]); err != nil {
			return nil, err
		}
		return fn, nil
	case plan.WinFirstValue, plan.WinLastValue:
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		return fn, valueArg()
	case plan.WinNthValue:
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		if err := valueArg(); err != nil {
			return nil, err
		}
		if err := constArg(f.Args[1]); err != nil {
			return nil, err
		}
		return fn, nil
	}
	// lag, lead
	if err := nargs(1, 3); err != nil {
		return nil, err
	}
	if err := valueArg(); err != nil {
		return nil, err
	}
	fn.N = 1
	if len(f.Args) > 1 {
		if err := constArg(f.Args[1]); err != nil {
			return nil, err
		}
	}
	if len(f.Args) > 2 {
		// As lag(anycompatible, integer, anycompatible): the value and
		// the default take their common type.
		es, t, err := b.bindCommon(s, []*pg_query.Node{f.Args[0], f.Args[2]}, name, f.Location)
		if err != nil {
			return nil, err
		}
		fn.Arg, fn.Default, fn.Type = es[0], es[1], t
	}
	return fn, nil
}
