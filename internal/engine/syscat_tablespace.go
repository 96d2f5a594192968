package engine

// pg_tablespace lists PostgreSQL's two built-in tablespaces: pg_default,
// the one a table is in here (the database file), and pg_global.
func init() {
	const name = "pg_catalog.pg_tablespace"
	rows := func(_ *catalogObjects, r *catRows) {
		r.add("oid", uint32(1663), "spcname", "pg_default", "spcowner", uint32(superuserOID), "spcacl", nil, "spcoptions", nil)
		r.add("oid", uint32(1664), "spcname", "pg_global", "spcowner", uint32(superuserOID), "spcacl", nil, "spcoptions", nil)
	}
	catalogColumns[name], catalogRowFuncs[name] = "oid:oid,spcname:name,spcowner:oid,spcacl:aclitem[],spcoptions:text[]", rows
	catalogRelations[name] = catalogRelation{cols: catalogCols(catalogColumns[name]), rows: rows}
	catalogRelOIDs["pg_tablespace"] = 1213
}
