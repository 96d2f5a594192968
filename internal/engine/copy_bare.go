// COPY's columns left out without a default: NULL, loaded unchecked.
package engine

import "github.com/deltaview/deltaview/internal/sql"

// copyBare marks, for a COPY into t, the columns its list leaves out
// that have no default (of their own or of their domain): PostgreSQL
// loads NULL into them without coercing it to their domain, so that a
// NOT NULL domain does not fail there as it does for an INSERT; nil
// when there are none. The columns it lists are checked as each field
// is read.
func copyBare(t *table, c *sql.Copy) []bool {
	var bare []bool
	listed := make([]bool, len(t.def.Cols))
	for _, i := range c.Cols {
		listed[i] = true
	}
	for i := range t.def.Cols {
		col := &t.def.Cols[i]
		if listed[i] || col.Domain == nil || col.Generated != nil || col.DefaultExpr() != nil {
			continue
		}
		if bare == nil {
			bare = make([]bool, len(t.def.Cols))
		}
		bare[i] = true
	}
	return bare
}
