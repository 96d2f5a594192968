package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/dataflow"
)

// DefaultRefillNotice is how many refills one view may do in one step
// before the commit raises a notice.
const DefaultRefillNotice = 100

// SetRefillNotice sets how many refills (MIN/MAX reserves and top-k
// windows read back from their index) one view may do in one step before
// the commit raises a notice: 0 raises one on every refill, a negative
// number turns the notice off.
func (e *Engine) SetRefillNotice(n int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setRefillNotice(n)
}

// setRefillNotice stores n so that the zero value of the field stays the
// default: the field holds n+1 for n >= 0, and -1 for off.
func (e *Engine) setRefillNotice(n int64) {
	switch {
	case n < 0:
		e.refillNotice = -1
	case n == DefaultRefillNotice:
		e.refillNotice = 0
	default:
		e.refillNotice = n + 1
	}
}

// refillLimit is the threshold in force; -1 when the notice is off.
func (e *Engine) refillLimit() int64 {
	switch {
	case e.refillNotice == 0:
		return DefaultRefillNotice
	case e.refillNotice < 0:
		return -1
	}
	return e.refillNotice - 1
}

// checkRefills raises a notice for each view that refilled more than the
// threshold in the step just committed (or prepared, its commit left
// behind): a sign that its reserves are too
// small for its workload, and that the step cost more than its change.
func (e *Engine) checkRefills(stepped []matView) {
	limit := e.refillLimit()
	for _, v := range stepped {
		if zv, ok := v.(*zview); ok && len(zv.refillOps()) == 0 {
			continue // no operator of the view refills
		}
		m := v.meta()
		// Before the view's commit (one left behind) its step's refills
		// are staged; after it they are counted in refills.
		n := v.refills() + stagedRefills(v)
		if d := n - m.refills; limit >= 0 && d > limit {
			e.notices = append(e.notices, fmt.Sprintf("materialized view %q refilled its reserves %d times in one step (notice threshold %d): each refill reads back from an index",
				m.name, d, limit))
		}
		m.refills = n
	}
}

// stagedRefills sums the refills of the step v prepared and has not yet
// committed.
func stagedRefills(v matView) int64 {
	zv, ok := v.(*zview)
	if !ok {
		return 0
	}
	var n int64
	for _, o := range zv.refillOps() {
		if o.stages != nil {
			n += o.stages.StagedRefills()
		}
	}
	return n
}

// refillCounter is an operator that counts refills, as the interfaces it
// implements, asserted once: counts when it counts its committed refills,
// stages when it counts those of the step it prepared.
type refillCounter struct {
	counts interface{ Refills() int64 }
	stages interface{ StagedRefills() int64 }
}

// refillOps returns the operators of v that count refills (top-k, MIN
// and MAX), found once (addView finds them before any reader sees the
// view): the commits of a view without any do not walk its operators.
func (v *zview) refillOps() []refillCounter {
	if v.refillers == nil {
		ops := []refillCounter{} // not nil: found
		for id := 0; id < v.c.Circuit.Len(); id++ {
			o := v.c.Circuit.Node(dataflow.NodeID(id))
			var r refillCounter
			r.counts, _ = o.(interface{ Refills() int64 })
			r.stages, _ = o.(interface{ StagedRefills() int64 })
			if r.counts != nil || r.stages != nil {
				ops = append(ops, r)
			}
		}
		v.refillers = ops
	}
	return v.refillers
}
