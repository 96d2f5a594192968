package compile

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// aggregateOps maps an Aggregate's catalog calls to the GroupBy operator's
// aggregates. The operator keeps an integer-ordered argument's values
// itself, per group (16 bytes a value, where the table's index takes 42 a
// row, and a change updates two small ordered sets, where it would descend
// twice into the table's B+tree of every row: a single change through a
// GROUP BY with MIN and MAX at one million rows cost twice the CPU).
// Otherwise MIN and MAX over a stored relation's rows, whose group keys
// and argument are the relation's columns, refill from the relation's
// index by those columns (the spots returned, which the engine fills);
// over other inputs they get an arrangement of the input keyed by the
// group key and sorted by the argument, which the operator owns and
// refills from; MIN and MAX of the same argument share one.
func (cp *compiler) aggregateOps(n *plan.Aggregate, cols []string) ([]op.Aggregate, []ReserveSpot, error) {
	out := make([]op.Aggregate, len(n.Aggs))
	var spots []ReserveSpot
	b, isBase := cp.baseRows(n.Input)
	indexes := map[string]*dataflow.Arrangement{} // MIN and MAX of one argument share one
	for i, a := range n.Aggs {
		if (a.Func == plan.AggCountStar) != a.Star {
			return nil, nil, pgerr.New(pgerr.Internal, "aggregate %s: count(*) and its catalog entry disagree", a.String())
		}
		oa := op.Aggregate{Func: a.Func, Arg: a.Arg, Sep: a.Sep, X: a.X, Filter: a.Filter, Distinct: a.Distinct, User: a.User}
		oa.OrderBy = sortKeys(a.OrderBy)
		if a.Func.Has(plan.AggOrderedSet) {
			oa.Direct = a.Direct
		}
		if a.Func.Has(plan.AggKeepsBest) && isBase && !value.IntOrdered(a.Arg.Type().Kind) {
			if sp, ok := b.spot(n.GroupBy, []dataflow.SortKey{{Expr: a.Arg}}); ok {
				oa.Base, oa.Index = b.rows, dataflow.NewArrangement(sp.Spec)
				sp.Slot = i
				spots = append(spots, sp)
				out[i] = oa
				continue
			}
		}
		if a.Func.Has(plan.AggKeepsBest) && !value.IntOrdered(a.Arg.Type().Kind) {
			k := expr.Key(a.Arg) // by position: a.v and b.v of a join print alike
			if oa.Index = indexes[k]; oa.Index == nil {
				oa.Index = dataflow.NewArrangement(dataflow.ArrangementSpec{
					Name: "refill index of " + a.Arg.String(), Columns: cols, Key: n.GroupBy,
					Sort: []dataflow.SortKey{{Expr: a.Arg}},
				})
				oa.OwnIndex = true
				indexes[k] = oa.Index
			}
		}
		out[i] = oa
	}
	return out, spots, nil
}

// sortKeys returns a plan's sort keys as operators take them; nil for
// none.
func sortKeys(keys []plan.SortKey) []dataflow.SortKey {
	if len(keys) == 0 {
		return nil
	}
	out := make([]dataflow.SortKey, len(keys))
	for i, k := range keys {
		out[i] = dataflow.SortKey{Expr: k.Expr, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out
}
