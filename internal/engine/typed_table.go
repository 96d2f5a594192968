package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Typed tables (sql/bind_typed.go): a table CREATE TABLE … OF type made
// depends on its composite type, as PostgreSQL's pg_depend records it:
// DROP TYPE is 2BP01 while it is there (CASCADE drops it,
// typed_table_drop.go),
// and ALTER TYPE of the type's attributes 2BP01 (CASCADE 0A000, refused
// by the binder); pg_class.reloftype is the type's oid.

// typedTables are the tables whose type is the composite type name, in
// name order.
func (e *Engine) typedTables(name string) []string {
	var out []string
	for _, tn := range sortedKeys(e.tables) {
		if e.tables[tn].def.OfType == name {
			out = append(out, tn)
		}
	}
	return out
}

// typedTableLines are the DETAIL lines of the typed tables of type name.
func (e *Engine) typedTableLines(name string) []string {
	var out []string
	for _, tn := range e.typedTables(name) {
		out = append(out, fmt.Sprintf("table %s depends on type %s", tn, name))
	}
	return out
}

// refuseTypedAlter refuses ALTER TYPE of the attributes of a composite
// type that typed tables have, as PostgreSQL does without CASCADE.
func (e *Engine) refuseTypedAlter(a *sql.AlterComposite) error {
	if len(e.typedTables(a.Name)) == 0 {
		return nil
	}
	return pgerr.New(pgerr.DependentObjects, "cannot alter type %q because it is the type of a typed table", e.bareName(a.Name)).
		WithHint("Use ALTER ... CASCADE to alter the typed tables too.")
}

// relOfType is pg_class.reloftype of rel: its composite type's oid for a
// typed table, 0 for another relation.
func (o *catalogObjects) relOfType(rel *catRel) uint32 {
	def := rel.tableDef()
	if def == nil || def.OfType == "" {
		return 0
	}
	if ct, ok := o.e.composites[def.OfType]; ok {
		return o.e.typeOID(ct.Type, nil)
	}
	return 0
}
