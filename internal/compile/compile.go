// Package compile turns a logical plan into a dataflow circuit of
// incremental operators whose last node integrates the view's contents.
package compile

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Compiled is a view's circuit.
type Compiled struct {
	Circuit *dataflow.Circuit
	// Output is the node that integrates the view; its batch in a step is
	// the view's delta.
	Output dataflow.NodeID
	View   *op.Integrate
	// Relations are the stored relations the circuit reads, each an input
	// of the same name.
	Relations []string
	// Consts are the inputs that hold constant relations (VALUES): their
	// rows are fed once, in the step that builds the view.
	Consts map[string]zset.ZSet
}

type compiler struct {
	c      *dataflow.Circuit
	inputs map[string]dataflow.NodeID
	out    *Compiled
}

// Compile builds the circuit of a view's plan.
func Compile(p plan.Node) (*Compiled, error) {
	cp := &compiler{c: dataflow.NewCircuit(), inputs: map[string]dataflow.NodeID{}, out: &Compiled{Consts: map[string]zset.ZSet{}}}
	id, err := cp.node(p)
	if err != nil {
		return nil, err
	}
	cp.out.View = op.NewIntegrate()
	cp.out.Output = cp.c.Add(cp.out.View, id)
	cp.out.Circuit = cp.c
	return cp.out, nil
}

func (cp *compiler) input(name string) dataflow.NodeID {
	if id, ok := cp.inputs[name]; ok {
		return id
	}
	id := cp.c.Input(name)
	cp.inputs[name] = id
	return id
}

func (cp *compiler) node(p plan.Node) (dataflow.NodeID, error) {
	switch n := p.(type) {
	case *plan.Scan:
		if _, ok := cp.inputs[n.Relation]; !ok {
			cp.out.Relations = append(cp.out.Relations, n.Relation)
		}
		return cp.input(n.Relation), nil
	case *plan.Filter:
		in, err := cp.node(n.Input)
		if err != nil {
			return 0, err
		}
		return cp.c.Add(op.NewFilter(n.Pred), in), nil
	case *plan.Project:
		in, err := cp.node(n.Input)
		if err != nil {
			return 0, err
		}
		return cp.c.Add(op.NewMap(n.Exprs), in), nil
	case *plan.UnionAll:
		ids := make([]dataflow.NodeID, len(n.Inputs))
		for i, c := range n.Inputs {
			var err error
			if ids[i], err = cp.node(c); err != nil {
				return 0, err
			}
		}
		return cp.c.Add(op.NewUnion(len(ids)), ids...), nil
	case *plan.Distinct:
		in, err := cp.node(n.Input)
		if err != nil {
			return 0, err
		}
		return cp.c.Add(op.NewDistinct(), in), nil
	case *plan.Values:
		rows := make(zset.ZSet, 0, len(n.Rows))
		for _, exprs := range n.Rows {
			r := make(value.Row, len(exprs))
			for j, e := range exprs {
				v, err := e.Eval(nil)
				if err != nil {
					return 0, err
				}
				r[j] = v
			}
			rows = append(rows, zset.Entry{Row: r, W: 1})
		}
		name := fmt.Sprintf("$values%d", len(cp.out.Consts))
		cp.out.Consts[name] = zset.Consolidate(rows)
		return cp.input(name), nil
	}
	return 0, pgerr.New(pgerr.FeatureNotSupported, "%T cannot be maintained incrementally", p)
}
