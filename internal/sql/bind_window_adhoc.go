package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// bindWinAggAdHoc binds, in an ad-hoc query, an aggregate over a window
// that views do not maintain there: the statistical aggregates (corr,
// covar_*, regr_*) and json_agg, jsonb_agg, json_object_agg and
// jsonb_object_agg. The call is bound as the same aggregate over a group
// would be, its arguments over the window's input row, and computed over
// each row's frame by the from-scratch evaluation (plan.WinFunc.Call).
// finish maps the window's column to the call's value (the json
// aggregates' finish over their array_agg). It returns a nil fn when f
// is not such a call, for bindWinFunc to bind or refuse.
func (b *binder) bindWinAggAdHoc(s *scope, f *pg_query.FuncCall) (fn *plan.WinFunc, finish func(expr.Expr) expr.Expr, err error) {
	name := opName(f.Funcname)
	if b.forView || f.AggDistinct || len(f.AggOrder) > 0 || f.AggWithinGroup || !plan.IsAggName(name) {
		return nil, nil, nil
	}
	if _, ok := plan.WinFuncNames[name]; ok {
		return nil, nil, nil
	}
	if agg, ok := plan.LookupAgg(name); ok && (!agg.Has(plan.AggNotMaintained) || agg.Has(plan.AggOrderedSet)) {
		return nil, nil, nil
	}
	for _, a := range f.Args {
		if hasAggregate(a) {
			return nil, nil, nil // over grouped rows: refused by bindWinFunc
		}
	}
	call := proto.Clone(f).(*pg_query.FuncCall)
	call.Over = nil
	saved, savedArgs := b.agg, b.aggArgs
	as := &aggScope{input: s}
	b.agg, b.aggArgs = as, nil
	e, err := b.bindAggCall(call)
	b.agg, b.aggArgs = saved, savedArgs
	if err != nil {
		return nil, nil, err
	}
	if len(as.aggs) != 1 {
		return nil, nil, b.stmt.errf(f.Location, pgerr.Internal, "window aggregate %s bound to %d aggregates", name, len(as.aggs))
	}
	c := as.aggs[0]
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
