package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/zset"
)

// Negate keeps no state: it negates every weight (the minus of EXCEPT ALL
// and of differences of views).
type Negate struct {
	out zset.ZSet
}

var _ dataflow.Operator = (*Negate)(nil)

// NewNegate returns a negation.
func NewNegate() *Negate { return &Negate{} }

// Step negates the input's weights; the order, hence consolidation, is
// kept.
func (n *Negate) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatchN(n.out, len(in[0]))
	for _, e := range in[0] {
		out = append(out, zset.Entry{Row: e.Row, W: -e.W})
	}
	n.out = out
	return out, nil
}

// Commit does nothing: Negate has no state.
func (n *Negate) Commit() {}

// Abort does nothing: Negate has no state.
func (n *Negate) Abort() {}

// Info describes the negation.
func (n *Negate) Info() dataflow.Info {
	return dataflow.Info{Kind: "Negate", State: "none", Cost: "O(change)"}
}

// State is empty.
func (n *Negate) State() dataflow.StateSize { return dataflow.StateSize{} }
