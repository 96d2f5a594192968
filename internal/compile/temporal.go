package compile

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// ClockInput is the name of the circuit input that carries the clock to
// temporal filters: a batch of one row, the new time (timestamptz), in a
// step where time has advanced. No relation can have this name.
const ClockInput = "\x00clock"

// temporal compiles a filter whose predicate reads the clock: a Filter of
// the conjuncts that do not, then a Temporal of those that do, fed by the
// clock. The binder has accepted each of them (expr.AsTemporal); a plan
// rewrite may still have combined them in a way that is not one.
func (cp *compiler) temporal(n *plan.Filter, in dataflow.NodeID) (dataflow.NodeID, error) {
	var rest []expr.Expr
	var conds []*expr.Temporal
	for _, c := range plan.Conjuncts(n.Pred) {
		if !expr.ReadsClock(c) {
			rest = append(rest, c)
			continue
		}
		t, why := expr.AsTemporal(c)
		if t == nil {
			return 0, refuseClock(why)
		}
		conds = append(conds, t)
	}
	if len(rest) > 0 {
		in = cp.c.Add(op.NewFilter(plan.AndOf(rest)), in)
	}
	clock, ok := cp.inputs[ClockInput]
	if !ok {
		clock = cp.c.Input(ClockInput)
		cp.inputs[ClockInput] = clock
	}
	t := op.NewTemporal(conds, 0)
	cp.out.Temporal = append(cp.out.Temporal, t)
	return cp.c.Add(t, in, clock), nil
}

// refuseClock is the error of a use of the clock a view cannot maintain.
func refuseClock(why string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "now() cannot be maintained here: %s", why).
		WithHint("a view maintains comparisons of a row with the clock in its WHERE, ts > now() - interval '1 hour' or ts + interval '1 hour' > now(), ANDed with other conditions")
}
