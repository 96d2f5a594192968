package compile

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// recInput is the inner circuit's input for the previous round's rows.
const recInput = "$rec"

// recursive compiles WITH RECURSIVE to a Recursive operator over the
// anchor's changes and the changes of the relations its recursive term
// reads; the term itself becomes the operator's inner circuit, rewritten
// to carry each row's round along (op.Recursive).
func (cp *compiler) recursive(n *plan.Recursive) (dataflow.NodeID, error) {
	anchor, err := cp.node(n.Anchor)
	if err != nil {
		return 0, err
	}
	step, err := tagRounds(n.Step, n.Name)
	if err != nil {
		return 0, err
	}
	step = plan.PruneColumns.Apply(step)
	inner := &compiler{c: dataflow.NewCircuit(), inputs: map[string]dataflow.NodeID{}, out: &Compiled{Consts: map[string]zset.ZSet{}}}
	out, err := inner.node(step)
	if err != nil {
		return 0, err
	}
	if len(inner.out.Temporal) > 0 {
		return 0, refuseClock("the recursive term of WITH RECURSIVE reruns its rounds at one time only; filter the anchor or the query over the recursion")
	}
	spec := op.RecursiveSpec{
		Name: n.Name, All: n.All, Inner: inner.c, Out: out, RecInput: recInput,
		Consts: inner.out.Consts, Arity: len(n.Cols), Bound: n.Bound(),
	}
	ids := []dataflow.NodeID{anchor}
	for _, rel := range inner.out.Relations {
		if rel == recInput {
			continue
		}
		spec.Relations = append(spec.Relations, rel)
		if _, ok := cp.inputs[rel]; !ok {
			cp.out.Relations = append(cp.out.Relations, rel)
		}
		ids = append(ids, cp.input(rel))
	}
	return cp.c.Add(op.NewRecursive(spec), ids...), nil
}

var roundCol = plan.Column{Name: "$round", Type: value.Int8Type}

// tagRounds rewrites a recursive term so that the rows of the recursive
// reference carry their round as an extra last column and every row the
// term derives carries the round of the row it came from, as its last
// column. The binder has checked that only filters, projections and the
// reference's side of joins lie above the reference.
func tagRounds(step plan.Node, name string) (plan.Node, error) {
	n, pos, m, ok, err := tag(step, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, pgerr.New(pgerr.Internal, "compile: recursive term of %q does not read it", name)
	}
	cols := n.Columns()
	exprs := make([]expr.Expr, 0, len(m)+1)
	outCols := make([]plan.Column, 0, len(m)+1)
	for _, x := range m {
		exprs = append(exprs, &expr.Col{Idx: x, T: cols[x].Type, Name: cols[x].Name})
		outCols = append(outCols, cols[x])
	}
	exprs = append(exprs, &expr.Col{Idx: pos, T: roundCol.Type, Name: roundCol.Name})
	outCols = append(outCols, roundCol)
	return project(n, exprs, outCols), nil
}

// project is a Project unless it would pass its input through unchanged.
func project(in plan.Node, exprs []expr.Expr, cols []plan.Column) plan.Node {
	if len(exprs) == len(in.Columns()) {
		same := true
		for i, e := range exprs {
			c, ok := e.(*expr.Col)
			same = same && ok && c.Idx == i
		}
		if same {
			return in
		}
	}
	return &plan.Project{Input: in, Exprs: exprs, Cols: cols}
}

// tag rewrites n when it holds the reference: the result has n's columns
// at positions m and the round at pos.
func tag(n plan.Node, name string) (out plan.Node, pos int, m []int, ok bool, err error) {
	switch n := n.(type) {
	case *plan.RecRef:
		if n.Name != name {
			return n, 0, nil, false, nil
		}
		cols := append(append([]plan.Column(nil), n.Cols...), roundCol)
		return &plan.Scan{Relation: recInput, Cols: cols}, len(n.Cols), identity(len(n.Cols)), true, nil
	case *plan.Filter:
		in, pos, m, ok, err := tag(n.Input, name)
		if !ok || err != nil {
			return n, 0, nil, ok, err
		}
		return &plan.Filter{Input: in, Pred: expr.Renumber(n.Pred, m)}, pos, m, true, nil
	case *plan.Project:
		in, pos, m, ok, err := tag(n.Input, name)
		if !ok || err != nil {
			return n, 0, nil, ok, err
		}
		exprs := make([]expr.Expr, 0, len(n.Exprs)+1)
		for _, e := range n.Exprs {
			exprs = append(exprs, expr.Renumber(e, m))
		}
		exprs = append(exprs, &expr.Col{Idx: pos, T: roundCol.Type, Name: roundCol.Name})
		cols := append(append([]plan.Column(nil), n.Cols...), roundCol)
		return &plan.Project{Input: in, Exprs: exprs, Cols: cols}, len(n.Exprs), identity(len(n.Exprs)), true, nil
	case *plan.Join:
		l, lpos, lm, lok, err := tag(n.Left, name)
		if err != nil {
			return n, 0, nil, false, err
		}
		r, rpos, rm, rok, err := tag(n.Right, name)
		if err != nil {
			return n, 0, nil, false, err
		}
		if !lok && !rok {
			return n, 0, nil, false, nil
		}
		lw, rw := len(n.Left.Columns()), len(n.Right.Columns())
		if !lok {
			lm = identity(lw)
		}
		if !rok {
			rm = identity(rw)
		}
		nl := len(l.Columns())
		both := make([]int, lw+rw)
		copy(both, lm)
		for i, x := range rm {
			both[lw+i] = nl + x
		}
		j := &plan.Join{Kind: n.Kind, Left: l, Right: r, Residual: expr.Renumber(n.Residual, both)}
		for _, k := range n.LeftKeys {
			j.LeftKeys = append(j.LeftKeys, expr.Renumber(k, lm))
		}
		for _, k := range n.RightKeys {
			j.RightKeys = append(j.RightKeys, expr.Renumber(k, rm))
		}
		j.Cols = append([]plan.Column(nil), l.Columns()...)
		if !n.Kind.Outputs() {
			if !lok {
				return nil, 0, nil, false, pgerr.New(pgerr.Internal, "compile: recursive reference inside a subquery")
			}
			return j, lpos, lm, true, nil
		}
		j.Cols = append(j.Cols, r.Columns()...)
		if lok {
			return j, lpos, both, true, nil
		}
		return j, nl + rpos, both, true, nil
	}
	for _, k := range n.Children() {
		if _, _, _, ok, _ := tag(k, name); ok {
			return nil, 0, nil, false, pgerr.New(pgerr.FeatureNotSupported, "recursive reference to query %q under %T is not supported", name, n)
		}
	}
	return n, 0, nil, false, nil
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
