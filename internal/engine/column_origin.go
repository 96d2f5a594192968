package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
)

// withOrigins returns cols with the oid and the attnum of the table
// column each is taken from straight (sql.Origin), which RowDescription
// tells a client (JDBC's ResultSetMetaData reads them), and the oid of
// the array type of a domain a column is of; cols itself, the plan's, is
// left as it is.
func withOrigins(cols []plan.Column, origins []sql.Origin) []plan.Column {
	if !slices.ContainsFunc(origins, func(o sql.Origin) bool { return o.Rel != "" || o.Domain.Elem() != nil }) {
		return cols
	}
	out := slices.Clone(cols)
	for i, o := range origins {
		if i >= len(out) {
			break
		}
		if o.Rel != "" {
			out[i].TableOID, out[i].AttNum = originOID(o.Rel), int16(o.Col+1)
		}
		if d := o.Domain; d.Elem() != nil && d.Def().Base.Kind == out[i].Type.Kind {
			out[i].TypeOID, out[i].ElemTypeOID = objectOID("type", d.Name()), objectOID("type", d.Elem().Name())
		}
	}
	return out
}

// originOID is the oid pg_class gives the relation of key: a system
// catalog's or view's as catalogObjects lists it, a statement's
// relation's RelationOID.
func originOID(key string) uint32 {
	if _, ok := catalogRelations[key]; ok {
		schema, rel, _ := strings.Cut(key, ".")
		if oid, ok := catalogRelOIDs[rel]; ok {
			return oid
		}
		return objectOID(schema, rel)
	}
	return RelationOID(key)
}

// withResultOrigins runs a DML statement and gives the columns of its
// RETURNING result their origins.
func withResultOrigins(origins []sql.Origin, run func() (Result, error)) (Result, error) {
	res, err := run()
	res.Columns = withOrigins(res.Columns, origins)
	return res, err
}
