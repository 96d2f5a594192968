package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// domainArrayOperands is PostgreSQL's 42883 for an array comparison or
// @>, <@ and && written between an array of a domain d[] and another
// array type of the same base (its base array type int[], or d2[]): those
// operators take anyarray on both sides, which must be one type, and an
// array of a domain is a type of its own, not reduced to its base type
// as a domain is. An untyped literal takes the other side's type.
func (b *binder) domainArrayOperands(s *scope, op string, l, r expr.Expr, ln, rn *pg_query.Node, loc int32) error {
	_, cmp := cmpOps[op]
	if _, ok := arrayOps[op]; !ok && !cmp {
		return nil
	}
	lk, rk := l.Type().Kind, r.Type().Kind
	if !lk.IsArray() || lk != rk || untypedNode(ln) || untypedNode(rn) {
		return nil
	}
	ld, lknown := b.exprDomainKnown(s, l)
	rd, rknown := b.exprDomainKnown(s, r)
	// A domain over an array type reduces to that type.
	if ld.Elem() == nil {
		ld = nil
	}
	if rd.Elem() == nil {
		rd = nil
	}
	if !lknown || !rknown || ld == rd {
		return nil
	}
	name := func(d *expr.Domain, e expr.Expr) string {
		if d == nil {
			return e.Type().String()
		}
		return d.Elem().Name() + "[]"
	}
	return b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", name(ld, l), op, name(rd, r)).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// untypedNode reports whether n is an untyped literal: a quoted string
// or NULL, which takes its type from the operator's other operand.
func untypedNode(n *pg_query.Node) bool {
	return n != nil && (isUnknownConst(n) || n.GetAConst().GetIsnull())
}
