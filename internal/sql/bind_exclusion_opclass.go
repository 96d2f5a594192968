package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// exclusionOpclassInfo is an operator class an EXCLUDE element may name
// other than its type's default: one whose operators are the type's own
// (text_pattern_ops' = is text's), so the engine, which compares by the
// type's operators, keeps its meaning; only the index's order, which the
// engine does not keep, differs.
type exclusionOpclassInfo struct {
	methods string // the access methods, space separated
	kinds   []value.Kind
	family  string
	ops     []string // the commutative operators of its family
}

var exclusionOpclasses = map[string]exclusionOpclassInfo{
	"text_pattern_ops":    {"btree hash", []value.Kind{value.Text, value.Varchar}, "text_pattern_ops", []string{"="}},
	"varchar_pattern_ops": {"btree hash", []value.Kind{value.Text, value.Varchar}, "text_pattern_ops", []string{"="}},
	"varchar_ops":         {"btree hash", []value.Kind{value.Text, value.Varchar}, "text_ops", []string{"="}},
	"bpchar_pattern_ops":  {"btree hash", []value.Kind{value.Char}, "bpchar_pattern_ops", []string{"="}},
	"inet_ops":            {"gist", []value.Kind{value.Inet, value.Cidr}, "network_ops", []string{"&&", "=", "<>"}},
	"kd_point_ops":        {"spgist", []value.Kind{value.Point}, "kd_point_ops", []string{"~="}},
}

// exclusionNamedOpclass checks the operator class an EXCLUDE element
// names: its type's default class for the method is what the element
// takes without one (PostgreSQL's pg_get_constraintdef omits it too), so
// named is "" then; a class of exclusionOpclasses is returned, named; a
// class of another type is 42804, as in PostgreSQL; another is refused,
// as the engine compares by the type's own operators.
func (b *binder) exclusionNamedOpclass(c *pg_query.Constraint, ie *pg_query.IndexElem, method string, t value.Type) (named string, info exclusionOpclassInfo, err error) {
	if len(ie.Opclass) == 0 {
		return "", info, nil
	}
	names := ie.Opclass
	name := names[len(names)-1].GetString_().GetSval()
	if len(names) > 1 && names[0].GetString_().GetSval() != "pg_catalog" && names[0].GetString_().GetSval() != "public" {
		return "", info, b.refuse(c.Location, "operator class %s outside pg_catalog in an exclusion constraint is not supported", name)
	}
	if def := defaultOpclass(method, t); def != "" && name == def {
		return "", info, nil
	}
	if in, ok := exclusionOpclasses[name]; ok && slices.Contains(strings.Fields(in.methods), method) {
		if !slices.Contains(in.kinds, t.Kind) {
			return "", info, pgerr.New(pgerr.DatatypeMismatch, "operator class %q does not accept data type %s", name, t)
		}
		return name, in, nil
	}
	// The default class of another type, no string type (which t may be
	// coerced to): its input type is not t's, as PostgreSQL finds.
	for _, k := range opclassKinds {
		if k != t.Kind && defaultOpclass(method, value.Type{Kind: k}) == name {
			return "", info, pgerr.New(pgerr.DatatypeMismatch, "operator class %q does not accept data type %s", name, t)
		}
	}
	return "", info, b.refuse(c.Location, "operator class %s in an exclusion constraint is not supported", name).
		WithHint("write the element without an operator class: the type's default one (%s) is taken", defaultOpclass(method, t))
}

// opclassKinds are the kinds exclusionNamedOpclass looks through for a
// default class of another type.
var opclassKinds = []value.Kind{value.Int2, value.Int4, value.Int8, value.Float4, value.Float8, value.Numeric, value.Bool,
	value.Bytea, value.Date, value.Time, value.TimeTZ, value.Timestamp, value.TimestampTZ, value.Interval, value.UUID,
	value.Inet, value.MacAddr, value.MacAddr8, value.Oid, value.Money, value.Bit, value.Varbit, value.Box, value.Circle,
	value.Point, value.Polygon}

// defaultOpclass is the name of PostgreSQL 15's default operator class of
// type t for an index method (btree_gist's for gist over a scalar type),
// "" for none known.
func defaultOpclass(method string, t value.Type) string {
	k := t.Kind
	switch {
	case k.IsRange():
		return "range_ops"
	case k.IsMultirange() && method != "spgist":
		return "multirange_ops"
	case k.IsArray() && method != "gist" && method != "spgist":
		return "array_ops"
	}
	switch method {
	case "btree", "hash":
		if n, ok := map[value.Kind]string{value.Int2: "int2_ops", value.Int4: "int4_ops", value.Int8: "int8_ops",
			value.Float4: "float4_ops", value.Float8: "float8_ops", value.Numeric: "numeric_ops", value.Text: "text_ops",
			value.Varchar: "text_ops", value.Char: "bpchar_ops", value.Bool: "bool_ops", value.Bytea: "bytea_ops",
			value.Date: "date_ops", value.Time: "time_ops", value.TimeTZ: "timetz_ops", value.Timestamp: "timestamp_ops",
			value.TimestampTZ: "timestamptz_ops", value.Interval: "interval_ops", value.UUID: "uuid_ops", value.Inet: "inet_ops",
			value.Cidr: "inet_ops", value.MacAddr: "macaddr_ops", value.MacAddr8: "macaddr8_ops", value.Oid: "oid_ops",
			value.Enum: "enum_ops", value.JSONB: "jsonb_ops"}[k]; ok {
			return n
		}
		if method == "btree" {
			return map[value.Kind]string{value.Money: "money_ops", value.Bit: "bit_ops", value.Varbit: "varbit_ops"}[k]
		}
	case "gist":
		switch k {
		case value.Box:
			return "box_ops"
		case value.Circle:
			return "circle_ops"
		case value.Point:
			return "point_ops"
		case value.Polygon:
			return "poly_ops"
		}
		if btreeGistKind(k) {
			switch k {
			case value.Enum:
				return "gist_enum_ops"
			case value.Timestamp:
				return "gist_timestamp_ops"
			case value.Time:
				return "gist_time_ops"
			}
			return "gist_" + gistTypeName(k) + "_ops"
		}
	case "spgist":
		return map[value.Kind]string{value.Box: "box_ops", value.Point: "quad_point_ops", value.Inet: "inet_ops",
			value.Cidr: "inet_ops", value.Polygon: "poly_ops", value.Text: "text_ops", value.Varchar: "text_ops"}[k]
	}
	return ""
}
