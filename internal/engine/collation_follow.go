package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Domains follow their collation by oid, as PostgreSQL's pg_type keeps
// typcollation: ALTER COLLATION … RENAME TO and SET SCHEMA rewrite the
// COLLATE clause of each domain that names the collation (stored as its
// CREATE DOMAIN text), and the domain's columns take it through the
// domain. What else names the collation is written again
// (collation_rename.go).

// followCollation gives the domains whose collation is oid its new
// definition c, in memory and in the store, and their columns its id.
func (e *Engine) followCollation(oid uint32, c *sql.UserCollation) error {
	for _, key := range sortedKeys(e.domains.byName) {
		d := e.domains.byName[key]
		def := *d.Def()
		if def.UserColl == nil || def.UserColl.OID != oid {
			continue
		}
		def.Collation = c.Name
		def.UserColl = &expr.DomainCollation{OID: c.OID, ID: c.ID, Schema: c.Schema, SQL: c.QualifiedName()}
		d.Set(def)
		if err := e.saveDomain(d.Name(), d, nil); err != nil {
			return err
		}
	}
	// A new name is a new ICU collation id (value.UserCollation): the
	// tables' columns of the collation or of those domains read it from
	// now on.
	for _, t := range e.sortedTables() {
		for i := range t.def.Cols {
			if i < len(t.cols) {
				t.cols[i].Coll = t.def.Cols[i].ICUCollation()
			}
		}
	}
	return nil
}
