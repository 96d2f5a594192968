package expr

import "github.com/deltaview/deltaview/internal/value"

// lsnKinds is arithKinds with a pg_lsn operand, PostgreSQL's pg_lsn
// operators: pg_lsn - pg_lsn (numeric), pg_lsn ± numeric and numeric +
// pg_lsn (pg_lsn); an integer converts implicitly to numeric.
func lsnKinds(op ArithOp, l, r value.Kind) (lk, rk, res value.Kind, ok bool) {
	p := value.PgLSN
	num := func(k value.Kind) bool { return k.IsInteger() || k == value.Numeric }
	switch {
	case l == p && r == p && op == OpSub:
		return p, p, value.Numeric, true
	case l == p && num(r) && (op == OpAdd || op == OpSub):
		return p, value.Numeric, p, true
	case r == p && num(l) && op == OpAdd:
		return value.Numeric, p, p, true
	}
	return 0, 0, 0, false
}
