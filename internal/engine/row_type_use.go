package engine

import "github.com/deltaview/deltaview/internal/sql"

// A relation's row type used as a type (NULL::t, a column of type t)
// makes the statement depend on the relation but reads none of it: as in
// PostgreSQL, it needs no SELECT on the relation.

var _ sql.RowTypeCatalog = (*recorder)(nil)

// RowTypeRelation implements sql.RowTypeCatalog: the relation is
// recorded as a dependency, not as one the statement reads.
func (r *recorder) RowTypeRelation(name string) (*sql.Relation, bool) {
	rel, ok := r.cat.Relation(name)
	if ok {
		r.seen[name] = true
	}
	return rel, ok
}
