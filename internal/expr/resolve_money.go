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

// moneyBesideNumber reports whether one of two kinds is money and the
// other a number: money is of PostgreSQL's numeric category but converts
// to and from no number implicitly, so where types must agree the first
// stays and the other fails to convert to it (42846 "UNION could not
// convert type integer to money"), rather than the two being of different
// categories (42804 "cannot be matched").
func moneyBesideNumber(a, b value.Kind) bool {
	return a == value.Money && b.IsNumeric() || b == value.Money && a.IsNumeric()
}
