package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// arrayCompareTypes is PostgreSQL's 42883 for a comparison written
// between arrays of different element types (int[] = bigint[],
// varchar[] = text[]): its array comparisons take anyarray on both
// sides, which must be one type, and no cast is applied to meet it.
// Arrays of records and untyped literals are left to the comparison.
func (b *binder) arrayCompareTypes(op string, l, r expr.Expr, loc int32) error {
	if _, ok := cmpOps[op]; !ok {
		return nil
	}
	lk, rk := l.Type().Kind, r.Type().Kind
	if !lk.IsArray() || !rk.IsArray() || lk == rk || lk == value.ArrayOf(value.Record) || rk == value.ArrayOf(value.Record) {
		return nil
	}
	return b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type()).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}
