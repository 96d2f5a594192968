package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// Every system catalog and system view has a row type, as in PostgreSQL:
// a pg_type row of typtype 'c' named after it in its schema, whose
// typrelid is the relation, with an array type "_name". The bootstrap
// catalogs and the shared ones PostgreSQL gives fixed row type oids keep
// them; the others' (PostgreSQL's initdb assigns them) derive from the
// relation's key, as a relation's row type does (rowTypeOIDs).

// catalogRowTypeOIDs are the row type oids PostgreSQL fixes for its
// catalogs (BKI_ROWTYPE_OID), with their array types' where fixed too.
var catalogRowTypeOIDs = map[string][2]uint32{
	"pg_type": {71, 210}, "pg_attribute": {75, 270}, "pg_proc": {81, 272}, "pg_class": {83, 273},
	"pg_database": {1248, 0}, "pg_authid": {2842, 0}, "pg_auth_members": {2843, 0},
	"pg_shseclabel": {4066, 0}, "pg_subscription": {6101, 0},
}

// catalogRowTypeOIDsOf are the oids of the row type of the catalog
// relation keyed key ("pg_catalog.pg_class", "information_schema.tables")
// and of its array type; ok is false when key names no catalog relation.
func catalogRowTypeOIDsOf(key string) (oid, arr uint32, ok bool) {
	if _, ok := catalogRelations[key]; !ok {
		return 0, 0, false
	}
	oid, arr = rowTypeOIDs(key)
	if schema, rel, _ := strings.Cut(key, "."); schema == "pg_catalog" {
		if fixed, ok := catalogRowTypeOIDs[rel]; ok {
			oid = fixed[0]
			if fixed[1] != 0 {
				arr = fixed[1]
			}
		}
	}
	return oid, arr, true
}

// catalogRowTypes lists the row types of o's catalog relations, each
// with its array type, and sets each one's reltype.
func (o *catalogObjects) catalogRowTypes() []catType {
	var out []catType
	for _, r := range o.rels {
		if r.key != "" || r.nsp != pgCatalogOID && r.nsp != infoSchemaOID || r.kind != 'r' && r.kind != 'v' {
			continue
		}
		oid, arr, ok := catalogRowTypeOIDsOf(nspName(r.nsp) + "." + r.name)
		if !ok {
			continue
		}
		r.reltype = oid
		out = append(out, catType{oid: oid, array: arr, name: r.name, nsp: r.nsp, kind: value.Record, typtype: 'c', relid: r.oid},
			catType{oid: arr, name: "_" + r.name, nsp: r.nsp, kind: value.ArrayOf(value.Record), typtype: 'b', base: oid})
	}
	return out
}

// catalogTypeKey is the key a catalog's row type t keeps its privileges
// under: its name, qualified unless of pg_catalog.
func catalogTypeKey(t *catType) (string, bool) {
	if t.relid == 0 || t.nsp != pgCatalogOID && t.nsp != infoSchemaOID {
		return "", false
	}
	if t.nsp == infoSchemaOID {
		return "information_schema." + t.name, true
	}
	return t.name, true
}
