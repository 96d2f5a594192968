package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// operatorThroughCast binds l op r as binaryOp does and, when no operator
// takes the operands' types (42883) and one operand, alone, has an
// implicit user cast (CREATE CAST … AS IMPLICIT), binds it again with
// that operand converted by the cast, as PostgreSQL's operator resolution
// reaches the operators of the cast's target: row(3)::t + 1 through a
// cast from t to integer. When that finds no operator either, the first
// error stands.
func (b *binder) operatorThroughCast(op string, l, r expr.Expr, loc int32) (expr.Expr, error) {
	if err := b.ambiguousRowCompare(op, l, r, loc); err != nil {
		return nil, err
	}
	e, first := b.binaryOp(op, l, r, loc)
	if pgerr.Code(first) != pgerr.UndefinedFunction {
		return e, first
	}
	cc, ok := b.cat.(CastCatalog)
	if !ok || !cc.HasUserCasts() {
		return nil, first
	}
	lc, rc := cc.ImplicitCastFrom(CastKey(l.Type())), cc.ImplicitCastFrom(CastKey(r.Type()))
	if lc == nil && rc == nil || lc != nil && lc.Ignored || rc != nil && rc.Ignored {
		return nil, first
	}
	// Either operand, or both, through its user type's one implicit cast.
	nl, nr := l, r
	var err error
	if lc != nil {
		if b.castFor(l.Type(), lc.Target, 'i') == nil {
			return nil, first
		}
		if nl, err = b.applyCast(lc, l, lc.TargetType, false, loc); err != nil {
			return nil, err
		}
	}
	if rc != nil {
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

// ambiguousRowCompare is 42725 for a comparison of two values of
// composite types that both have an implicit user cast: PostgreSQL finds
// both the record comparison and the one of the casts' target, and
// chooses neither.
func (b *binder) ambiguousRowCompare(op string, l, r expr.Expr, loc int32) error {
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
	default:
		return nil
	}
	lt, rt := l.Type(), r.Type()
	if lt.Kind != value.Record || rt.Kind != value.Record || lt.IsAnonymousRecord() || rt.IsAnonymousRecord() {
		return nil
	}
	cc, ok := b.cat.(CastCatalog)
	if !ok || !cc.HasUserCasts() {
		return nil
	}
	lc, rc := cc.ImplicitCastFrom(CastKey(lt)), cc.ImplicitCastFrom(CastKey(rt))
	if lc == nil || rc == nil || lc.Ignored || rc.Ignored {
		return nil
	}
	if op == "!=" {
		op = "<>"
	}
	return b.stmt.errf(loc, CodeAmbiguousFunction, "operator is not unique: %s %s %s", lt, op, rt).
		WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
}
