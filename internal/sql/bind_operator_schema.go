package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// Operators in schemas. A user-defined operator belongs to a schema:
// the one CREATE OPERATOR names (s.===), or the search path's first. An
// operator written bare is found among those of the schemas on the
// search path, an earlier schema's first, as PostgreSQL finds it;
// OPERATOR(s.===) among those of s only.

// operatorSchema is the schema CREATE OPERATOR creates the operator of
// names in, "" for public.
func (b *binder) operatorSchema(names []*pg_query.Node) (string, error) {
	nr, _ := b.cat.(NameResolver)
	var q Qualifier
	if nr != nil {
		q = nr.Qualifier()
	}
	if len(names) == 1 {
		if q == nil {
			return "", nil
		}
		path := q.SearchPath()
		if len(path) == 0 {
			return "", pgerr.New(pgerr.InvalidSchemaName, "no schema has been selected to create in")
		}
		if path[0] == "public" {
			return "", nil
		}
		return path[0], nil
	}
	schema := FuncName(names[:len(names)-1])
	switch {
	case schema == "public":
		return "", nil
	case schema == "pg_temp" || schema == "pg_catalog" || schema == "information_schema":
		return "", pgerr.New(pgerr.FeatureNotSupported, "operators in schema %s are not supported", schema).
			WithHint("create the operator in public or in a schema CREATE SCHEMA made")
	case q == nil || !q.SchemaExists(schema):
		return "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
	}
	return schema, nil
}

// visibleOperators are those of ops whose schema is on the search path,
// in the path's order.
func (b *binder) visibleOperators(ops []*Operator) []*Operator {
	nr, _ := b.cat.(NameResolver)
	if len(ops) == 0 || nr == nil || nr.Qualifier() == nil {
		return ops
	}
	path := nr.Qualifier().SearchPath()
	rank := func(o *Operator) int {
		s := o.Schema
		if s == "" {
			s = "public"
		}
		return slices.Index(path, s)
	}
	var out []*Operator
	for _, o := range ops {
		if rank(o) >= 0 {
			out = append(out, o)
		}
	}
	slices.SortStableFunc(out, func(x, y *Operator) int { return rank(x) - rank(y) })
	return out
}

// schemaOperator binds l OPERATOR(schema.op) r among the user-defined
// operators of schema ("" for public).
func (b *binder) schemaOperator(s *scope, a *pg_query.A_Expr, schema string) (expr.Expr, error) {
	var l expr.Expr
	var err error
	if a.Lexpr != nil {
		if l, err = b.bindExpr(s, a.Lexpr); err != nil {
			return nil, err
		}
	}
	r, err := b.bindExpr(s, a.Rexpr)
	if err != nil {
		return nil, err
	}
	op := opName(a.Name)
	var ops []*Operator
	if oc, has := b.cat.(OperatorCatalog); has {
		for _, o := range oc.Operators(op) {
			if o.Schema == schema {
				ops = append(ops, o)
			}
		}
	}
	if e, ok, err := b.userOperatorAmong(s, op, ops, l, r, false, a.Location); ok {
		return e, err
	}
	return nil, b.errNoOperator(dottedName(a.Name), l, r, a.Location)
}

// dropOperatorSchema is the schema of the operator an unqualified DROP
// OPERATOR names: the search path's first that holds it ("" for public,
// or when none does).
func (b *binder) dropOperatorSchema(ref OperRef) string {
	oc, has := b.cat.(OperatorCatalog)
	if !has {
		return ""
	}
	for _, o := range b.visibleOperators(oc.Operators(ref.Name)) {
		if ref.Names(o) {
			return o.Schema
		}
	}
	return ""
}
