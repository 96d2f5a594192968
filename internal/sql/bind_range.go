package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// rangeOps are the operators over ranges other than the comparisons.
var rangeOps = map[string]bool{
	"@>": true, "<@": true, "&&": true, "<<": true, ">>": true, "&<": true, "&>": true, "-|-": true,
	"+": true, "*": true, "-": true,
}

// rangeOperator binds an operator of rangeOps with a range or multirange
// operand. As for PostgreSQL's anyrange, anymultirange and anyelement, an
// untyped literal beside one is of its type, and the other operand must
// be a range or multirange of the same range type (both multiranges for
// +, * and - of a multirange) or, for @> and <@, exactly its element
// type. ok is false for other operands.
func (b *binder) rangeOperator(op string, l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	lk, rk := l.Type().Kind, r.Type().Kind
	if !rangeOps[op] || !isRangeLike(lk) && !isRangeLike(rk) {
		return nil, false, nil
	}
	if lk == value.Unknown {
		if l, err = b.coerce(l, r.Type(), loc); err != nil {
			return nil, true, err
		}
	}
	if rk == value.Unknown {
		if r, err = b.coerce(r, l.Type(), loc); err != nil {
			return nil, true, err
		}
	}
	lt, rt := l.Type(), r.Type()
	if lt != rt && !(op == "@>" && isSubtypeOf(rt, lt) || op == "<@" && isSubtypeOf(lt, rt) ||
		isRangeLike(lt.Kind) && isRangeLike(rt.Kind) && lt.RangeType() == rt.RangeType() && op != "+" && op != "*" && op != "-") {
		return nil, true, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", lt, op, rt).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	e, err = b.callFunc(nil, op, nil, []expr.Expr{l, r}, loc)
	return e, true, err
}

// isRangeLike reports whether k is a range or multirange kind.
func isRangeLike(k value.Kind) bool { return k.IsRange() || k.IsMultirange() }

// isSubtypeOf reports whether e is exactly the subtype of the range or
// multirange type t (its kind; an enum subtype's own type).
func isSubtypeOf(e, t value.Type) bool {
	if !isRangeLike(t.Kind) {
		return false
	}
	sub := t.RangeSubtype()
	return e.Kind == sub.Kind && (sub.Enum() == nil || e == sub)
}
