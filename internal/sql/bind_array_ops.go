package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// arrayOps are the operators on two arrays that call a function of the
// catalog.
var arrayOps = map[string]string{"@>": "arraycontains", "<@": "arraycontained", "&&": "arrayoverlap"}

// arrayOperator binds l op r when op is @>, <@ or && and an operand is an
// array, the other of the same type or an untyped literal; ok is false
// when neither is an array.
func (b *binder) arrayOperator(op string, l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	fn, isOp := arrayOps[op]
	lk, rk := l.Type().Kind, r.Type().Kind
	if !isOp || !lk.IsArray() && !rk.IsArray() {
		return nil, false, nil
	}
	if op == "@>" && lk == value.ArrayOf(value.ACLItem) && (rk == value.ACLItem || rk == value.Unknown) {
		// aclitem[] @> aclitem, aclcontains, which PostgreSQL prefers
		// for an untyped right operand too.
		e, err = b.callFunc(nil, "aclcontains", nil, []expr.Expr{l, r}, loc)
		return e, true, err
	}
	if lk != rk && lk != value.Unknown && rk != value.Unknown {
		// anyarray against anyarray: the same array type on both sides.
		return nil, true, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	e, err = b.callFunc(nil, fn, nil, []expr.Expr{l, r}, loc)
	return e, true, err
}
