package exec

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// outerFrame returns f with the ROWS or GROUPS offsets it reads from an
// enclosing query (Frame.StartExpr, EndExpr) evaluated over first, a row
// of the partition, which carries the outer value: PostgreSQL evaluates
// them once per execution of the subquery, with its errors for a NULL or
// negative offset.
func outerFrame(f plan.WinFunc, first value.Row) (plan.WinFunc, error) {
	eval := func(e interface {
		Eval(value.Row) (value.Value, error)
	}, what string) (int64, error) {
		v, err := e.Eval(first)
		switch {
		case err != nil:
			return 0, err
		case v.IsNull():
			return 0, pgerr.New("22004", "frame %s offset must not be null", what)
		case v.Int() < 0:
			return 0, pgerr.New("22013", "frame %s offset must not be negative", what)
		}
		return v.Int(), nil
	}
	var err error
	if f.Frame.StartExpr != nil {
		if f.Frame.StartOff, err = eval(f.Frame.StartExpr, "starting"); err != nil {
			return f, err
		}
	}
	if f.Frame.EndExpr != nil {
		if f.Frame.EndOff, err = eval(f.Frame.EndExpr, "ending"); err != nil {
			return f, err
		}
	}
	f.Frame.StartExpr, f.Frame.EndExpr = nil, nil
	return f, nil
}
