// The collations of a materialized view's columns as its readers see them.
package engine

import (
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
)

// collatedCols are a materialized view's columns cols with the ICU
// collations its query derives for them (sql.CreateView.Collations): a
// reference of one applies it, as a table column's does, so a view's
// column sorts, compares and conflicts under its query's collation. cols
// is not changed.
func collatedCols(cols []plan.Column, colls []sql.ViewCollation) []plan.Column {
	out := cols
	for i, c := range colls {
		if c.ID == 0 || i >= len(cols) || cols[i].Coll == c.ID {
			continue
		}
		if &out[0] == &cols[0] {
			out = append([]plan.Column(nil), cols...)
		}
		out[i].Coll = c.ID
	}
	return out
}

// viewColCollations gives cols, a materialized view's catalog columns,
// the oids of the collations its query derives for them (colls), which
// pg_attribute.attcollation shows.
func (e *Engine) viewColCollations(cols []catCol, colls []sql.ViewCollation) []catCol {
	for i, c := range colls {
		if c.Name == "" || i >= len(cols) {
			continue
		}
		if oid := collationOID(c.Name); oid != 0 {
			cols[i].coll = oid
		} else if uc, ok := e.UserCollation([]string{c.Name}); ok && uc.ID == c.ID {
			cols[i].coll = uc.OID
		} else if uc := e.userCollationByID(c.Name, c.ID); uc != nil {
			cols[i].coll = uc.OID
		}
	}
	return cols
}

// userCollationByID is the user collation called name whose strings
// carry id, in the first schema by name holding one; nil for none.
func (e *Engine) userCollationByID(name string, id uint8) *sql.UserCollation {
	for _, key := range sortedKeys(e.colls) {
		if uc := e.colls[key]; uc.Name == name && uc.ID == id {
			return uc
		}
	}
	return nil
}
