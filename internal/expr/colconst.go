package expr

import "github.com/deltaview/deltaview/internal/value"

// ColConst is an integer column compared with an integer constant of the
// same type (val < 100000): the predicate most filters apply, tested
// without Cmp.Eval's generic work (two evaluations through the interface,
// the comparison dispatched on the values' kind).
type ColConst struct {
	Idx  int
	Op   CmpOp
	Kind value.Kind
	N    int64
}

// ColConstOf returns e as a ColConst when it is one: a Cmp of a column
// (left) and a non-NULL integer constant (right).
func ColConstOf(e Expr) (ColConst, bool) {
	c, ok := e.(*Cmp)
	if !ok || c.Check != nil {
		return ColConst{}, false
	}
	col, ok := c.L.(*Col)
	if !ok || col.Idx < 0 {
		return ColConst{}, false
	}
	k, ok := c.R.(*Const)
	if !ok || !k.V.Kind().IsInteger() {
		return ColConst{}, false
	}
	return ColConst{Idx: col.Idx, Op: c.Op, Kind: k.V.Kind(), N: k.V.Int()}, true
}

// Test returns whether row's value passes the comparison. ok is false when
// the value is not an integer of the constant's kind (NULL, or a row too
// short): the caller evaluates the expression instead, for its NULL or
// its error.
func (t *ColConst) Test(row value.Row) (pass, ok bool) {
	if t.Idx >= len(row) {
		return false, false
	}
	v := row[t.Idx]
	if v.Kind() != t.Kind {
		return false, false
	}
	n := v.Int()
	switch t.Op {
	case EQ:
		return n == t.N, true
	case NE:
		return n != t.N, true
	case LT:
		return n < t.N, true
	case LE:
		return n <= t.N, true
	case GT:
		return n > t.N, true
	case GE:
		return n >= t.N, true
	}
	return false, false
}
