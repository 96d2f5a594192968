package engine

import "github.com/deltaview/deltaview/internal/expr"

// pg_language lists PostgreSQL 15's languages with its oids: internal, c
// and sql, built in, and plpgsql, which initdb installs (its oid and its
// handlers' are those a PostgreSQL 15 cluster gives them). A routine's
// pg_proc.prolang names one of them; psql's \dL, \df+ and \sf read them.

// plpgsqlLangOID is plpgsql's oid in a PostgreSQL 15 cluster.
const plpgsqlLangOID = 13563

// languageOID is the oid of the language named lang, sql's for a name
// that is none of them.
func languageOID(lang string) uint32 {
	switch lang {
	case "internal":
		return 12
	case "c":
		return 13
	case "plpgsql":
		return plpgsqlLangOID
	}
	return 14
}

func init() {
	const name = "pg_catalog.pg_language"
	const cols = "oid:oid,lanname:name,lanowner:oid,lanispl:boolean,lanpltrusted:boolean,lanplcallfoid:oid,laninline:oid,lanvalidator:oid,lanacl:aclitem[]"
	rows := func(_ *catalogObjects, r *catRows) {
		for _, l := range []struct {
			oid                     uint32
			name                    string
			pl, trusted             bool
			call, inline, validator uint32
		}{
			{12, "internal", false, false, 0, 0, 2246},
			{13, "c", false, false, 0, 0, 2247},
			{14, "sql", false, true, 0, 0, 2248},
			{plpgsqlLangOID, "plpgsql", true, true, 13560, 13561, 13562},
		} {
			r.add("oid", l.oid, "lanname", l.name, "lanowner", uint32(superuserOID), "lanispl", l.pl, "lanpltrusted", l.trusted,
				"lanplcallfoid", l.call, "laninline", l.inline, "lanvalidator", l.validator)
		}
	}
	addCatalogRelation(name, cols, rows)
	catalogRelOIDs["pg_language"] = 2612
}

// builtinDescriptions are pg_description's rows for built-in objects
// that psql's describe commands show: the languages (\dL) and the access
// methods (\dA+), as PostgreSQL 15 describes them.
var builtinDescriptions = map[expr.DescKey]string{
	{ObjOID: 12, ClassOID: 2612}:             "built-in functions",
	{ObjOID: 13, ClassOID: 2612}:             "dynamically-loaded C functions",
	{ObjOID: 14, ClassOID: 2612}:             "SQL-language functions",
	{ObjOID: plpgsqlLangOID, ClassOID: 2612}: "PL/pgSQL procedural language",
	{ObjOID: heapAMOID, ClassOID: 2601}:      "heap table access method",
	{ObjOID: btreeAMOID, ClassOID: 2601}:     "b-tree index access method",
	{ObjOID: 405, ClassOID: 2601}:            "hash index access method",
	{ObjOID: 783, ClassOID: 2601}:            "GiST index access method",
	{ObjOID: 2742, ClassOID: 2601}:           "GIN index access method",
	{ObjOID: 3580, ClassOID: 2601}:           "block range index (BRIN) access method",
	{ObjOID: 4000, ClassOID: 2601}:           "SP-GiST index access method",
}

// languageHandlers are the names, as regprocedure prints them, of the
// languages' handlers and validators, which pg_proc does not list
// (psql's \dL+).
var languageHandlers = map[uint32]string{
	2246: "fmgr_internal_validator(oid)", 2247: "fmgr_c_validator(oid)", 2248: "fmgr_sql_validator(oid)",
	13560: "plpgsql_call_handler()", 13561: "plpgsql_inline_handler(internal)", 13562: "plpgsql_validator(oid)",
}
