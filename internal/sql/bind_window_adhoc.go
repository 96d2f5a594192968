package sql

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// bindWinAggAdHoc binds an aggregate over a window that is bound as the
// same aggregate over a group would be: the statistical aggregates (corr,
// covar_*, regr_*) and json_agg, jsonb_agg, json_object_agg and
// jsonb_object_agg, and, ad hoc only, the other aggregates views do not
// maintain. The call's arguments are over the window's input row; the
// from-scratch evaluation computes it over each row's frame
// (plan.WinFunc.Call), a view's Window by the grouped aggregate's
// accumulator (the json aggregates' array_agg, listed in the window's
// order).
// Over grouped rows the arguments read group keys and the grouping's
// aggregates (corr(sum(x), g) OVER ()).
// finish maps the window's column to the call's value (the json
// aggregates' finish over their array_agg). It returns a nil fn when f
// is not such a call, for bindWinFunc to bind or refuse.
func (b *binder) bindWinAggAdHoc(s *scope, f *pg_query.FuncCall) (fn *plan.WinFunc, finish func(expr.Expr) expr.Expr, err error) {
	name := opName(f.Funcname)
	if f.AggDistinct || len(f.AggOrder) > 0 || f.AggWithinGroup || !plan.IsAggName(name) && !isUserAggCall(f) {
		return nil, nil, nil
	}
	if b.forView && !winAggMaintained(name) {
		return nil, nil, nil
	}
	if _, ok := plan.WinFuncNames[name]; ok {
		return nil, nil, nil
	}
	if agg, ok := plan.LookupAgg(name); ok && (!agg.Has(plan.AggNotMaintained) || agg.Has(plan.AggOrderedSet)) {
		return nil, nil, nil
	}
	call := proto.Clone(f).(*pg_query.FuncCall)
	call.Over = nil
	input := s
	var grouped []expr.Expr
	if b.agg != nil && s == b.agg.post {
		// Over grouped rows the arguments (which may call the grouping's
		// aggregates) and FILTER are bound over the grouped row first;
		// the call then reads them as the columns of a scope of their
		// own, which are replaced by them once it is bound.
		input = &scope{}
		over := func(n *pg_query.Node) (*pg_query.Node, error) {
			if n.GetAConst() != nil {
				return n, nil // typed by the call, as an unknown literal
			}
			e, err := b.bindExpr(s, n)
			if err != nil {
				return nil, err
			}
			name := fmt.Sprintf("grouped argument %d", len(grouped))
			input.cols = append(input.cols, scopeCol{qual: "\x00", name: name, typ: e.Type()})
			grouped = append(grouped, e)
			ref := &pg_query.ColumnRef{Fields: []*pg_query.Node{pg_query.MakeStrNode("\x00"), pg_query.MakeStrNode(name)}, Location: nodeLoc(n, f.Location)}
			return &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: ref}}, nil
		}
		for i, a := range call.Args {
			if call.Args[i], err = over(a); err != nil {
				return nil, nil, err
			}
		}
		if call.AggFilter != nil {
			if call.AggFilter, err = over(call.AggFilter); err != nil {
				return nil, nil, err
			}
		}
	}
	saved, savedArgs, savedWin := b.agg, b.aggArgs, b.winAgg
	as := &aggScope{input: input}
	b.agg, b.aggArgs, b.winAgg = as, nil, true
	e, err := b.bindAggCall(call)
	b.agg, b.aggArgs, b.winAgg = saved, savedArgs, savedWin
	if err != nil {
		return nil, nil, err
	}
	if len(as.aggs) != 1 {
		return nil, nil, b.stmt.errf(f.Location, pgerr.Internal, "window aggregate %s bound to %d aggregates", name, len(as.aggs))
	}
	c := as.aggs[0]
	if grouped != nil {
		read := func(x expr.Expr) expr.Expr {
			if x == nil {
				return nil
			}
			return expr.Rewrite(x, func(x expr.Expr) expr.Expr {
				if cc, ok := x.(*expr.Col); ok && cc.Idx < len(grouped) {
					return grouped[cc.Idx]
				}
				return x
			})
		}
		c.Arg, c.Sep, c.X, c.Filter = read(c.Arg), read(c.Sep), read(c.X), read(c.Filter)
	}
	fn = &plan.WinFunc{Kind: plan.WinAgg, Name: name, Agg: c.Func, Arg: c.Arg, Sep: c.Sep, Filter: c.Filter, Type: c.Type, Call: &c}
	finish = func(col expr.Expr) expr.Expr {
		return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
			if cc, ok := x.(*expr.Col); ok && cc.Idx == 0 {
				return col
			}
			return x
		})
	}
	return fn, finish, nil
}

// winAggMaintained reports whether a view's Window maintains the
// aggregate name bound as over a group: the regression aggregates
// (their accumulator of exact sums, slid along the partition) and the
// json aggregates (array_agg of each value's json, in the window's
// order).
func winAggMaintained(name string) bool {
	switch name {
	case "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg":
		return true
	}
	agg, ok := plan.LookupAgg(name)
	return ok && agg.Has(plan.AggTwoArgs)
}

// aggregateLoc returns the position of the first aggregate call in n
// (outside subqueries), or -1.
func aggregateLoc(n *pg_query.Node) int32 {
	var loc int32 = -1
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil || loc >= 0 {
			return
		}
		if f := aggCall(n); f != nil {
			loc = f.Location
			return
		}
		if n.GetSubLink() == nil {
			forEachChild(n, walk)
		}
	}
	walk(n)
	return loc
}

// orderedSetWithoutGroup is PostgreSQL's error for an ordered-set
// aggregate called over a window without WITHIN GROUP (percentile_cont(0.5)
// OVER ()): no function of that name takes those arguments.
func (b *binder) orderedSetWithoutGroup(s *scope, f *pg_query.FuncCall, name string) error {
	var types []string
	for _, a := range f.Args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return err
		}
		types = append(types, e.Type().String())
	}
	return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(types, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}
