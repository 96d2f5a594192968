// min and max of a string whose implicit collations conflict.
package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// minMaxCollation makes res, the result of min or max (call, bound over
// as) of a string whose implicit collations conflict (max(c || e) of a
// "C" and an ICU column, or a column without one), fail as PostgreSQL's does: its transition
// keeps the first value that is not NULL and compares each later one
// with it, under no collation (42P22), so a group of two such values
// fails. count of the argument under the call's FILTER tells, an
// aggregate added to as. Any other call's result is returned as it is.
func (b *binder) minMaxCollation(as *aggScope, call *plan.AggCall, res expr.Expr) expr.Expr {
	if call.Func != plan.AggMin && call.Func != plan.AggMax || call.Arg == nil || !isString(call.Arg.Type().Kind) ||
		b.scopedCollation(as.input, call.Arg).strength != collConflict && !b.uncollatedRef(as.input, call.Arg) {
		return res
	}
	cnt := plan.AggCall{Name: "count", Func: plan.AggCount, Arg: call.Arg, Filter: call.Filter, Type: value.Int8Type}
	key := aggKey(&cnt)
	i := -1
	for j := range as.aggs {
		if aggKey(&as.aggs[j]) == key {
			i = j
		}
	}
	if i < 0 {
		as.aggs = append(as.aggs, cnt)
		i = len(as.aggs) - 1
	}
	count := &expr.Col{Idx: len(as.groups) + i, T: value.Int8Type, Name: "count"}
	def := &expr.FuncDef{Name: call.Name, Result: res.Type(), Eval: func(args []value.Value) (value.Value, error) {
		if !args[1].IsNull() && args[1].Int() > 1 {
			return value.Null, pgerr.New("42P22", "could not determine which collation to use for string comparison").
				WithHint("Use the COLLATE clause to set the collation explicitly.")
		}
		return args[0], nil
	}, Print: func(args []expr.Expr) string { return args[0].String() }}
	return &expr.Func{Def: def, Args: []expr.Expr{res, count}, T: res.Type()}
}
