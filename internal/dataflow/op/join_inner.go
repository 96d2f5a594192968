package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// InnerJoin keeps an index of each input on the join key (private, or
// shared arrangements it only reads); the delta is Δl⋈R + L⋈Δr + Δl⋈Δr
// against the indexes before the step, filtered by the residual and
// projected. With an empty key it is a cross join (or a join on a residual
// alone), costing O(change × other side).
type InnerJoin struct {
	c *joinCore
}

var _ dataflow.Operator = (*InnerJoin)(nil)

// NewInnerJoin returns an inner join; its inputs are the left and the right
// changes, in that order.
func NewInnerJoin(spec JoinSpec) *InnerJoin {
	j := &InnerJoin{}
	j.c = newJoinCore(spec, j.pair)
	j.c.emits = true
	j.c.apart = true
	return j
}

func (j *InnerJoin) pair(_ term, _ value.Row, wl int64, _ value.Row, wr int64) error {
	return j.c.emitCat(wl * wr)
}

// Step emits the three terms, consolidated, and stages the private indexes.
func (j *InnerJoin) Step(in []zset.ZSet) (zset.ZSet, error) {
	j.c.begin()
	if err := j.c.pairs(in[0], in[1]); err != nil {
		j.c.fail()
		return nil, err
	}
	return j.c.finish(in[0], in[1])
}

// Commit applies the staged changes to the private indexes.
func (j *InnerJoin) Commit() { j.c.commit() }

// Abort drops them.
func (j *InnerJoin) Abort() { j.c.abort() }

// Info describes the join.
func (j *InnerJoin) Info() dataflow.Info {
	return dataflow.Info{Kind: "InnerJoin", Detail: j.c.detail(), State: j.c.stateText(), Cost: j.c.cost()}
}

// State reports the private indexes (a shared one is its owner's).
func (j *InnerJoin) State() dataflow.StateSize { return j.c.state() }

// Left and Right return the join's indexes, for readers that share them.
func (j *InnerJoin) Left() *dataflow.Arrangement  { return j.c.left }
func (j *InnerJoin) Right() *dataflow.Arrangement { return j.c.right }

// SetGuard makes the join count its pairs against g.
func (j *InnerJoin) SetGuard(g *dataflow.Guard) { j.c.guard = g }

var _ dataflow.Guarded = (*InnerJoin)(nil)
