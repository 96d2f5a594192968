package exec

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// AggregateOps translates an Aggregate's calls into the GroupBy operator's
// aggregates. MIN and MAX of an argument that is not integer-ordered get an
// arrangement of the input keyed by the group key and sorted by the
// argument, which the operator owns and refills from; MIN and MAX of the
// same argument share one. The operator keeps an integer-ordered
// argument's values itself.
func AggregateOps(n *plan.Aggregate, cols []string) ([]op.Aggregate, error) {
	out := make([]op.Aggregate, len(n.Aggs))
	indexes := map[string]*dataflow.Arrangement{} // MIN and MAX of one argument share one
	for i, a := range n.Aggs {
		f, ok := op.AggFuncByName(a.Name)
		if a.Star {
			f, ok = op.CountStar, true
		}
		if !ok {
			return nil, pgerr.New(pgerr.UndefinedFunction, "aggregate %s does not exist", a.Name)
		}
		oa := op.Aggregate{Func: f, Arg: a.Arg, Sep: a.Sep, Filter: a.Filter, Distinct: a.Distinct}
		oa.OrderBy = SortKeys(a.OrderBy)
		if (f == op.Min || f == op.Max) && !value.IntOrdered(a.Arg.Type().Kind) {
			k := a.Arg.String()
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
	return out, nil
}

// aggregate evaluates a grouping once, with the same operator a view uses,
// fed the whole input as one batch.
func aggregate(n *plan.Aggregate, src Source) ([]value.Row, error) {
	in, err := Run(n.Input, src)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, c := range n.Input.Columns() {
		names = append(names, c.Name)
	}
	aggs, err := AggregateOps(n, names)
	if err != nil {
		return nil, err
	}
	g, err := op.NewGroupBy(n.GroupBy, aggs)
	if err != nil {
		return nil, err
	}
	batch := make(zset.ZSet, len(in))
	for i, r := range in {
		batch[i] = zset.Entry{Row: r, W: 1}
	}
	batch = zset.Consolidate(batch)
	var out zset.ZSet
	if len(batch) == 0 {
		out = g.Initial()
	} else {
		delta, err := g.Step([]zset.ZSet{batch})
		if err != nil {
			return nil, err
		}
		// A global aggregate's delta retracts its initial row.
		out = zset.Add(g.Initial(), delta)
	}
	var rows []value.Row
	for _, e := range out {
		for k := int64(0); k < e.W; k++ {
			rows = append(rows, e.Row)
		}
	}
	return rows, nil
}

// SortKeys returns a plan's sort keys as operators take them; nil for
// none.
func SortKeys(keys []plan.SortKey) []dataflow.SortKey {
	if len(keys) == 0 {
		return nil
	}
	out := make([]dataflow.SortKey, len(keys))
	for i, k := range keys {
		out[i] = dataflow.SortKey{Expr: k.Expr, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out
}
