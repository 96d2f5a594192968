package compile

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// tableFunc compiles set-returning functions in FROM: over an input (a
// lateral join, decorrelated to run over the distinct outer values), a
// FlatMap of it; without one, their rows are a constant.
func (cp *compiler) tableFunc(n *plan.TableFunc) (dataflow.NodeID, error) {
	fm := op.NewFlatMap(n.Funcs, n.Ordinality, len(n.Cols))
	if n.Input == nil {
		out, err := fm.Step([]zset.ZSet{{{Row: value.Row{}, W: 1}}})
		if err != nil {
			return 0, err
		}
		return cp.constant(zset.Consolidate(append(zset.ZSet(nil), out...))), nil
	}
	in, err := cp.node(n.Input)
	if err != nil {
		return 0, err
	}
	return cp.c.Add(fm, in), nil
}
