package sql

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The NOTICE of DROP … IF EXISTS of a routine, an aggregate, an operator
// or a cast that is not there names it as the statement wrote it, as
// PostgreSQL's does_not_exist_skipping does: each name as written and
// qualified (public.f), each type by the grammar's name of it
// (pg_catalog.int4 for int, pg_catalog.varchar for varchar(3), [] for an
// array, without a type modifier or SETOF), the types joined by bare
// commas. A schema or an argument type that does not exist makes the
// notice its own.

// nameListString is PostgreSQL's NameListToString of names.
func nameListString(names []*pg_query.Node) string {
	parts := make([]string, 0, len(names))
	for _, n := range names {
		if n.GetAStar() != nil {
			parts = append(parts, "*")
			continue
		}
		parts = append(parts, n.GetString_().GetSval())
	}
	return strings.Join(parts, ".")
}

// typeNameString is PostgreSQL's TypeNameToString of tn.
func typeNameString(tn *pg_query.TypeName) string {
	s := nameListString(tn.Names)
	if tn.PctType {
		s += "%TYPE"
	}
	if len(tn.ArrayBounds) > 0 {
		s += "[]"
	}
	return s
}

// typeNameListString is PostgreSQL's TypeNameListToString of tns.
func typeNameListString(tns []*pg_query.TypeName) string {
	parts := make([]string, len(tns))
	for i, tn := range tns {
		parts[i] = typeNameString(tn)
	}
	return strings.Join(parts, ",")
}

// skipMissing is the notice of an IF EXISTS that err, the failure to
// find names (a routine's or an operator's name, or a type's), skips:
// its schema's or, for a type, the type's; ok is false when err is not
// a missing schema or type.
func skipMissing(err error, names []*pg_query.Node, tn *pg_query.TypeName) (string, bool) {
	switch pgerr.Code(err) {
	case pgerr.InvalidSchemaName:
		if len(names) >= 2 {
			return fmt.Sprintf("schema %q does not exist, skipping", names[len(names)-2].GetString_().GetSval()), true
		}
	case pgerr.UndefinedObject:
		if tn != nil {
			return fmt.Sprintf("type %q does not exist, skipping", typeNameString(tn)), true
		}
	}
	return "", false
}
