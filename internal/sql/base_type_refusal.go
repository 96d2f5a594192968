package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// refuseBaseType refuses CREATE TYPE name (a shell type) and CREATE TYPE
// name (INPUT = …, OUTPUT = …) (a base type, whose functions PostgreSQL
// writes in C), naming the construct.
func refuseBaseType(d *pg_query.DefineStmt) error {
	var names []string
	for _, n := range d.Defnames {
		names = append(names, n.GetString_().GetSval())
	}
	name := strings.Join(names, ".")
	if len(d.Definition) == 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "CREATE TYPE %s without a definition (a shell type) is not supported", name).
			WithHint("create the type whole: CREATE TYPE %s AS (…), AS ENUM (…) or AS RANGE (SUBTYPE = …)", name)
	}
	return pgerr.New(pgerr.FeatureNotSupported, "CREATE TYPE %s (INPUT = …, OUTPUT = …), a base type, is not supported: its functions are written in C", name).
		WithHint("use a composite type, an enum, a range type or a domain")
}
