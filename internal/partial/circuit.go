package partial

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
)

// Circuit maintains one view from its base relations' explicit changes.
// It is deterministic and does no IO: Step takes one transaction's changes
// and returns the view's explicit delta; Commit or Abort then keeps or
// drops what the step staged, as dataflow operators do.
type Circuit struct {
	nodes []*node // topological order; the last is the view
	rels  []*delta.Schema
}

type node struct {
	op      Operator      // nil for a source
	source  *delta.Schema // for a source
	inputs  []int
	out     *delta.Implicit
	stepped bool
	// seen and made count the tuples (ΔR and ∇R) the node has read and
	// produced over committed steps; pseen and pmade those of the step
	// staged.
	seen, made, pseen, pmade int64
}

// NewCircuit returns an empty circuit. Nodes are added bottom up, in
// topological order (Source, Add); the last node added is the view. Every
// base relation starts empty: the first Step typically inserts their
// contents. internal/compile builds a view's circuit from its plan.
func NewCircuit() *Circuit { return &Circuit{} }

// Source adds a node for a base relation's changes.
func (c *Circuit) Source(rel *delta.Schema) int {
	found := false
	for _, r := range c.rels {
		found = found || r == rel
	}
	if !found {
		c.rels = append(c.rels, rel)
	}
	c.nodes = append(c.nodes, &node{source: rel})
	return len(c.nodes) - 1
}

// Add adds an operator fed by the nodes inputs, which must exist. A Join's
// second input is the Source of its right relation.
func (c *Circuit) Add(op Operator, inputs ...int) int {
	c.nodes = append(c.nodes, &node{op: op, inputs: inputs})
	return len(c.nodes) - 1
}

// NodeSchema returns the schema of node i's output.
func (c *Circuit) NodeSchema(i int) *delta.Schema { return c.schema(i) }

func (c *Circuit) schema(i int) *delta.Schema {
	if n := c.nodes[i]; n.op != nil {
		return n.op.Schema()
	}
	return c.nodes[i].source
}

// Schema is the view's schema; its key is the root relation's key.
func (c *Circuit) Schema() *delta.Schema { return c.schema(len(c.nodes) - 1) }

// Relations lists the base relations the view reads.
func (c *Circuit) Relations() []*delta.Schema { return c.rels }

// Step propagates one transaction: tx maps a relation's name to its changes
// in order (relations the view does not read are ignored). Each batch is
// coalesced (delta.Coalesce) and converted to the implicit model, pushed
// through the operators, and the view's implicit delta is converted back:
// the result is the view's net explicit delta, sorted by key, to apply
// with MERGE semantics. Call Commit or Abort after every Step; on error
// the circuit has already dropped what it staged (Abort is then a no-op).
func (c *Circuit) Step(tx map[string]delta.Batch) (delta.Batch, error) {
	err := c.step(tx)
	if err != nil {
		c.Abort()
		return nil, err
	}
	return delta.ToExplicit(c.nodes[len(c.nodes)-1].out)
}

func (c *Circuit) step(tx map[string]delta.Batch) error {
	for _, n := range c.nodes {
		if n.op == nil {
			net, err := delta.Coalesce(n.source, tx[n.source.Name])
			if err != nil {
				return err
			}
			if n.out, err = delta.ToImplicit(n.source, net); err != nil {
				return err
			}
			n.stepped = len(net) > 0
			n.pseen, n.pmade = int64(len(tx[n.source.Name])), int64(len(n.out.Ins)+len(n.out.Del))
			continue
		}
		ins := make([]*delta.Implicit, len(n.inputs))
		empty := true
		for i, x := range n.inputs {
			ins[i] = c.nodes[x].out
			empty = empty && ins[i].Empty()
		}
		if empty {
			n.out = &delta.Implicit{Schema: n.op.Schema()}
			continue
		}
		out, err := n.op.Step(ins)
		n.stepped = true
		if err != nil {
			return err
		}
		n.out = out
		n.pseen, n.pmade = 0, int64(len(out.Ins)+len(out.Del))
		for _, x := range ins {
			n.pseen += int64(len(x.Ins) + len(x.Del))
		}
	}
	return nil
}

// Commit keeps what the last Step staged.
func (c *Circuit) Commit() {
	for _, n := range c.nodes {
		if n.stepped {
			if n.op != nil {
				n.op.Commit()
			}
			n.stepped = false
			n.seen += n.pseen
			n.made += n.pmade
		}
	}
}

// Abort drops what the last Step staged.
func (c *Circuit) Abort() {
	for _, n := range c.nodes {
		if n.stepped {
			if n.op != nil {
				n.op.Abort()
			}
			n.stepped = false
		}
	}
}

// Len returns the number of nodes, sources included, in topological
// order: the last is the view.
func (c *Circuit) Len() int { return len(c.nodes) }

// Node returns node i's operator, or nil and the relation for a source.
func (c *Circuit) Node(i int) (Operator, *delta.Schema) { return c.nodes[i].op, c.nodes[i].source }

// Stats returns the tuples node i has read and produced over committed
// steps.
func (c *Circuit) Stats(i int) (in, out int64) { return c.nodes[i].seen, c.nodes[i].made }

// State sums the operators' state.
func (c *Circuit) State() dataflow.StateSize {
	var s dataflow.StateSize
	for _, n := range c.nodes {
		if n.op != nil {
			x := n.op.State()
			s.Rows += x.Rows
			s.Bytes += x.Bytes
		}
	}
	return s
}

// String prints the circuit as a tree, the view at the top, with what
// each operator keeps.
func (c *Circuit) String() string {
	var b strings.Builder
	c.print(&b, len(c.nodes)-1, "", "")
	return b.String()
}

func (c *Circuit) print(b *strings.Builder, i int, first, rest string) {
	n := c.nodes[i]
	if n.op == nil {
		fmt.Fprintf(b, "%sSource %s\n", first, n.source.Name)
		return
	}
	info := n.op.Info()
	fmt.Fprintf(b, "%s%s %s  state: %s\n", first, info.Kind, info.Detail, info.State)
	for k, x := range n.inputs {
		if k == len(n.inputs)-1 {
			c.print(b, x, rest+" └── ", rest+"     ")
		} else {
			c.print(b, x, rest+" ├── ", rest+" │   ")
		}
	}
}
