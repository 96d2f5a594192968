package partial

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
)

// Circuit maintains one view from its base relations' explicit changes,
// on the circuit runtime every view shares (dataflow.Graph), with
// implicit deltas on its edges. It is deterministic and does no IO: Step
// takes one transaction's changes and returns the view's explicit delta;
// Commit or Abort then keeps or drops what the step staged.
type Circuit struct {
	g    *dataflow.Graph[*delta.Implicit]
	rels []*delta.Schema
	// schemas and empties are, per node, its output's schema and the
	// empty delta it outputs in a step that does not change it.
	schemas []*delta.Schema
	empties []*delta.Implicit
	// out and facts are the explicit delta of the last step and scratch
	// space, reused.
	out   delta.Batch
	facts []delta.Fact
	srcs  []*delta.Implicit // per source node, its delta, reused
}

// source stands for a base relation's node; the circuit never steps it.
type source struct{ rel *delta.Schema }

var _ Operator = (*source)(nil)

func (s *source) Schema() *delta.Schema                              { return s.rel }
func (s *source) Step(in []*delta.Implicit) (*delta.Implicit, error) { return in[0], nil }
func (s *source) Commit()                                            {}
func (s *source) Abort()                                             {}
func (s *source) Info() dataflow.Info {
	return dataflow.Info{Kind: "Source", Detail: s.rel.Name, State: "none", Cost: "O(change)"}
}
func (s *source) State() dataflow.StateSize { return dataflow.StateSize{} }

// NewCircuit returns an empty circuit. Nodes are added bottom up, in
// topological order (Source, Add); the last node added is the view. Every
// base relation starts empty: the first Step typically inserts their
// contents. internal/compile builds a view's circuit from its plan.
func NewCircuit() *Circuit {
	c := &Circuit{}
	c.g = dataflow.NewGraph(func(d *delta.Implicit) int {
		if d == nil {
			return 0
		}
		return len(d.Ins) + len(d.Del)
	}, func(id dataflow.NodeID) *delta.Implicit { return c.empties[id] })
	return c
}

// Source adds a node for a base relation's changes.
func (c *Circuit) Source(rel *delta.Schema) int {
	found := false
	for _, r := range c.rels {
		found = found || r == rel
	}
	if !found {
		c.rels = append(c.rels, rel)
	}
	return c.push(rel, c.g.Source(&source{rel: rel}))
}

// Add adds an operator fed by the nodes inputs, which must exist. A Join's
// second input is the Source of its right relation.
func (c *Circuit) Add(op Operator, inputs ...int) int {
	ids := make([]dataflow.NodeID, len(inputs))
	for i, x := range inputs {
		ids[i] = dataflow.NodeID(x)
	}
	return c.push(op.Schema(), c.g.Add(op, ids...))
}

func (c *Circuit) push(s *delta.Schema, id dataflow.NodeID) int {
	c.schemas = append(c.schemas, s)
	c.empties = append(c.empties, &delta.Implicit{Schema: s})
	c.srcs = append(c.srcs, nil)
	return int(id)
}

// NodeSchema returns the schema of node i's output.
func (c *Circuit) NodeSchema(i int) *delta.Schema { return c.schemas[i] }

// Schema is the view's schema; its key is the root relation's key.
func (c *Circuit) Schema() *delta.Schema { return c.schemas[len(c.schemas)-1] }

// Relations lists the base relations the view reads.
func (c *Circuit) Relations() []*delta.Schema { return c.rels }

// Step propagates one transaction: tx maps a relation's name to its changes
// in order (relations the view does not read are ignored). Each batch is
// coalesced (delta.Coalesce) and converted to the implicit model, pushed
// through the operators, and the view's implicit delta is converted back:
// the result is the view's net explicit delta, sorted by key, to apply
// with MERGE semantics. Call Commit or Abort after every Step; on error
// the circuit has already dropped what it staged (Abort is then a no-op).
// The batch is valid until the next Step, and so are its rows but the
// complete new rows (of insertions, updates, upserts), which are the
// caller's to keep: operators build their rows in buffers of the step.
func (c *Circuit) Step(tx map[string]delta.Batch) (delta.Batch, error) {
	facts, err := c.StepFacts(tx)
	if err != nil {
		return nil, err
	}
	clear(c.out)
	if cap(c.out) > spare {
		c.out = nil
	}
	c.out = delta.AppendChanges(c.out[:0], facts, slices.Clone)
	return c.out, nil
}

// StepFacts is Step giving the view's delta as one fact per changed key,
// sorted by key (delta.AppendChanges states them as changes;
// delta.Target.StageFacts applies them), without converting it: the facts
// and their rows are valid until the next Step.
func (c *Circuit) StepFacts(tx map[string]delta.Batch) ([]delta.Fact, error) {
	err := c.g.Run(func(id dataflow.NodeID) (*delta.Implicit, error) {
		rel := c.schemas[id]
		b := tx[rel.Name]
		if len(b) == 0 {
			return c.empties[id], nil
		}
		net, err := delta.Coalesce(rel, b)
		if err != nil {
			return nil, err
		}
		d := c.srcs[id]
		if d == nil || len(d.Ins)+len(d.Del) > spare {
			d = &delta.Implicit{}
			c.srcs[id] = d
		}
		return d, delta.AppendImplicit(d, rel, net)
	})
	if err != nil {
		return nil, err
	}
	out := c.g.Output(dataflow.NodeID(len(c.schemas) - 1))
	if err := out.Validate(); err != nil {
		c.g.Abort()
		return nil, err
	}
	clear(c.facts)
	if cap(c.facts) > spare {
		c.facts = nil
	}
	c.facts = out.AppendFacts(c.facts[:0])
	return c.facts, nil
}

// Commit keeps what the last Step staged.
func (c *Circuit) Commit() { c.g.Commit() }

// Abort drops what the last Step staged.
func (c *Circuit) Abort() { c.g.Abort() }

// Len returns the number of nodes, sources included, in topological
// order: the last is the view.
func (c *Circuit) Len() int { return c.g.Len() }

// Node returns node i's operator (for a source, one that describes it).
func (c *Circuit) Node(i int) Operator { return c.g.Node(dataflow.NodeID(i)).(Operator) }

// Stats returns node i's counters over committed steps: entries are the
// tuples of ΔR and ∇R.
func (c *Circuit) Stats(i int) dataflow.NodeStats { return c.g.Stats(dataflow.NodeID(i)) }

// State sums the operators' state.
func (c *Circuit) State() dataflow.StateSize {
	var s dataflow.StateSize
	for i := 0; i < c.g.Len(); i++ {
		x := c.g.Node(dataflow.NodeID(i)).State()
		s.Rows += x.Rows
		s.Bytes += x.Bytes
	}
	return s
}

// String prints the circuit as a tree, the view at the top, with what
// each operator keeps.
func (c *Circuit) String() string {
	var b strings.Builder
	c.print(&b, dataflow.NodeID(c.g.Len()-1), "", "")
	return b.String()
}

func (c *Circuit) print(b *strings.Builder, i dataflow.NodeID, first, rest string) {
	info := c.g.Node(i).Info()
	if c.g.IsSource(i) {
		fmt.Fprintf(b, "%sSource %s\n", first, info.Detail)
		return
	}
	fmt.Fprintf(b, "%s%s %s  state: %s\n", first, info.Kind, info.Detail, info.State)
	ins := c.g.Inputs(i)
	for k, x := range ins {
		if k == len(ins)-1 {
			c.print(b, x, rest+" └── ", rest+"     ")
		} else {
			c.print(b, x, rest+" ├── ", rest+" │   ")
		}
	}
}
