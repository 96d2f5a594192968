package op

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// Union keeps no state: it is UNION ALL of its inputs, adding the weights
// of equal rows.
type Union struct {
	n   int
	out zset.ZSet
}

var _ dataflow.Operator = (*Union)(nil)

// NewUnion returns the union of n inputs.
func NewUnion(n int) *Union { return &Union{n: n} }

// Step adds its inputs. When only one input changed, its batch is the
// output, uncopied.
func (u *Union) Step(in []zset.ZSet) (zset.ZSet, error) {
	if len(in) != u.n {
		return nil, pgerr.New(pgerr.Internal, "union: %d inputs, want %d", len(in), u.n)
	}
	out := dataflow.ReuseBatch(u.out)
	u.out = nil
	var only zset.ZSet
	changed := 0
	for _, b := range in {
		if len(b) > 0 {
			only = b
			changed++
		}
	}
	if changed <= 1 {
		u.out = out
		return only, nil
	}
	for _, b := range in {
		out = append(out, b...)
	}
	out = zset.Consolidate(out)
	u.out = out
	return out, nil
}

// Commit does nothing: Union has no state.
func (u *Union) Commit() {}

// Abort does nothing: Union has no state.
func (u *Union) Abort() {}

// Info describes the union.
func (u *Union) Info() dataflow.Info {
	return dataflow.Info{Kind: "Union", Detail: "all of " + strconv.Itoa(u.n) + " inputs", State: "none", Cost: "O(change)"}
}

// State is empty.
func (u *Union) State() dataflow.StateSize { return dataflow.StateSize{} }
