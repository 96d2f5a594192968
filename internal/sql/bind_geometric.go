package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// geometricOperator binds an operator with an operand of a geometric
// type (point, lseg, path, box, polygon, line, circle) among the
// catalog's geometric operators, comparisons included: PostgreSQL's
// box = box compares areas, and point has no = at all. r alone is a
// prefix operator's operand (l nil). ok is false when no operand is
// geometric.
func (b *binder) geometricOperator(op string, l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	args := []expr.Expr{r}
	if l != nil {
		args = []expr.Expr{l, r}
	}
	geometric := false
	for _, a := range args {
		geometric = geometric || a.Type().Kind.IsGeometric()
	}
	if !geometric {
		return nil, false, nil
	}
	if op == "!=" {
		op = "<>"
	}
	e, err = b.callFunc(nil, op, nil, args, loc)
	code := pgerr.Code(err)
	if code != pgerr.UndefinedFunction && code != ambiguousFunction {
		return e, true, err
	}
	what, hint := "operator does not exist", "No operator matches the given name and argument type"
	if code == ambiguousFunction {
		what, hint = "operator is not unique", "Could not choose a best candidate operator"
	}
	if l == nil {
		return nil, true, b.stmt.errf(loc, code, "%s: %s %s", what, op, r.Type()).
			WithHint("%s. You might need to add an explicit type cast.", hint)
	}
	if code == pgerr.UndefinedFunction {
		hint += "s"
	}
	return nil, true, b.stmt.errf(loc, code, "%s: %s %s %s", what, l.Type(), op, r.Type()).
		WithHint("%s. You might need to add explicit type casts.", hint)
}

// ambiguousFunction is SQLSTATE 42725, an operator with several best
// candidates.
const ambiguousFunction = "42725"
