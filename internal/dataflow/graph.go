package dataflow

import (
	"fmt"
	"strings"
)

// Graph is the runtime every circuit runs on, whatever its deltas are: a
// DAG of operators over deltas of type D (Z-set batches for the dataflow's
// Circuit, implicit deltas for a partial circuit), in topological order,
// stepped in order with prepare/commit/abort, with per-node counters. It
// keeps the spec (nodes and edges, fixed once added) apart from the
// runtime state (the last step's outputs and counters). A Graph is not
// safe for concurrent use.
type Graph[D any] struct {
	nodes   []node[D]
	valid   bool     // the last Prepare succeeded; outputs are readable
	stepped []NodeID // nodes stepped in the current step, reused
	scratch []D      // input batches of the node being stepped, reused
	one     [1]D     // the input batch of a node of one input
	size    func(D) int
	// empty, when set, is the output of a node that is not stepped (its
	// inputs are all empty); otherwise that output is D's zero value.
	empty func(NodeID) D
	// check, when set, is called on every output of a stepped operator
	// (an internal invariant).
	check func(NodeID, D)
}

type node[D any] struct {
	op      Op[D]
	inputs  []NodeID
	out     D
	stats   NodeStats
	pending NodeStats // counters of the current step, added on Commit
	source  bool      // fed by the caller, never stepped
}

// NewGraph returns an empty graph whose deltas have size entries (0:
// empty), and whose nodes that are not stepped output empty(id) (nil: D's
// zero value).
func NewGraph[D any](size func(D) int, empty func(NodeID) D) *Graph[D] {
	return &Graph[D]{size: size, empty: empty}
}

// Source adds a node fed by the caller at each step; op describes it
// (Info, and State when it keeps any) and is committed and aborted as
// any operator, never stepped.
func (g *Graph[D]) Source(op Op[D]) NodeID {
	g.nodes = append(g.nodes, node[D]{op: op, source: true})
	return NodeID(len(g.nodes) - 1)
}

// Add adds an operator fed by inputs, which must already exist: nodes are
// added in topological order. It panics when an input does not exist or
// none is given.
func (g *Graph[D]) Add(op Op[D], inputs ...NodeID) NodeID {
	if len(inputs) == 0 {
		panic("dataflow: an operator needs at least one input")
	}
	for _, in := range inputs {
		if in < 0 || int(in) >= len(g.nodes) {
			panic(fmt.Sprintf("dataflow: input node %d does not exist", in))
		}
	}
	g.nodes = append(g.nodes, node[D]{op: op, inputs: append([]NodeID(nil), inputs...)})
	return NodeID(len(g.nodes) - 1)
}

// Run computes one step without changing any operator's state: feed
// gives each source's delta, and every node runs once, in order. A node
// whose inputs are all empty is not stepped. If feed or a node fails,
// every node stepped so far is aborted, every output is cleared and the
// error is returned: the state is as before the call. Otherwise the
// outputs are readable with Output and the step waits for Commit or
// Abort.
func (g *Graph[D]) Run(feed func(id NodeID) (D, error)) error {
	g.valid = false
	g.stepped = g.stepped[:0]
	var zero D
	for i := range g.nodes {
		n := &g.nodes[i]
		n.out = zero
		if n.source {
			out, err := feed(NodeID(i))
			if err != nil {
				g.abort()
				return err
			}
			n.out = out
			if k := int64(g.size(out)); k > 0 {
				n.pending = NodeStats{Steps: 1, EntriesIn: k, EntriesOut: k}
				g.stepped = append(g.stepped, NodeID(i))
			}
			continue
		}
		var in []D
		var entries int64
		if len(n.inputs) == 1 {
			// Most operators have one input: no loop, no append.
			g.one[0] = g.nodes[n.inputs[0]].out
			entries, in = int64(g.size(g.one[0])), g.one[:]
		} else {
			in = g.scratch[:0]
			for _, id := range n.inputs {
				b := g.nodes[id].out
				entries += int64(g.size(b))
				in = append(in, b)
			}
			g.scratch = in
		}
		if entries == 0 {
			for j := range in {
				in[j] = zero
			}
			if g.empty != nil {
				n.out = g.empty(NodeID(i))
			}
			continue
		}
		g.stepped = append(g.stepped, NodeID(i))
		out, err := n.op.Step(in)
		for j := 0; j < len(in); j++ { // an operator's one or two inputs: no call to clear
			in[j] = zero
		}
		if err != nil {
			g.abort()
			return err
		}
		if g.check != nil {
			g.check(NodeID(i), out)
		}
		n.out = out
		n.pending = NodeStats{Steps: 1, EntriesIn: entries, EntriesOut: int64(g.size(out))}
	}
	g.valid = true
	return nil
}

// Commit applies the step Run computed to every operator's state.
// Several graphs can be run and then committed together, or all
// aborted, so that one transaction changes all views or none.
func (g *Graph[D]) Commit() {
	for _, id := range g.stepped {
		n := &g.nodes[id]
		n.op.Commit()
		n.stats.Steps += n.pending.Steps
		n.stats.EntriesIn += n.pending.EntriesIn
		n.stats.EntriesOut += n.pending.EntriesOut
	}
	g.stepped = g.stepped[:0]
}

// Abort drops the step Run computed: every operator keeps its state as
// before, and every output is cleared.
func (g *Graph[D]) Abort() { g.abort() }

func (g *Graph[D]) abort() {
	for _, id := range g.stepped {
		g.nodes[id].op.Abort()
	}
	var zero D
	for i := range g.nodes {
		g.nodes[i].out = zero
	}
	g.stepped = g.stepped[:0]
}

// Output returns the delta node id produced in the last step, or the
// zero value when that step failed. It is valid until the next step and
// must not be modified.
func (g *Graph[D]) Output(id NodeID) D {
	if !g.valid {
		var zero D
		return zero
	}
	return g.nodes[id].out
}

// Node returns the operator of node id.
func (g *Graph[D]) Node(id NodeID) Op[D] { return g.nodes[id].op }

// IsSource reports whether node id is a source.
func (g *Graph[D]) IsSource(id NodeID) bool { return g.nodes[id].source }

// Inputs returns the nodes that feed node id, in order.
func (g *Graph[D]) Inputs(id NodeID) []NodeID { return g.nodes[id].inputs }

// Len returns the number of nodes.
func (g *Graph[D]) Len() int { return len(g.nodes) }

// Stats returns node id's counters over every committed step.
func (g *Graph[D]) Stats(id NodeID) NodeStats { return g.nodes[id].stats }

// String prints the spec, one node per line in topological order: id,
// kind, detail, the nodes it reads, and the state and cost it declares.
//
//	0 Input t
//	1 Filter #0 > 10 <- 0  state: none  cost: O(change)
func (g *Graph[D]) String() string {
	var b strings.Builder
	for i := range g.nodes {
		n := &g.nodes[i]
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
func (g *Graph[D]) DebugString() string {
	var b strings.Builder
	for i := range g.nodes {
		n := &g.nodes[i]
		info := n.op.Info()
		st := n.op.State()
		fmt.Fprintf(&b, "%d %s steps=%d in=%d out=%d rows=%d bytes=%d\n",
			i, info.Kind, n.stats.Steps, n.stats.EntriesIn, n.stats.EntriesOut, st.Rows, st.Bytes)
	}
	return b.String()
}
