package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// CreateRange is CREATE TYPE name AS RANGE (SUBTYPE = …, …): a user range
// type and its multirange type (value/userrange.go).
type CreateRange struct {
	Name, MultiName string
	// Subtype is the type of the bounds, without a modifier (PostgreSQL
	// drops it).
	Subtype value.Type
	// SubtypeDiff names the subtype difference function, "" when none.
	// Only a GiST index would call it: it is checked and kept.
	SubtypeDiff string
}

func (*CreateRange) bound() {}

// RangeCatalog is a TypeCatalog that finds the user range or multirange
// type whose constructor has a name: the name the type had when it was
// created (a rename leaves the constructors as they were).
type RangeCatalog interface {
	RangeConstructor(name string) (value.Type, bool)
}

// rangeSubtypeDiffs are PostgreSQL's functions that fit a range type's
// SUBTYPE_DIFF: each takes two values of a kind and returns double
// precision.
var rangeSubtypeDiffs = map[string]value.Kind{
	"float8mi": value.Float8, "float8pl": value.Float8, "float8mul": value.Float8, "float8div": value.Float8,
	"int4range_subdiff": value.Int4, "int8range_subdiff": value.Int8, "numrange_subdiff": value.Numeric,
	"daterange_subdiff": value.Date, "tsrange_subdiff": value.Timestamp, "tstzrange_subdiff": value.TimestampTZ,
}

// rangeOpclasses are the default btree operator classes of the subtypes,
// by kind: the one SUBTYPE_OPCLASS may name.
var rangeOpclasses = map[value.Kind]string{
	value.Bool: "bool_ops", value.Int2: "int2_ops", value.Int4: "int4_ops", value.Int8: "int8_ops",
	value.Numeric: "numeric_ops", value.Float4: "float4_ops", value.Float8: "float8_ops", value.Text: "text_ops",
	value.Varchar: "text_ops", value.Char: "bpchar_ops", value.Date: "date_ops", value.Timestamp: "timestamp_ops",
	value.TimestampTZ: "timestamptz_ops", value.Interval: "interval_ops", value.Time: "time_ops", value.TimeTZ: "timetz_ops",
	value.Bytea: "bytea_ops", value.Bit: "bit_ops", value.Varbit: "varbit_ops", value.UUID: "uuid_ops",
	value.Inet: "inet_ops", value.Cidr: "inet_ops", value.MacAddr: "macaddr_ops", value.MacAddr8: "macaddr8_ops",
	value.Money: "money_ops", value.Enum: "enum_ops", value.JSONB: "jsonb_ops", value.TSVector: "tsvector_ops",
	value.TSQuery: "tsquery_ops",
}

