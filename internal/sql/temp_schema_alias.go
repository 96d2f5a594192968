// A session's temporary schema written out by its name (pg_temp_3.t),
// read as pg_temp.t.
package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// AliasTempSchema returns st with every name qualified by own, the
// session's temporary schema written out ("pg_temp_3"), qualified by
// pg_temp instead, which is the same schema in PostgreSQL: relations,
// columns written schema.table.column, functions, types and the name
// lists of DROP, COMMENT and ALTER. A string constant is no name and is
// left as written (regclass reads it through the catalog). st itself is
// left as it is.
func AliasTempSchema(st *Stmt, own string) *Stmt {
	if st.Node == nil || own == "" || !strings.Contains(strings.ToLower(st.SQL), own) {
		return st
	}
	out := *st
	out.Node = proto.Clone(st.Node).(*pg_query.Node)
	names := func(l []*pg_query.Node, min int) {
		if len(l) >= min {
			if s := l[0].GetString_(); s != nil && s.Sval == own {
				s.Sval = "pg_temp"
			}
		}
	}
	walk(out.Node.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg_query.RangeVar:
			if x.Schemaname == own {
				x.Schemaname = "pg_temp"
			}
		case *pg_query.ColumnRef:
			names(x.Fields, 3)
		case *pg_query.FuncCall:
			names(x.Funcname, 2)
		case *pg_query.TypeName:
			names(x.Names, 2)
		case *pg_query.ObjectWithArgs:
			names(x.Objname, 2)
		case *pg_query.List:
			names(x.Items, 2)
		case *pg_query.CreateFunctionStmt:
			names(x.Funcname, 2)
		case *pg_query.CreateDomainStmt:
			names(x.Domainname, 2)
		case *pg_query.DefineStmt:
			names(x.Defnames, 2)
		case *pg_query.CreateEnumStmt:
			names(x.TypeName, 2)
		case *pg_query.CreateRangeStmt:
			names(x.TypeName, 2)
		case *pg_query.AlterEnumStmt:
			names(x.TypeName, 2)
		case *pg_query.AlterDomainStmt:
			names(x.TypeName, 2)
		case *pg_query.CreateTrigStmt:
			names(x.Funcname, 2)
		}
	})
	return &out
}

// TempPath is a Qualifier of a session that has a temporary schema:
// current_schemas lists it.
type TempPath interface {
	// TempSchema is the session's temporary schema ("pg_temp_3"), ""
	// for none, and its place in the search path: the number of the
	// path's schemas searched before it, -1 when it is searched first,
	// before pg_catalog, as when search_path does not name pg_temp.
	TempSchema() (name string, at int)
}

// withTempSchema is the search path path as current_schemas lists it,
// with the session's temporary schema: the schemas search_path names,
// and those searched before them that it does not (pg_catalog, and the
// temporary schema when search_path does not name pg_temp), as
// PostgreSQL's namespace search lists them.
func withTempSchema(tp TempPath, path []string) (named, implicit []string) {
	name, at := tp.TempSchema()
	switch {
	case name == "":
		return path, []string{"pg_catalog"}
	case at < 0:
		return path, []string{name, "pg_catalog"}
	}
	at = min(at, len(path))
	named = append(append(append([]string{}, path[:at]...), name), path[at:]...)
	return named, []string{"pg_catalog"}
}
