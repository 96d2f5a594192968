package engine

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// builtinObjectDescriptions is pg_description's rows for the built-in
// functions, operators, types, schemas and text search objects deltaview
// has, as PostgreSQL 15 describes them: JDBC's getFunctions REMARKS and
// psql's \df+, \do+, \dT+, \daS, \dn+ and \dF* show them.
//
//go:embed builtin_descriptions.tsv
var builtinObjectDescriptions string

func init() {
	for _, line := range strings.Split(builtinObjectDescriptions, "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 || strings.HasPrefix(line, "#") {
			continue
		}
		class, err1 := strconv.ParseUint(f[0], 10, 32)
		obj, err2 := strconv.ParseUint(f[1], 10, 32)
		if err1 != nil || err2 != nil {
			panic("builtin_descriptions.tsv: " + line)
		}
		builtinDescriptions[expr.DescKey{ClassOID: uint32(class), ObjOID: uint32(obj)}] = f[2]
	}
}
