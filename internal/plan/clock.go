package plan

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// AtTime returns n with every call of a clock function (now(),
// current_date, …) replaced by its value at time at, a timestamptz: the
// plan of a view with temporal filters as it reads at that time, which
// a from-scratch evaluation compares with the maintained rows.
func AtTime(n Node, at value.Value) Node {
	date, _ := value.Cast(at, value.DateType, true)
	sub := func(e expr.Expr) expr.Expr {
		if e == nil || !expr.ReadsClock(e) {
			return e
		}
		return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
			if f, ok := x.(*expr.Func); ok && f.Def != nil && expr.IsClockFunc(f.Def.Name) && len(f.Args) == 0 {
				if f.T.Kind == value.Date {
					return &expr.Const{V: date, T: value.DateType}
				}
				return &expr.Const{V: at, T: value.TimestampTZType}
			}
			return x
		})
	}
	kids := n.Children()
	nk := make([]Node, len(kids))
	for i, k := range kids {
		nk[i] = AtTime(k, at)
	}
	switch n := n.(type) {
	case *Filter:
		return &Filter{Input: nk[0], Pred: sub(n.Pred)}
	case *Project:
		c := *n
		c.Input = nk[0]
		return &c
	case *Join:
		c := *n
		c.Left, c.Right, c.Residual = nk[0], nk[1], sub(n.Residual)
		return &c
	case *Aggregate:
		c := *n
		c.Input = nk[0]
		return &c
	case *TableFunc:
		var in Node
		if n.Input != nil {
			in = nk[0]
		}
		return n.MapArgs(in, sub)
	case *GenerateSeries:
		if n.Input != nil {
			c := *n
			c.Input = nk[0]
			return &c
		}
		return n
	}
	if len(kids) == 0 {
		return n
	}
	return withChildren(n, nk)
}
