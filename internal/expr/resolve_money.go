package expr

import "github.com/deltaview/deltaview/internal/value"

// moneyKinds is arithKinds with a money operand, PostgreSQL's money
// operators: money ± money, money ÷ money (double precision), money × or
// ÷ a smallint, integer, bigint, real or double precision, and any of
// those × money. A numeric converts implicitly to double precision, the
// preferred of the two floats it converts to.
func moneyKinds(op ArithOp, l, r value.Kind) (lk, rk, res value.Kind, ok bool) {
	m := value.Money
	factor := func(k value.Kind) (value.Kind, bool) {
		switch {
		case k.IsInteger() || k.IsFloat():
			return k, true
		case k == value.Numeric:
			return value.Float8, true
		}
		return 0, false
	}
	switch {
	case l == m && r == m:
		switch op {
		case OpAdd, OpSub:
			return m, m, m, true
		case OpDiv:
			return m, m, value.Float8, true
		}
	case l == m && (op == OpMul || op == OpDiv):
		if k, ok := factor(r); ok {
			return m, k, m, true
		}
	case r == m && op == OpMul:
		if k, ok := factor(l); ok {
			return k, m, m, true
		}
	}
	return 0, 0, 0, false
}
