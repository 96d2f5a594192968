// Dates compared with timestamps: PostgreSQL's cross-type operators,
// which compare a date past the timestamp range without an error.
package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// compareOperand converts an operand of a comparison to t, the
// comparison's type. A date compared with a timestamp or timestamptz is
// cast so that one past the timestamp range orders after (or before)
// every finite timestamp, as date_lt_timestamp and its kin compare it,
// where a cast would fail with 22008.
func (b *binder) compareOperand(e expr.Expr, t value.Type, loc int32) (expr.Expr, error) {
	if e.Type().Kind == value.Date && (t.Kind == value.Timestamp || t.Kind == value.TimestampTZ) {
		if _, ok := e.(*expr.Const); ok {
			if out, err := b.coerce(e, t, loc); err == nil {
				if _, folded := out.(*expr.Const); folded {
					return out, nil // as any constant's cast
				}
			}
		}
		return b.zoned(&expr.Cast{E: e, To: t, Saturate: true}), nil
	}
	return b.coerce(e, t, loc)
}

// comparedOperands is comparable for an operator that yields only the
// comparison's outcome (IS DISTINCT FROM), with compareOperand's dates.
func (b *binder) comparedOperands(l, r expr.Expr, loc int32) (expr.Expr, expr.Expr, error) {
	t, err := expr.ResolveCompare(l.Type(), r.Type())
	if err != nil {
		return nil, nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	if l, err = b.compareOperand(l, t, loc); err != nil {
		return nil, nil, err
	}
	if r, err = b.compareOperand(r, t, loc); err != nil {
		return nil, nil, err
	}
	return l, r, nil
}
