package dataflow

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/zset"
)

// NodeID names a node of a circuit: its position in topological order.
type NodeID int

// NodeStats counts, per node, the work done by committed steps.
type NodeStats struct {
	Steps      int64 // steps in which the node's Step ran (inputs not all empty)
	EntriesIn  int64 // entries of all input batches those steps saw
	EntriesOut int64 // entries of the batches those steps produced
}

// Circuit is a dataflow graph of Z-set operators on the shared runtime
// (Graph): named inputs, one per stored relation, whose batches it
// consolidates. A Circuit is not safe for concurrent use.
type Circuit struct {
	Graph[zset.ZSet]
	inputs map[string]NodeID
}

// NewCircuit returns an empty circuit.
func NewCircuit() *Circuit {
	c := &Circuit{inputs: make(map[string]NodeID)}
	c.size = func(z zset.ZSet) int { return len(z) }
	if invariants {
		c.check = func(id NodeID, out zset.ZSet) {
			if !zset.IsConsolidated(out) {
				info := c.nodes[id].op.Info()
				panic(fmt.Sprintf("dataflow: node %d (%s %s) produced an unconsolidated batch:\n%v",
					id, info.Kind, info.Detail, []zset.Entry(out)))
			}
		}
	}
	return c
}

// Input adds a named source of deltas (a table's changes). Names are unique;
// adding one twice panics.
func (c *Circuit) Input(name string) NodeID {
	if _, ok := c.inputs[name]; ok {
		panic(fmt.Sprintf("dataflow: duplicate input %q", name))
	}
	id := c.Source(&input{name: name})
	c.inputs[name] = id
	return id
}

// Step runs one logical step and commits it: Prepare, then Commit.
func (c *Circuit) Step(deltas map[string]zset.ZSet) error {
	if err := c.Prepare(deltas); err != nil {
		return err
	}
	c.Commit()
	return nil
}

// Prepare computes one logical step without changing any operator's state:
// deltas holds, per input name, that input's changes; inputs absent from the
// map see an empty batch, and batches for names that are not inputs are
// ignored, so one map of every relation's changes can feed many circuits.
// Prepare consolidates each batch that is not consolidated already in
// place (it may reorder and shorten the caller's slice, whose memory it
// then reads until the next step); a consolidated batch is only read, so
// several circuits may read one at once.
//
// Every node runs once, in order (Graph.Run). A node whose inputs are all
// empty is not stepped: its output is empty (see Operator). If a node
// fails, the circuit's state is as before the call and the error is
// returned. Otherwise the outputs are readable with Output and the step
// waits for Commit or Abort.
func (c *Circuit) Prepare(deltas map[string]zset.ZSet) error {
	return c.Run(func(id NodeID) (zset.ZSet, error) {
		z := deltas[c.nodes[id].op.(*input).name]
		// Several circuits may read one batch at once: a consolidated
		// batch is not written to.
		if zset.IsConsolidated(z) {
			return z, nil
		}
		return zset.Consolidate(z), nil
	})
}

// PrepareConsolidated is Prepare for deltas whose batches are all
// consolidated, as the engine's are: it reads them without checking, a
// pass over every row (scattered in memory) less per circuit and step.
// Built with the invariants tag, it checks them.
func (c *Circuit) PrepareConsolidated(deltas map[string]zset.ZSet) error {
	return c.Run(func(id NodeID) (zset.ZSet, error) {
		name := c.nodes[id].op.(*input).name
		z := deltas[name]
		if invariants && !zset.IsConsolidated(z) {
			panic(fmt.Sprintf("dataflow: input %q given an unconsolidated batch", name))
		}
		return z, nil
	})
}

// PrepareOne is PrepareConsolidated for a step whose only delta is z,
// the input name's: each input is found by comparing its name, not
// looked up in a map.
func (c *Circuit) PrepareOne(name string, z zset.ZSet) error {
	return c.Run(func(id NodeID) (zset.ZSet, error) {
		in := c.nodes[id].op.(*input)
		if in.name != name {
			return nil, nil
		}
		if invariants && !zset.IsConsolidated(z) {
			panic(fmt.Sprintf("dataflow: input %q given an unconsolidated batch", name))
		}
		return z, nil
	})
}

// input is the operator standing for a circuit's Input node. The circuit
// never steps it.
type input struct{ name string }

var _ Operator = (*input)(nil)

func (in *input) Step(b []zset.ZSet) (zset.ZSet, error) { return b[0], nil }
func (in *input) Commit()                               {}
func (in *input) Abort()                                {}
func (in *input) Info() Info {
	// A name that starts with NUL is the engine's own (the clock), which
	// no relation can have; it prints without the NUL.
	return Info{Kind: "Input", Detail: strings.TrimPrefix(in.name, "\x00"), State: "none", Cost: "O(change)"}
}
func (in *input) State() StateSize { return StateSize{} }

// InputsOf returns the names of the inputs that node id's input in reads,
// directly or through other nodes; ok is false when it reads a source
// that is not a named input.
func (c *Circuit) InputsOf(id NodeID, in int) (names []string, ok bool) {
	seen := make([]bool, len(c.nodes))
	stack := []NodeID{c.nodes[id].inputs[in]}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		nd := &c.nodes[n]
		if !nd.source {
			stack = append(stack, nd.inputs...)
			continue
		}
		x, isInput := nd.op.(*input)
		if !isInput {
			return nil, false
		}
		names = append(names, x.name)
	}
	return names, true
}

// PathTo returns the nodes between the input name and node to (in order,
// to left out) when the input reaches the circuit along that one path
// alone: each node on it is read by the next node alone, and each but the
// input reads nothing else. ok is false otherwise.
func (c *Circuit) PathTo(name string, to NodeID) (path []NodeID, ok bool) {
	at, ok := c.inputs[name]
	if !ok {
		return nil, false
	}
	for {
		next := NodeID(-1)
		for i := at + 1; int(i) < len(c.nodes); i++ {
			for _, in := range c.nodes[i].inputs {
				if in != at {
					continue
				}
				if next >= 0 {
					return nil, false // read twice, or by two nodes
				}
				next = i
			}
		}
		switch {
		case next == to:
			return path, len(c.nodes[to].inputs) == 1
		case next < 0 || len(c.nodes[next].inputs) != 1:
			return nil, false
		}
		path = append(path, next)
		at = next
	}
}
