package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// builtinOutOfSchema is PostgreSQL's 42883 for a call of a built-in
// function qualified by a schema that does not hold it: the built-in
// functions are pg_catalog's, found unqualified or so qualified only;
// information_schema holds its own (_pg_expandarray, _pg_char_max_length,
// …), and public the functions of the extensions created there. nil when
// f's name may be a built-in function's.
func (b *binder) builtinOutOfSchema(s *scope, f *pg_query.FuncCall) error {
	if len(f.Funcname) != 2 {
		return nil
	}
	schema, name := f.Funcname[0].GetString_().GetSval(), f.Funcname[1].GetString_().GetSval()
	switch {
	case schema == "pg_catalog" || schema == "" || schema[0] == 0 || schema[0] == '$':
		return nil // ("\x00…" and "$…" mark the binder's own calls.)
	case schema == "information_schema" && strings.HasPrefix(name, "_pg_"):
		return nil
	case schema == "public":
		if fns, missing := b.extensionFuncs(name); len(fns) > 0 || missing != "" {
			return nil
		}
	}
	return b.noVariadicMatch(s, schema+"."+name, f)
}
