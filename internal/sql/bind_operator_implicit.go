package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// operatorThroughCast binds l op r as binaryOp does and, when no operator
// takes the operands' types (42883) and one operand, alone, has an
// implicit user cast (CREATE CAST … AS IMPLICIT), binds it again with
// that operand converted by the cast, as PostgreSQL's operator resolution
// reaches the operators of the cast's target: row(3)::t + 1 through a
// cast from t to integer. When that finds no operator either, the first
// error stands.
func (b *binder) operatorThroughCast(op string, l, r expr.Expr, loc int32) (expr.Expr, error) {
	e, first := b.binaryOp(op, l, r, loc)
	if pgerr.Code(first) != pgerr.UndefinedFunction {
		return e, first
	}
	cc, ok := b.cat.(CastCatalog)
	if !ok || !cc.HasUserCasts() {
		return nil, first
	}
	lc, rc := cc.ImplicitCastFrom(CastKey(l.Type())), cc.ImplicitCastFrom(CastKey(r.Type()))
	if (lc == nil) == (rc == nil) || lc != nil && lc.Ignored || rc != nil && rc.Ignored {
		return nil, first
	}
	nl, nr := l, r
	var err error
	if lc != nil {
		if b.castFor(l.Type(), lc.Target, 'i') == nil {
			return nil, first
		}
		if nl, err = b.applyCast(lc, l, lc.TargetType, false, loc); err != nil {
			return nil, err
		}
	} else {
		if b.castFor(r.Type(), rc.Target, 'i') == nil {
			return nil, first
		}
		if nr, err = b.applyCast(rc, r, rc.TargetType, false, loc); err != nil {
			return nil, err
		}
	}
	e, err = b.binaryOp(op, nl, nr, loc)
	if pgerr.Code(err) == pgerr.UndefinedFunction {
		return nil, first
	}
	return e, err
}
