package partial

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// Spec describes a view's partial circuit as a tree: SourceSpec,
// FilterSpec, ProjectSpec and JoinSpec. Specs are immutable; Build turns
// one into a Circuit with fresh state.
type Spec interface{ spec() }

// SourceSpec is a base relation's changes.
type SourceSpec struct{ Rel *delta.Schema }

// FilterSpec keeps the rows of In where Pred holds.
type FilterSpec struct {
	In   Spec
	Pred expr.Expr
}

// ProjectSpec computes Exprs over In's rows, named Name with columns
// Names; In's key columns must be among them as plain columns.
type ProjectSpec struct {
	In    Spec
	Name  string
	Names []string
	Exprs []expr.Expr
}

// JoinSpec joins Left with the base relation Right on Left's columns FK
// equal to Right's key, carrying Right's columns RightCols; KeepLeft keeps
// Left's rows (needed when a filter above reads Right's columns, or the
// foreign key may dangle). Name names the output (default "Left⋈Right").
type JoinSpec struct {
	Left      Spec
	Right     *delta.Schema
	FK        []int
	RightCols []int
	KeepLeft  bool
	Name      string
}

func (SourceSpec) spec()  {}
func (FilterSpec) spec()  {}
func (ProjectSpec) spec() {}
func (JoinSpec) spec()    {}

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

// Build checks spec and returns its circuit with empty state: every base
// relation starts empty; the first Step typically inserts their contents.
func Build(spec Spec) (*Circuit, error) {
	c := &Circuit{}
	if _, err := c.add(spec); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Circuit) source(rel *delta.Schema) int {
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

func (c *Circuit) add(s Spec) (int, error) {
	switch s := s.(type) {
	case SourceSpec:
		return c.source(s.Rel), nil
	case FilterSpec:
		in, err := c.add(s.In)
		if err != nil {
			return 0, err
		}
		op, err := NewFilter(c.schema(in), s.Pred)
		if err != nil {
			return 0, err
		}
		return c.push(op, in), nil
	case ProjectSpec:
		in, err := c.add(s.In)
		if err != nil {
			return 0, err
		}
		op, err := NewProject(c.schema(in), s.Name, s.Names, s.Exprs)
		if err != nil {
			return 0, err
		}
		return c.push(op, in), nil
	case JoinSpec:
		l, err := c.add(s.Left)
		if err != nil {
			return 0, err
		}
		r := c.source(s.Right)
		name := s.Name
		if name == "" {
			name = c.schema(l).Name + "⋈" + s.Right.Name
		}
		op, err := NewJoin(name, c.schema(l), s.Right, s.FK, s.RightCols, s.KeepLeft)
		if err != nil {
			return 0, err
		}
		return c.push(op, l, r), nil
	}
	return 0, pgerr.New(pgerr.Internal, "deltaview: unknown partial spec %T", s)
}

func (c *Circuit) push(op Operator, inputs ...int) int {
	c.nodes = append(c.nodes, &node{op: op, inputs: inputs})
	return len(c.nodes) - 1
}

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