func (b *binder) bindCreateRange(s *pg_query.CreateRangeStmt) (Bound, error) {
	name, err := b.typeObjectName(s.TypeName)
	if err != nil {
		return nil, err
	}
	c := &CreateRange{Name: name}
	args := map[string]*pg_query.DefElem{}
	for _, n := range s.Params {
		d := n.GetDefElem()
		switch d.Defname {
		case "subtype", "subtype_opclass", "collation", "canonical", "subtype_diff", "multirange_type_name":
		default:
			return nil, pgerr.New(pgerr.SyntaxError, "type attribute %q not recognized", d.Defname)
		}
		if args[d.Defname] != nil {
			return nil, b.stmt.errf(d.Location, pgerr.SyntaxError, "conflicting or redundant options")
		}
		args[d.Defname] = d
	}
	sub := args["subtype"]
	if sub == nil {
		return nil, pgerr.New(pgerr.SyntaxError, `type attribute "subtype" is required`)
	}
	tn := sub.Arg.GetTypeName()
	if tn == nil {
		return nil, pgerr.New(pgerr.SyntaxError, "subtype requires a type name")
	}
	if d, _ := b.typeDomain(tn); d != nil {
		// A bound would have to pass the domain's constraints, which
		// the range functions, built on the base type, do not check.
		return nil, b.refuse(tn.Location, "a range type over domain %s is not supported", expr.QuoteIdent(d.Name())).
			WithHint("use the domain's base type, %s", d.Def().Base)
	}
	t, err := b.typeFromName(tn)
	if err != nil {
		return nil, pgerr.Wrap(err).At("", -1) // PostgreSQL gives no position
	}
	if c.Subtype, err = b.rangeSubtype(t, tn.Location); err != nil {
		return nil, err
	}
	if d := args["subtype_opclass"]; d != nil {
		if err := b.checkRangeOpclass(d, c.Subtype); err != nil {
			return nil, err
		}
	}
	if d := args["collation"]; d != nil {
		if !c.Subtype.Kind.IsString() {
			return nil, pgerr.New(pgerr.WrongObjectType, "range collation specified but subtype does not support collation")
		}
		if err := b.checkCollation(defNames(d), d.Location); err != nil {
			return nil, err
		}
	}
	if args["canonical"] != nil {
		return nil, pgerr.New("42P17", "cannot specify a canonical function without a pre-created shell type").
			WithHint("Create the type as a shell type, then create its canonicalization function, then do a full CREATE TYPE.")
	}
	if d := args["subtype_diff"]; d != nil {
		if c.SubtypeDiff, err = b.rangeSubtypeDiff(defNames(d), c.Subtype); err != nil {
			return nil, err
		}
	}
	c.MultiName = multirangeTypeName(name)
	if d := args["multirange_type_name"]; d != nil {
		if c.MultiName, err = b.typeObjectName(d.Arg.GetTypeName().GetNames()); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// rangeSubtype checks that t can be a range's subtype: a type with a
// btree order, other than an array, a record or a range.
func (b *binder) rangeSubtype(t value.Type, loc int32) (value.Type, error) {
	k := t.Kind
	switch {
	case k == value.JSON || k == value.XML || k.IsGeometric() || k == value.JSONPath:
		return value.Type{}, pgerr.New(pgerr.UndefinedObject, `data type %s has no default operator class for access method "btree"`, t).
			WithHint("You must specify an operator class for the range type or define a default operator class for the subtype.")
	case k.IsArray() || k == value.Record || k.IsRange() || k.IsMultirange():
		return value.Type{}, b.refuse(loc, "a range type over type %s is not supported", t).
			WithHint("use a scalar subtype: a number, a string, a date or time, an enum")
	}
	if t.Enum() != nil {
		return t, nil
	}
	return value.Type{Kind: k, Mod: -1}, nil
}

// checkRangeOpclass checks SUBTYPE_OPCLASS: the subtype's default btree
// operator class is the one order values have.
func (b *binder) checkRangeOpclass(d *pg_query.DefElem, sub value.Type) error {
	names := defNames(d)
	name := names[len(names)-1]
	if name == rangeOpclasses[sub.Kind] {
		return nil
	}
	for _, oc := range rangeOpclasses {
		if oc == name {
			return pgerr.New(pgerr.DatatypeMismatch, "operator class %q does not accept data type %s", name, sub)
		}
	}
	if strings.HasSuffix(name, "_pattern_ops") {
		return b.refuse(d.Location, "SUBTYPE_OPCLASS %s is not supported", name).
			WithHint("a range orders its bounds by the subtype's default operator class, %s", rangeOpclasses[sub.Kind])
	}
	return pgerr.New(pgerr.UndefinedObject, "operator class %q does not exist for access method \"btree\"", name)
}

// rangeSubtypeDiff checks SUBTYPE_DIFF: a function of two values of the
// subtype that returns double precision, built in or an SQL function.
func (b *binder) rangeSubtypeDiff(names []string, sub value.Type) (string, error) {
	name := names[len(names)-1]
	sig := expr.QuoteIdent(name) + "(" + sub.String() + ", " + sub.String() + ")"
	if k, ok := rangeSubtypeDiffs[name]; ok && k == sub.Kind {
		return name, nil
	}
	if fc, ok := b.cat.(FunctionCatalog); ok {
		for _, f := range fc.Functions(name) {
			if len(f.Params) != 2 || f.Params[0].Type != sub || f.Params[1].Type != sub || f.Set {
				continue
			}
			if f.Result() != value.Float8Type {
				return "", pgerr.New("42P17", "range subtype diff function %s must return type double precision", sig)
			}
			return name, nil
		}
	}
	return "", pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", sig)
}

// defNames is the dotted name a DefElem's argument gives.
func defNames(d *pg_query.DefElem) []string {
	var names []string
	for _, n := range d.Arg.GetTypeName().GetNames() {
		names = append(names, n.GetString_().GetSval())
	}
	if len(names) == 0 {
		names = []string{""}
	}
	return names
}

// multirangeTypeName is PostgreSQL's makeMultirangeTypeName: the range
// type's name with its first "range" made "multirange", or with
// "_multirange" after it.
func multirangeTypeName(name string) string {
	if strings.Contains(name, "range") {
		return strings.Replace(name, "range", "multirange", 1)
	}
	return name + "_multirange"
}

// resolveFunc is expr.ResolveFunc, where the name of a user range or
// multirange type's constructor calls it when the arguments fit it (a
// type named lower leaves lower(r) to the built-in function).
func (b *binder) resolveFunc(name string, ts []value.Type) (*expr.FuncDef, []value.Type, value.Type, error) {
	if rc, ok := b.cat.(RangeCatalog); ok {
		if t, ok := rc.RangeConstructor(name); ok {
			if def, params, res, err := expr.ResolveRangeConstructor(t, name, ts); err == nil {
				return def, params, res, nil
			}
		}
	}
	exts, missing := b.extensionFuncs(name)
	def, params, res, err := expr.ResolveFuncWith(name, ts, exts)
	if err != nil && missing != "" && pgerr.Code(err) == pgerr.UndefinedFunction {
		return nil, nil, res, errMissingExtensionFunc(name, missing)
	}
	b.usedExtensionFunc(def)
	return def, params, res, err
}
