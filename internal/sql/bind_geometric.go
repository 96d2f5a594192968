package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
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

// The forms built on equality (IN, op ANY and op ALL, NULLIF, IS
// DISTINCT FROM) over the geometric types call the types' own operators,
// as PostgreSQL does: box = box compares areas, and point and polygon,
// which have no =, are 42883, as is NOT IN and <> ALL over box (no <>).

// isGeometric reports whether e, or an array's elements, is of a
// geometric type.
func isGeometric(e expr.Expr) bool {
	k := e.Type().Kind
	return k.IsGeometric() || k.Elem().IsGeometric()
}

// geometricIn binds x IN (list), or NOT IN, as x = a OR x = b … (x <> a
// AND x <> b …).
func (b *binder) geometricIn(x expr.Expr, list []expr.Expr, not bool, loc int32) (expr.Expr, error) {
	op := "="
	if not {
		op = "<>"
	}
	args := make([]expr.Expr, len(list))
	for i, e := range list {
		c, _, err := b.geometricOperator(op, x, e, loc)
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	if len(args) == 1 {
		return args[0], nil
	}
	if not {
		return &expr.And{Args: args}, nil
	}
	return &expr.Or{Args: args}, nil
}

// geometricArrayCompare binds l op ANY (arr) or op ALL by the operator op
// of l's type and arr's element type.
func (b *binder) geometricArrayCompare(op string, l, arr expr.Expr, all bool, loc int32) (expr.Expr, error) {
	if !arr.Type().Kind.IsArray() {
		return nil, b.stmt.errf(loc, pgerr.WrongObjectType, "op ANY/ALL (array) requires array on right side")
	}
	c, _, err := b.geometricOperator(op, l, &expr.Const{V: value.Null, T: arr.Type().ElemType()}, loc)
	if err != nil {
		return nil, err
	}
	f, ok := c.(*expr.Func)
	if !ok || len(f.Args) != 2 || f.Args[0] != l {
		return nil, b.stmt.errf(loc, pgerr.FeatureNotSupported, "%s %s (array) over %s is not supported", op, map[bool]string{false: "ANY", true: "ALL"}[all], arr.Type())
	}
	return expr.NewArrayOperator(op, f.Def, l, arr, all), nil
}

// geometricNullIf binds NULLIF(l, r) as CASE WHEN l = r THEN NULL ELSE l
// END.
func (b *binder) geometricNullIf(l, r expr.Expr, loc int32) (expr.Expr, error) {
	eq, _, err := b.geometricOperator("=", l, r, loc)
	if err != nil {
		return nil, err
	}
	return &expr.Case{Whens: []expr.When{{Cond: eq, Result: &expr.Const{V: value.Null, T: l.Type()}}}, Else: l, T: l.Type()}, nil
}

// geometricDistinct binds l IS [NOT] DISTINCT FROM r: two NULLs are not
// distinct, one NULL is, else NOT (l = r).
func (b *binder) geometricDistinct(l, r expr.Expr, not bool, loc int32) (expr.Expr, error) {
	eq, _, err := b.geometricOperator("=", l, r, loc)
	if err != nil {
		return nil, err
	}
	bl := func(v bool) expr.Expr { return &expr.Const{V: value.NewBool(v), T: value.BoolType} }
	var same expr.Expr = eq
	if !not {
		same = &expr.Not{E: eq}
	}
	return &expr.Case{Whens: []expr.When{
		{Cond: &expr.And{Args: []expr.Expr{&expr.IsNull{E: l}, &expr.IsNull{E: r}}}, Result: bl(not)},
		{Cond: &expr.Or{Args: []expr.Expr{&expr.IsNull{E: l}, &expr.IsNull{E: r}}}, Result: bl(!not)},
	}, Else: same, T: value.BoolType}, nil
}
