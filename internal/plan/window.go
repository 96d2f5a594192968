package plan

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// WindowTopK turns a filter rn <= k (or rn < k, rn = 1) over the row
// number of a Window into a Window over a TopK that keeps the first k rows
// of each partition: the rows the filter keeps, numbered the same, and a
// bounded state per partition. n is the filter; the row number may reach it
// through projections.
var WindowTopK = Rule{Name: "window-topk", Apply: windowTopK}

func windowTopK(n Node) Node {
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	for _, c := range Conjuncts(f.Pred) {
		col, k, ok := rowNumberBound(c)
		if !ok {
			continue
		}
		if in, ok := limitWindow(f.Input, col, k); ok {
			return &Filter{Input: in, Pred: f.Pred}
		}
	}
	return n
}

// rowNumberBound recognises col <= k, col < k, k >= col, k > col and
// col = 1 with an integer constant k, and returns the largest row number
// kept.
func rowNumberBound(c expr.Expr) (int, int64, bool) {
	cmp, ok := c.(*expr.Cmp)
	if !ok {
		return 0, 0, false
	}
	l, r, op := cmp.L, cmp.R, cmp.Op
	if _, isCol := r.(*expr.Col); isCol {
		l, r = r, l
		switch op {
		case expr.LT:
			op = expr.GT
		case expr.LE:
			op = expr.GE
		case expr.GT:
			op = expr.LT
		case expr.GE:
			op = expr.LE
		}
	}
	col, ok := l.(*expr.Col)
	if !ok || len(expr.Columns(r)) > 0 || r.Volatile() {
		return 0, 0, false
	}
	v, err := r.Eval(nil)
	if err != nil || v.IsNull() || !v.Kind().IsInteger() {
		return 0, 0, false
	}
	k := v.Int()
	switch op {
	case expr.LE:
	case expr.LT:
		k--
	case expr.EQ:
		if k != 1 {
			return 0, 0, false
		}
	default:
		return 0, 0, false
	}
	if k < 0 {
		k = 0
	}
	return col.Idx, k, true
}

// limitWindow follows column col of n through projections down to a
// Window's row number and puts a TopK of k rows per partition under that
// Window.
func limitWindow(n Node, col int, k int64) (Node, bool) {
	switch n := n.(type) {
	case *Project:
		c, ok := n.Exprs[col].(*expr.Col)
		if !ok {
			return n, false
		}
		in, ok := limitWindow(n.Input, c.Idx, k)
		if !ok {
			return n, false
		}
		return &Project{Input: in, Exprs: n.Exprs, Cols: n.Cols}, true
	case *Filter:
		in, ok := limitWindow(n.Input, col, k)
		if !ok {
			return n, false
		}
		return &Filter{Input: in, Pred: n.Pred}, true
	case *Window:
		if col != len(n.Cols)-1 {
			return n, false
		}
		if t, ok := n.Input.(*TopK); ok && t.Limit <= k {
			return n, true // already bounded
		}
		top := &TopK{Input: n.Input, Partition: n.Partition, Order: n.Order, Limit: k}
		return &Window{Input: top, Partition: n.Partition, Order: n.Order, Cols: n.Cols, Pos: n.Pos}, true
	}
	return n, false
}

// Bounded reports whether a Window's partitions are bounded: its input is
// a TopK on the same partition and order, so it can be maintained.
func (n *Window) Bounded() bool {
	t, ok := n.Input.(*TopK)
	return ok && t.Offset == 0 && len(t.Partition) == len(n.Partition) && len(t.Order) == len(n.Order)
}

// RowNumberType is the type of row_number().
var RowNumberType = value.Int8Type
