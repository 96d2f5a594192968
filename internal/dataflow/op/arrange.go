package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/zset"
)

// Arrange keeps an arrangement of its input (an index on a key, see
// dataflow.Arrangement), which it owns: it stages its input into the
// arrangement at each step and commits it with the step. Its output is its
// input, so a join downstream sees the same batch as a delta while reading
// the arrangement; any number of other operators, of this circuit or of
// others, may read the arrangement too, and every reader in a step sees the
// state before that step.
type Arrange struct {
	a *dataflow.Arrangement
}

var _ dataflow.Operator = (*Arrange)(nil)

// NewArrange returns an operator owning a, which must not have an owner.
func NewArrange(a *dataflow.Arrangement) *Arrange {
	a.Claim()
	return &Arrange{a: a}
}

// Arrangement returns the arrangement, for its readers.
func (r *Arrange) Arrangement() *dataflow.Arrangement { return r.a }

// Step stages the input and returns it.
func (r *Arrange) Step(in []zset.ZSet) (zset.ZSet, error) {
	if err := r.a.Stage(in[0]); err != nil {
		return nil, err
	}
	return in[0], nil
}

// Commit applies the staged input to the arrangement.
func (r *Arrange) Commit() { r.a.Commit() }

// Abort drops it.
func (r *Arrange) Abort() { r.a.Abort() }

// Info describes the arrangement.
func (r *Arrange) Info() dataflow.Info {
	return dataflow.Info{Kind: "Arrange", Detail: r.a.Spec().Name, State: r.a.Describe(), Cost: "O(change · log rows)"}
}

// State reports the arrangement's rows and bytes.
func (r *Arrange) State() dataflow.StateSize { return r.a.State() }

// String prints the arrangement's rows.
func (r *Arrange) String() string { return r.a.String() }
