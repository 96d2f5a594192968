package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Domains follow their collation by oid, as PostgreSQL's pg_type keeps
// typcollation: ALTER COLLATION … RENAME TO and SET SCHEMA rewrite the
// COLLATE clause of each domain that names the collation (stored as its
// CREATE DOMAIN text), and the domain's columns take it through the
// domain. A column's own COLLATE clause and a view's query keep the
// collation by name in their stored text, so those still refuse the
// change (collationFixedDependents).

// collationFixedDependents lists the dependents of c that cannot follow a
// new name or schema of it: collationDependents less the domains and the
// columns that have c from their domain.
func (e *Engine) collationFixedDependents(c *sql.UserCollation) []string {
	var out []string
	for _, d := range e.collationDependents(c) {
		if strings.HasPrefix(d, "type ") {
			continue
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil
	}
	var fixed []string
	for _, key := range sortedKeys(e.tables) {
		t := e.tables[key]
		if t.def == nil {
			continue
		}
		for _, col := range t.def.Cols {
			if col.UserColl != nil && col.UserColl.OID == c.OID {
				fixed = append(fixed, "column "+col.Name+" of table "+e.bareName(key)+" depends on collation "+c.Name)
			}
		}
	}
	for _, d := range out {
		if !strings.HasPrefix(d, "column ") {
			fixed = append(fixed, d)
		}
	}
	return fixed
}

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
	// tables' columns of those domains read it from now on.
	for _, t := range e.sortedTables() {
		for i := range t.def.Cols {
			if i < len(t.cols) {
				t.cols[i].Coll = t.def.Cols[i].ICUCollation()
			}
		}
	}
	return nil
}
