package engine

import "github.com/deltaview/deltaview/internal/pgerr"

// PostgreSQL's errors about a row that breaks a table's constraint name
// the table's schema, the table and the constraint (or, for a not-null
// violation, the column) in fields of their own (errtableconstraint,
// errtablecol), which drivers show apart from the message (pgx's
// ConstraintName, node-postgres's err.constraint) and programs branch on.
// These helpers fill them in; they keep no state.

// relationFields sets e's schema and table to those of the relation
// keyed name: "schema.rel", or a bare name in public.
func relationFields(e *pgerr.Error, name string) *pgerr.Error {
	schema, rel, ok := cutSchema(name)
	if !ok {
		schema = "public"
	}
	e.Schema, e.Table = schema, rel
	return e
}

// constraintError returns e naming t and its constraint keyed name.
func (t *table) constraintError(e *pgerr.Error, name string) *pgerr.Error {
	relationFields(e, t.name)
	e.Constraint = t.bare(name)
	return e
}

// columnError returns e naming t and its column col.
func (t *table) columnError(e *pgerr.Error, col string) *pgerr.Error {
	relationFields(e, t.name)
	e.Column = col
	return e
}
