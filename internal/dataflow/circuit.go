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

// Circuit is a dataflow graph of operators and its runtime: the spec (nodes
// and edges, fixed once added) and, per node, the last step's output and
// counters. A Circuit is not safe for concurrent use.
type Circuit struct {
	nodes   []node
	inputs  map[string]NodeID
	valid   bool        // the last Step succeeded; outputs are readable
	stepped []NodeID    // nodes stepped in the current Step, reused
	scratch []zset.ZSet // input batches of the node being stepped, reused
}

type node struct {
	op      Operator
	inputs  []NodeID
	out     zset.ZSet
	stats   NodeStats
	pending NodeStats // counters of the current step, added on Commit
	source  bool      // an Input
}

// NewCircuit returns an empty circuit.
func NewCircuit() *Circuit {
	return &Circuit{inputs: make(map[string]NodeID)}
}

// Input adds a named source of deltas (a table's changes). Names are unique;
// adding one twice panics.
func (c *Circuit) Input(name string) NodeID {
	if _, ok := c.inputs[name]; ok {
		panic(fmt.Sprintf("dataflow: duplicate input %q", name))
	}
	id := NodeID(len(c.nodes))
	c.nodes = append(c.nodes, node{op: &input{name: name}, source: true})
	c.inputs[name] = id
	return id
}

// Add adds an operator fed by inputs, which must already exist: nodes are
// added in topological order. It panics when an input does not exist or
// none is given.
func (c *Circuit) Add(op Operator, inputs ...NodeID) NodeID {
	if len(inputs) == 0 {
		panic("dataflow: an operator needs at least one input")
	}
	for _, in := range inputs {
		if in < 0 || int(in) >= len(c.nodes) {
			panic(fmt.Sprintf("dataflow: input node %d does not exist", in))
		}
	}
	id := NodeID(len(c.nodes))
	c.nodes = append(c.nodes, node{op: op, inputs: append([]NodeID(nil), inputs...)})
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
// ignored, so one map of every relation's changes can feed many circuits. Prepare consolidates each batch in place (it may
// reorder and shorten the caller's slice, whose memory it then reads until
// the next step).
//
// Every node runs once, in order. A node whose inputs are all empty is not
// stepped: its output is empty (see Operator). If a node fails, every node
// stepped so far is aborted, every output is cleared and the error is
// returned: the circuit's state is as before the call. Otherwise the
// outputs are readable with Output and the step waits for Commit or Abort.
func (c *Circuit) Prepare(deltas map[string]zset.ZSet) error {
	c.valid = false
	c.stepped = c.stepped[:0]
	for i := range c.nodes {
		n := &c.nodes[i]
		n.out = nil
		if n.source {
			n.out = zset.Consolidate(deltas[n.op.(*input).name])
			if len(n.out) > 0 {
				n.pending = NodeStats{Steps: 1, EntriesIn: int64(len(n.out)), EntriesOut: int64(len(n.out))}
				c.stepped = append(c.stepped, NodeID(i))
			}
			continue
		}
		in := c.scratch[:0]
		var entries int64
		for _, id := range n.inputs {
			b := c.nodes[id].out
			entries += int64(len(b))
			in = append(in, b)
		}
		c.scratch = in
		if entries == 0 {
			continue
		}
		c.stepped = append(c.stepped, NodeID(i))
		out, err := n.op.Step(in)
		clear(in)
		if err != nil {
			c.abort()
			return err
		}
		if invariants && !zset.IsConsolidated(out) {
			info := n.op.Info()
			panic(fmt.Sprintf("dataflow: node %d (%s %s) produced an unconsolidated batch:\n%v",
				i, info.Kind, info.Detail, []zset.Entry(out)))
		}
		n.out = out
		n.pending = NodeStats{Steps: 1, EntriesIn: entries, EntriesOut: int64(len(out))}
	}
	c.valid = true
	return nil
}

// Commit applies the step Prepare computed to every operator's state.
// Several circuits can be prepared and then committed together, or all
// aborted, so that one transaction changes all views or none.
func (c *Circuit) Commit() {
	for _, id := range c.stepped {
		n := &c.nodes[id]
		n.op.Commit()
		n.stats.Steps += n.pending.Steps
		n.stats.EntriesIn += n.pending.EntriesIn
		n.stats.EntriesOut += n.pending.EntriesOut
	}
	c.stepped = c.stepped[:0]
}

// Abort drops the step Prepare computed: every operator keeps its state as
// before Prepare, and every output is cleared.
func (c *Circuit) Abort() { c.abort() }

func (c *Circuit) abort() {
	for _, id := range c.stepped {
		c.nodes[id].op.Abort()
	}
	for i := range c.nodes {
		c.nodes[i].out = nil
	}
	c.stepped = c.stepped[:0]
}

// Output returns the batch node id produced in the last Step, or nil when
// that Step failed or the node was not stepped. The batch is valid until the
// next Step and must not be modified.
func (c *Circuit) Output(id NodeID) zset.ZSet {
	if !c.valid {
		return nil
	}
	return c.nodes[id].out
}

// Node returns the operator of node id. An Input's operator describes the
// input (Info().Kind is "Input") and holds no state.
func (c *Circuit) Node(id NodeID) Operator { return c.nodes[id].op }

// Inputs returns the nodes that feed node id, in order.
func (c *Circuit) Inputs(id NodeID) []NodeID { return c.nodes[id].inputs }

// Len returns the number of nodes.
func (c *Circuit) Len() int { return len(c.nodes) }

// Stats returns node id's counters over every committed step.
func (c *Circuit) Stats(id NodeID) NodeStats { return c.nodes[id].stats }

// String prints the circuit's spec, one node per line in topological order:
// id, kind, detail, the nodes it reads, and the state and cost it declares.
//
//	0 Input t
//	1 Filter #0 > 10 <- 0  state: none  cost: O(change)
func (c *Circuit) String() string {
	var b strings.Builder
	for i := range c.nodes {
		n := &c.nodes[i]
		info := n.op.Info()
		fmt.Fprintf(&b, "%d %s", i, info.Kind)
		if info.Detail != "" {
			fmt.Fprintf(&b, " %s", info.Detail)
		}
		if !n.source {
			b.WriteString(" <-")
			for _, in := range n.inputs {
				fmt.Fprintf(&b, " %d", in)
			}
			fmt.Fprintf(&b, "  state: %s  cost: %s", info.State, info.Cost)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// DebugString prints the spec with each node's runtime state: counters and
// the rows and bytes it holds.
func (c *Circuit) DebugString() string {
	var b strings.Builder
	for i := range c.nodes {
		n := &c.nodes[i]
		info := n.op.Info()
		st := n.op.State()
		fmt.Fprintf(&b, "%d %s steps=%d in=%d out=%d rows=%d bytes=%d\n",
			i, info.Kind, n.stats.Steps, n.stats.EntriesIn, n.stats.EntriesOut, st.Rows, st.Bytes)
	}
	return b.String()
}

// input is the operator standing for a circuit's Input node. The circuit
// never steps it.
type input struct{ name string }

var _ Operator = (*input)(nil)

func (in *input) Step(b []zset.ZSet) (zset.ZSet, error) { return b[0], nil }
func (in *input) Commit()                               {}
func (in *input) Abort()                                {}
func (in *input) Info() Info {
	return Info{Kind: "Input", Detail: in.name, State: "none", Cost: "O(change)"}
}
func (in *input) State() StateSize { return StateSize{} }
