package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TYPE … ATTRIBUTE … CASCADE alters the typed tables of the type
// with it, as PostgreSQL does: each table as by the ALTER TABLE of the
// same column commands (sql.AlterComposite.TypedTableSQL), bound as if
// the table were not typed and then typed again. Every table's statement
// is bound and checked (its views, its rows under a new type, its row
// security and rules) before anything changes.

// untypedCatalog reads the tables named as not typed, so that their
// column commands bind.
type untypedCatalog struct {
	*Engine
	tables []string
}

// Relation implements sql.Catalog.
func (c untypedCatalog) Relation(name string) (*sql.Relation, bool) {
	rel, ok := c.Engine.Relation(name)
	if ok && rel.Def != nil && slices.Contains(c.tables, name) {
		cp, def := *rel, *rel.Def
		def.OfType = ""
		cp.Def = &def
		rel = &cp
	}
	return rel, ok
}

// typedTableAlters binds the ALTER TABLE of each typed table of the type
// a alters, and checks it.
func (e *Engine) typedTableAlters(a *sql.AlterComposite, tables []string) ([]*sql.AlterTable, error) {
	cat := untypedCatalog{Engine: e, tables: tables}
	var out []*sql.AlterTable
	for _, tn := range tables {
		schema, bare := e.splitKey(tn)
		text, err := a.TypedTableSQL(schema, bare)
		if err != nil {
			return nil, err
		}
		st, err := sql.Parse(text)
		if err != nil {
			return nil, err
		}
		b, err := sql.Bind(cat, st)
		if err != nil {
			return nil, err
		}
		at, ok := b.(*sql.AlterTable)
		if !ok || at.New == nil {
			return nil, pgerr.New(pgerr.Internal, "%s binds to %T", text, b)
		}
		at.New.OfType = a.Name
		if err := e.checkTypedAlter(e.tables[tn], at); err != nil {
			return nil, err
		}
		out = append(out, at)
	}
	return out, nil
}

// checkTypedAlter makes the checks alterTable makes before it changes the
// table t, so that no table changes when one of them would fail.
func (e *Engine) checkTypedAlter(t *table, a *sql.AlterTable) error {
	if _, err := e.alteredReaders(t, a); err != nil {
		return err
	}
	if _, _, ok, err := e.ruleAlter(t, a); err != nil {
		return err
	} else if !ok {
		if err := e.refuseRuleAlter(a.Table); err != nil {
			return err
		}
	}
	return e.checkAlterRows(t, a)
}
