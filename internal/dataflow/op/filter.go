package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Filter keeps no state: it passes on the entries whose row satisfies a
// predicate (TRUE; NULL and FALSE drop the row), with their weights.
// Retractions are filtered like assertions, so a row updated so that it
// stops matching leaves the output: its old version's retraction passes, its
// new version's assertion does not.
type Filter struct {
	pred expr.Expr
	// fast, when set, tests pred for the rows it can (an integer column
	// against a constant): a change's one or two rows cost a few
	// instructions each, not a generic evaluation.
	fast    expr.ColConst
	hasFast bool
	out     zset.ZSet
}

var _ dataflow.Operator = (*Filter)(nil)

// NewFilter returns a filter on pred, a boolean expression over the input
// row.
func NewFilter(pred expr.Expr) *Filter {
	f := &Filter{pred: pred}
	f.fast, f.hasFast = expr.ColConstOf(pred)
	return f
}

// Step returns the input's entries that pass. The output is a subsequence
// of the consolidated input, so it is consolidated.
func (f *Filter) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatchN(f.out, len(in[0]))
	f.out = nil
	for i, e := range in[0] {
		dataflow.TouchRows(in[0], i)
		if f.hasFast {
			if pass, ok := f.fast.Test(e.Row); ok {
				if pass {
					out = append(out, e)
				}
				continue
			}
		}
		v, err := f.pred.Eval(e.Row)
		if err != nil {
			clear(out)
			f.out = out[:0]
			return nil, err
		}
		if isTrue(v) {
			out = append(out, e)
		}
	}
	f.out = out
	return out, nil
}

func isTrue(v value.Value) bool { return v.Kind() == value.Bool && v.Bool() }

// Commit does nothing: Filter has no state.
func (f *Filter) Commit() {}

// Abort does nothing: Filter has no state.
func (f *Filter) Abort() {}

// Info describes the filter.
func (f *Filter) Info() dataflow.Info {
	return dataflow.Info{Kind: "Filter", Detail: f.pred.String(), State: "none", Cost: "O(change)"}
}

// State is empty.
func (f *Filter) State() dataflow.StateSize { return dataflow.StateSize{} }
