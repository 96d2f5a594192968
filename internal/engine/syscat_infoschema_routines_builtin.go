package engine

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/expr"
)

// infoBuiltinRoutines adds information_schema.routines' rows of the
// built-in functions, procedures and aggregates pg_proc lists
// (pgProcBuiltins), as PostgreSQL 15 describes them: an internal or C
// function's body is EXTERNAL, its language's name upper-cased.
func infoBuiltinRoutines(o *catalogObjects, r *catRows) {
	types := o.typesByOID()
	for _, p := range expr.BuiltinCatalog().Procs {
		var kind, nullCall any
		switch p.Kind {
		case "f":
			kind = "FUNCTION"
		case "p":
			kind = "PROCEDURE"
		}
		if p.Kind != "p" {
			nullCall = yesNo(p.Strict)
		}
		body, lang, ext := "EXTERNAL", "INTERNAL", any(nil)
		switch p.Lang {
		case 13:
			lang, ext = "C", p.Src
		case 14:
			body, lang = "SQL", "SQL"
		}
		pairs := []any{"specific_catalog", DatabaseName, "specific_schema", "pg_catalog",
			"specific_name", p.Name + "_" + strconv.FormatUint(uint64(p.OID), 10), "routine_catalog", DatabaseName,
			"routine_schema", "pg_catalog", "routine_name", p.Name, "routine_type", kind, "dtd_identifier", "0",
			"routine_body", body, "routine_definition", p.Src, "external_name", ext, "external_language", lang,
			"parameter_style", "GENERAL", "is_deterministic", yesNo(p.Volatile == "i"), "sql_data_access", "MODIFIES",
			"is_null_call", nullCall, "schema_level_routine", "YES", "max_dynamic_result_sets", 0, "security_type", "INVOKER",
			"as_locator", "NO", "is_udt_dependent", "NO"}
		if t := types[p.RetType]; t != nil && t.builtin != nil {
			dataType := t.builtin.Kind.String()
			if t.oid == t.builtin.ArrayOID {
				dataType = "ARRAY"
			}
			pairs = append(pairs, "data_type", dataType, "type_udt_catalog", DatabaseName, "type_udt_schema", "pg_catalog", "type_udt_name", t.name)
		}
		r.add(pairs...)
	}
}
