package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// bindQualifiedOperator binds OPERATOR(schema.op): the built-in operators
// are pg_catalog's, the user-defined ones public's; another schema does
// not exist (3F000). ok is false for an operator written without a
// schema.
func (b *binder) bindQualifiedOperator(s *scope, a *pg_query.A_Expr) (e expr.Expr, ok bool, err error) {
	if len(a.Name) < 2 {
		return nil, false, nil
	}
	switch {
	case len(a.Name) == 3:
		// PostgreSQL reports these two without a position.
		return nil, true, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", dottedName(a.Name))
	case len(a.Name) > 3:
		return nil, true, pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", dottedName(a.Name))
	}
	switch schema := a.Name[0].GetString_().GetSval(); schema {
	case "pg_catalog":
		return nil, false, nil // the built-in operators, and the user's of the name after them
	case "public":
		if oc, has := b.cat.(OperatorCatalog); has && len(oc.Operators(opName(a.Name))) > 0 {
			return nil, false, nil
		}
		var l expr.Expr
		if a.Lexpr != nil {
			if l, err = b.bindExpr(s, a.Lexpr); err != nil {
				return nil, true, err
			}
		}
		r, err := b.bindExpr(s, a.Rexpr)
		if err != nil {
			return nil, true, err
		}
		return nil, true, b.errNoOperator(dottedName(a.Name), l, r, a.Location)
	default:
		return nil, true, b.stmt.errf(a.Location, pgerr.InvalidSchemaName, "schema %q does not exist", schema)
	}
}

func dottedName(names []*pg_query.Node) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += "."
		}
		out += n.GetString_().GetSval()
	}
	return out
}

// errNoOperator is 42883 for l op r (l nil for a prefix operator), as
// PostgreSQL words it.
func (b *binder) errNoOperator(op string, l, r expr.Expr, loc int32) error {
	if l == nil {
		return b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s", op, r.Type().Kind).
			WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
	}
	return b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type().Kind, op, r.Type().Kind).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}
