package exec

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// stopOuterLimit returns n, a Filter keeping the rows a correlated
// subquery's LIMIT that reads the outer query keeps (a row_number per
// domain value, without order, over a recursion), with the recursion told
// to stop each domain value's rows once that value's OFFSET + LIMIT rows
// are out, as each evaluation of the subquery stops in PostgreSQL: an
// endless recursion then ends. Otherwise n itself.
func stopOuterLimit(n *plan.Filter) *plan.Filter {
	args := plan.LimitKeepArgs(n.Pred)
	win, ok := n.Input.(*plan.Window)
	if args == nil || !ok || len(args) != 3 || win.Func.Kind != plan.WinRowNumber || len(win.Order) > 0 {
		return n
	}
	rn, ok := args[0].(*expr.Col)
	if !ok || rn.Idx != len(win.Input.Columns()) {
		return n
	}
	w := domainLimit(&plan.TopK{Partition: win.Partition})
	count, offset := args[1], args[2]
	for _, e := range []expr.Expr{count, offset} {
		if e.Volatile() {
			return n
		}
		for _, c := range expr.Columns(e) {
			if c >= w {
				return n
			}
		}
	}
	if w == 0 || stopNeedSet(win.Input) {
		return n
	}
	need := &expr.Func{Def: limitNeed, Args: []expr.Expr{count, offset}, T: value.Int8Type}
	in := stopDomainRecursion(win.Input, 1, w)
	if in == win.Input {
		return n
	}
	setStopNeed(in, need)
	c := *win
	c.Input = in
	return &plan.Filter{Input: &c, Pred: n.Pred}
}

// setStopNeed sets the need of the recursion stopDomainRecursion
// returned, the first under in's projections (copies of the plan's).
func setStopNeed(in plan.Node, need expr.Expr) {
	switch n := in.(type) {
	case *plan.Recursive:
		n.StopAfter, n.StopNeed = 0, need
	case *plan.Project:
		setStopNeed(n.Input, need)
	}
}

// limitNeed(count, offset) is the rows a LIMIT count OFFSET offset reads:
// NULL (no stop) for a NULL count, a NULL offset counting 0. A negative
// one reads nothing more (the filter above raises PostgreSQL's error).
var limitNeed = &expr.FuncDef{Name: "limit_need", Eval: func(a []value.Value) (value.Value, error) {
	if a[0].IsNull() {
		return value.Null, nil
	}
	off := int64(0)
	if !a[1].IsNull() {
		off = a[1].Int()
	}
	cnt := a[0].Int()
	if cnt < 0 || off < 0 {
		return value.NewInt(value.Int8, 1), nil
	}
	return value.NewInt(value.Int8, cnt+off), nil
}}

// stopNeedSet reports whether the recursion under in's projections has
// its StopNeed already (stopOuterLimit's own output).
func stopNeedSet(in plan.Node) bool {
	switch n := in.(type) {
	case *plan.Recursive:
		return n.StopNeed != nil
	case *plan.Project:
		return stopNeedSet(n.Input)
	}
	return false
}

// stopCrossedLimit returns n, the join of a correlated subquery's domain
// (left) with its rows numbered by a row_number without order over a
// recursion that reads no outer column (right), kept by a LIMIT that
// reads the outer query (limit_keeps in the residual), with the recursion
// told to stop once the largest OFFSET + LIMIT of the domain's rows is
// out: each evaluation of the subquery in PostgreSQL stops there, so an
// endless recursion ends. Otherwise n itself. It evaluates the domain
// once more to find that bound.
func stopCrossedLimit(n *plan.Join, src Source) (*plan.Join, error) {
	if n.Kind != plan.InnerJoin || len(n.LeftKeys) > 0 {
		return n, nil
	}
	args := plan.LimitKeepArgs(n.Residual)
	win, ok := n.Right.(*plan.Window)
	if args == nil || !ok || len(args) != 3 || win.Func.Kind != plan.WinRowNumber || len(win.Order) > 0 || len(win.Partition) > 0 {
		return n, nil
	}
	lw := len(n.Left.Columns())
	if rn, ok := args[0].(*expr.Col); !ok || rn.Idx != lw+len(win.Input.Columns()) {
		return n, nil
	}
	for _, e := range args[1:] {
		if e.Volatile() {
			return n, nil
		}
		for _, c := range expr.Columns(e) {
			if c >= lw {
				return n, nil
			}
		}
	}
	if stopRecursion(win.Input, 1) == win.Input {
		return n, nil // no recursion to stop
	}
	domain, err := Run(n.Left, src)
	if err != nil {
		return nil, err
	}
	need := int64(0)
	for _, r := range domain {
		cnt, err := args[1].Eval(r)
		if err != nil {
			return nil, err
		}
		off, err := args[2].Eval(r)
		if err != nil {
			return nil, err
		}
		v, err := limitNeed.Eval([]value.Value{cnt, off})
		if err != nil {
			return nil, err
		}
		if v.IsNull() {
			return n, nil // a NULL LIMIT reads every row
		}
		need = max(need, v.Int())
	}
	c := *win
	c.Input = stopRecursion(win.Input, max(need, 1))
	j := *n
	j.Right = &c
	return &j, nil
}
