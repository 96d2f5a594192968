package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// The functions over the catalogs that psql's describe commands call
// besides those of catFuncs: the visibility tests of object kinds whose
// catalogs hold only built-in rows, or none (\dc, \dAc, \dF, …), the body
// of a routine (\df+), pg_describe_object (\dx+) and whether a relation
// can be published (\d).
func init() {
	for _, name := range []string{"pg_conversion_is_visible", "pg_opclass_is_visible", "pg_opfamily_is_visible",
		"pg_ts_config_is_visible", "pg_ts_dict_is_visible", "pg_ts_parser_is_visible",
		"pg_ts_template_is_visible"} {
		catFuncs[name] = catFunc{sigs: [][]value.Kind{{oidK}}, result: boolK, strict: true, eval: builtinVisible}
	}
	catFuncs["pg_collation_is_visible"] = catFunc{sigs: [][]value.Kind{{oidK}}, result: boolK, strict: true, eval: collationVisible}
	// A body of RETURN or BEGIN ATOMIC is kept as text (prosrc).
	catFuncs["pg_get_function_sqlbody"] = catFunc{sigs: [][]value.Kind{{oidK}}, result: textK, strict: true,
		eval: func(*expr.SysCatalog, []value.Value) (value.Value, error) { return value.Null, nil }}
	catFuncs["pg_describe_object"] = catFunc{sigs: [][]value.Kind{{oidK, oidK, int4K}}, result: textK, strict: true, eval: describeObject}
	catFuncs["pg_relation_is_publishable"] = catFunc{sigs: [][]value.Kind{{value.RegClass}}, result: boolK, strict: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			k, ok := sc.RelKinds[a[0].OID()]
			if !ok {
				return value.Null, nil
			}
			return value.NewBool((k == 'r' || k == 'p') && a[0].OID() >= firstUserOID), nil
		}}
}

// firstUserOID is the first oid of an object a statement made; those
// below are built in, in pg_catalog.
const firstUserOID = 16384

// builtinVisible answers for the objects of kinds a statement cannot
// make: a built-in one is in pg_catalog, always in the search path; an
// oid that names none gives NULL, as in PostgreSQL.
func builtinVisible(_ *expr.SysCatalog, a []value.Value) (value.Value, error) {
	if a[0].OID() < firstUserOID {
		return value.NewBool(true), nil
	}
	return value.Null, nil
}

// collationVisible is pg_collation_is_visible: a built-in collation is;
// a user one when regcollation prints it unqualified (its schema on the
// search path); NULL for an oid of none.
func collationVisible(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
	oid := a[0].OID()
	if oid < firstUserOID {
		return value.NewBool(true), nil
	}
	name, ok := sc.Names[value.RegCollation][oid]
	if !ok {
		return value.Null, nil
	}
	return value.NewBool(!strings.Contains(name, ".")), nil
}

// relKindWords name the relation kinds in pg_describe_object's text.
var relKindWords = map[byte]string{'r': "table", 'p': "table", 'v': "view", 'm': "materialized view", 'i': "index",
	'I': "index", 'S': "sequence", 'c': "composite type", 'f': "foreign table"}

// describeObject is pg_describe_object(classid, objid, objsubid): the
// object as PostgreSQL's messages name it (table t, column v of table t,
// function f(integer), type mood, schema s, …); NULL for an object that
// does not exist, or of a catalog not described here.
func describeObject(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
	oid, sub := a[1].OID(), a[2].Int()
	named := func(k value.Kind, word string) (value.Value, error) {
		n, ok := sc.Name(k, oid)
		if !ok {
			return value.Null, nil
		}
		return text(word + " " + n), nil
	}
	switch a[0].OID() {
	case expr.PgClassOID:
		k, ok := sc.RelKinds[oid]
		n, nok := sc.Name(value.RegClass, oid)
		if !ok || !nok {
			return value.Null, nil
		}
		rel := relKindWords[k] + " " + n
		if sub != 0 {
			cols := sc.RelCols[oid]
			if sub < 1 || int(sub) > len(cols) {
				return value.Null, nil
			}
			return text("column " + cols[sub-1] + " of " + rel), nil
		}
		return text(rel), nil
	case expr.PgProcOID:
		return named(value.RegProcedure, "function")
	case expr.PgTypeOID:
		return named(value.RegType, "type")
	case expr.PgNamespaceOID:
		return named(value.RegNamespace, "schema")
	case 2617: // pg_operator
		return named(value.RegOperator, "operator")
	case 1260: // pg_authid
		return named(value.RegRole, "role")
	case 2612: // pg_language
		if l, ok := map[uint32]string{12: "internal", 13: "c", 14: "sql", 13563: "plpgsql"}[oid]; ok {
			return text("language " + l), nil
		}
	case 3079: // pg_extension: plpgsql's, built in with the oid initdb gives it
		if oid == 13559 {
			return text("extension plpgsql"), nil
		}
	case 2601: // pg_am
		if m, ok := map[uint32]string{2: "heap", 403: "btree", 405: "hash", 783: "gist", 2742: "gin", 3580: "brin", 4000: "spgist"}[oid]; ok {
			return text("access method " + m), nil
		}
	}
	return value.Null, nil
}
