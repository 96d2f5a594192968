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
	lk, rk = l.Type().Kind, r.Type().Kind
	if lk != rk && !(op == "@>" && rk == rangeOf(lk).RangeElem() || op == "<@" && lk == rangeOf(rk).RangeElem() ||
		rangeOf(lk) == rangeOf(rk) && op != "+" && op != "*" && op != "-") {
		return nil, true, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	e, err = b.callFunc(nil, op, nil, []expr.Expr{l, r}, loc)
	return e, true, err
}

// isRangeLike reports whether k is a range or multirange kind.
func isRangeLike(k value.Kind) bool { return k.IsRange() || k.IsMultirange() }

// rangeOf is a multirange kind's range kind, or k itself.
func rangeOf(k value.Kind) value.Kind {
	if k.IsMultirange() {
		return k.MultirangeOf()
	}
	return k
}
