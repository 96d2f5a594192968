package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// bindQualifiedOperator binds OPERATOR(schema.op): the built-in operators
// are pg_catalog's, the user-defined ones their schema's
// (bind_operator_schema.go); a schema that does not exist is 3F000. ok is
// false for an operator written without a schema.
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
		e, err := b.schemaOperator(s, a, "")
		return e, true, err
	default:
		nr, _ := b.cat.(NameResolver)
		if nr == nil || nr.Qualifier() == nil || !nr.Qualifier().SchemaExists(schema) {
			return nil, true, b.stmt.errf(a.Location, pgerr.InvalidSchemaName, "schema %q does not exist", schema)
		}
		e, err := b.schemaOperator(s, a, schema)
		return e, true, err
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
