package expr

import (
	"runtime"
	"strconv"

	"github.com/deltaview/deltaview/internal/value"
)

// Names of the server a client asks for: the one database and schema
// every table lives in, and the version PostgreSQL's protocol reports
// (server_version), which clients parse.
const (
	DatabaseName  = "deltaview"
	SchemaName    = "public"
	ServerVersion = "15.0 (deltaview)"
)

func init() {
	constant := func(name string, v value.Value) {
		register(&FuncDef{Name: name, Result: value.TextType, Eval: func([]value.Value) (value.Value, error) { return v, nil }})
	}
	constant("current_database", text(DatabaseName))
	constant("current_schema", text(SchemaName))
	// The client's encoding and the database's: UTF8, the only one a
	// session may set (client_encoding).
	constant("pg_client_encoding", text("UTF8"))
	constant("getdatabaseencoding", text("UTF8"))
	constant("version", text("PostgreSQL "+ServerVersion+" on "+runtime.GOARCH+"-"+runtime.GOOS+", compiled by "+runtime.Version()+", "+strconv.Itoa(strconv.IntSize)+"-bit"))
	// current_schemas(include_implicit): the search path, with
	// pg_catalog first when asked for the implicit schemas.
	strict("current_schemas", kinds(value.Bool), value.ArrayType(value.Text), func(a []value.Value) (value.Value, error) {
		if a[0].Bool() {
			return value.NewArray(value.ArrayOf(value.Text), []value.Value{text("pg_catalog"), text(SchemaName)}), nil
		}
		return value.NewArray(value.ArrayOf(value.Text), []value.Value{text(SchemaName)}), nil
	})
}
