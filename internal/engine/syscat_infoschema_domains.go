package engine

import "github.com/deltaview/deltaview/internal/value"

// infoSchemaTypes are pg_type's rows of information_schema's domains and
// their array types, with PostgreSQL 15's oids: the types of its columns
// (which hold their base types here: catalogTypeNames).
var infoSchemaTypes = func() []catType {
	var out []catType
	for _, d := range []struct {
		oid, array uint32
		name       string
		kind       value.Kind
		base       uint32
		mod        int32
		def        string
	}{
		{13221, 13220, "cardinal_number", value.Int4, 23, -1, ""},
		{13224, 13223, "character_data", value.Varchar, 1043, -1, ""},
		{13226, 13225, "sql_identifier", value.Name, 19, -1, ""},
		{13232, 13231, "time_stamp", value.TimestampTZ, 1184, 2, "CURRENT_TIMESTAMP(2)"},
		{13234, 13233, "yes_or_no", value.Varchar, 1043, 7, ""},
	} {
		out = append(out, catType{oid: d.oid, array: d.array, name: d.name, nsp: infoSchemaOID, kind: d.kind, typtype: 'd',
			base: d.base, baseMod: d.mod, def: d.def, defBin: d.def},
			catType{oid: d.array, name: "_" + d.name, nsp: infoSchemaOID, kind: value.ArrayOf(d.kind), typtype: 'b', base: d.oid})
	}
	return out
}()
