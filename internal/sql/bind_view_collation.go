// Collations of a materialized view's columns, derived from its query.
package sql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// ViewCollation is the collation of a materialized view's column: its
// name, and the ID of the value.Collation its strings carry (0 for a
// byte-wise one).
type ViewCollation struct {
	Name string
	ID   uint8
}

// viewCollations are the collations of the columns cols of a view whose
// query derives colls for them (binder.collOut; nil for a query that is
// not a simple SELECT): PostgreSQL creates the view's columns with them,
// so that COLLATION FOR, comparisons and sorts of a materialized view's
// columns follow its query's and pg_attribute.attcollation shows them. A
// string column whose implicit collations conflict gets none, which
// PostgreSQL refuses (42P22, worded for a plain view or a materialized
// one).
func viewCollations(cols []plan.Column, colls []collState, materialized bool) ([]ViewCollation, error) {
	if colls == nil {
		return nil, nil
	}
	out := make([]ViewCollation, len(cols))
	for i, c := range cols {
		if i >= len(colls) || !collatable(c.Type.Kind) {
			continue
		}
		st := colls[i]
		if st.uncollated {
			st.strength = collConflict // a column without one, as PostgreSQL sees a conflict's
		}
		switch {
		case st.strength == collConflict && !materialized:
			return nil, pgerr.New("42P22", "could not determine which collation to use for view column %q", c.Name).
				WithHint("Use the COLLATE clause to set the collation explicitly.")
		case st.strength == collConflict:
			return nil, pgerr.New("42P22", "no collation was derived for column %q with collatable type %s", c.Name, c.Type).
				WithHint("Use the COLLATE clause to set the collation explicitly.")
		case st.named():
			out[i] = ViewCollation{Name: st.name, ID: st.id}
		}
	}
	return out, nil
}
