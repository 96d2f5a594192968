package value

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// kindNames are PostgreSQL's format_type names, without modifiers.
var kindNames = [numKinds]string{
	Unknown:     "unknown",
	Bool:        "boolean",
	Int2:        "smallint",
	Int4:        "integer",
	Int8:        "bigint",
	Numeric:     "numeric",
	Float4:      "real",
	Float8:      "double precision",
	Text:        "text",
	Varchar:     "character varying",
	Char:        "character",
	Date:        "date",
	Timestamp:   "timestamp without time zone",
	TimestampTZ: "timestamp with time zone",
	Interval:    "interval",
	Record:      "record",
	JSON:        "json",
	JSONB:       "jsonb",
	Bytea:       "bytea",
	Bit:         "bit",
	Varbit:      "bit varying",
	UUID:        "uuid",
	Time:        "time without time zone",
	TimeTZ:      "time with time zone",
	JSONPath:    "jsonpath",
	TSVector:    "tsvector",
	TSQuery:     "tsquery",
	Int4Range:   "int4range",
	Int8Range:   "int8range",
	NumRange:    "numrange",
	DateRange:   "daterange",
	TSRange:     "tsrange",
	TSTZRange:   "tstzrange",
	Inet:        "inet",
	Cidr:        "cidr",
	MacAddr:     "macaddr",
	MacAddr8:    "macaddr8",
	Money:       "money",
	Enum:        "anyenum",
	Point:       "point",
	LSeg:        "lseg",
	Path:        "path",
	Box:         "box",
	Polygon:     "polygon",
	Line:        "line",
	Circle:      "circle",
	XML:         "xml",

	Oid:          "oid",
	RegClass:     "regclass",
	RegType:      "regtype",
	RegProc:      "regproc",
	RegProcedure: "regprocedure",
	RegNamespace: "regnamespace",
	RegRole:      "regrole",
	RegOper:      "regoper",
	RegOperator:  "regoperator",
	RegCollation: "regcollation",
	RegConfig:    "regconfig",

	Int4Multirange: "int4multirange",
	Int8Multirange: "int8multirange",
	NumMultirange:  "nummultirange",
	DateMultirange: "datemultirange",
	TSMultirange:   "tsmultirange",
	TSTZMultirange: "tstzmultirange",
	UserRange:      "anyrange",
	UserMultirange: "anymultirange",

	HStore: "hstore",
	CIText: "citext",
	PgLSN:  "pg_lsn",

	InternalChar: `"char"`,

	Int2Vector: "int2vector",
	OidVector:  "oidvector",

	Name:         "name",
	Xid8:         "xid8",
	ACLItem:      "aclitem",
	PgSnapshot:   "pg_snapshot",
	TxidSnapshot: "txid_snapshot",
	RefCursor:    "refcursor",
	Void:         "void",
	Trigger:      "trigger",
	EventTrigger: "event_trigger",
	Cstring:      "cstring",

	Tid: "tid",
	Xid: "xid",
	Cid: "cid",
}

// String returns the kind's PostgreSQL type name, as format_type prints it
// without a modifier.
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	if k.IsArray() {
		return k.Elem().String() + "[]"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// IsInteger reports whether k is int2, int4 or int8.
func (k Kind) IsInteger() bool { return k == Int2 || k == Int4 || k == Int8 }

// IsNumeric reports whether k is one of the numeric kinds: the integers,
// numeric and the floats.
func (k Kind) IsNumeric() bool { return k >= Int2 && k <= Float8 }

// IsFloat reports whether k is real or double precision.
func (k Kind) IsFloat() bool { return k == Float4 || k == Float8 }

// IsString reports whether k is text, varchar, char, citext (the
// citext extension's case-insensitive text) or name.
func (k Kind) IsString() bool {
	return k == Text || k == Varchar || k == Char || k == CIText || k == Name
}

// IsDateTime reports whether k is date, timestamp or timestamptz.
func (k Kind) IsDateTime() bool { return k == Date || k == Timestamp || k == TimestampTZ }

// String returns the type as PostgreSQL's format_type prints it, modifier
// included: "numeric(10,2)", "character varying(5)", "timestamp(3) without
// time zone".
func (t Type) String() string {
	if t.Kind == Record || t.Kind == ArrayOf(Record) {
		return recordTypeName(t)
	}
	if d := t.Enum(); d != nil {
		if t.Kind.IsArray() {
			return d.Name + "[]"
		}
		return d.Name
	}
	if d := t.UserRange(); d != nil {
		return d.typeName(t.Kind)
	}
	if t.Mod < 0 {
		return t.Kind.String()
	}
	if t.Kind.IsArray() && TakesModifier(t.Kind.Elem()) {
		return t.ElemTypeMod().String() + "[]"
	}
	switch t.Kind {
	case Numeric:
		p, s, _ := t.PrecisionScale()
		return "numeric(" + strconv.Itoa(int(p)) + "," + strconv.Itoa(int(s)) + ")"
	case Varchar, Char:
		return t.Kind.String() + "(" + strconv.Itoa(int(t.Mod)) + ")"
	case Timestamp:
		return "timestamp(" + strconv.Itoa(int(t.Mod)) + ") without time zone"
	case TimestampTZ:
		return "timestamp(" + strconv.Itoa(int(t.Mod)) + ") with time zone"
	case Interval:
		return intervalTypeString(t.Mod)
	case Bit, Varbit:
		return bitsTypeString(t)
	case Time, TimeTZ:
		return timeTypeString(t)
	}
	return t.Kind.String()
}

// PostgreSQL's limits on type modifiers.
const (
	numericMaxPrecision = 1000
	numericMinScale     = -1000
	numericMaxScale     = 1000
	maxVarcharLen       = 10485760
	maxTimestampPrec    = 6
)

// TypeFromName resolves a type name, as pg_query gives it once "pg_catalog."
// is stripped or as a user spells it, with its modifiers, checking the
// modifiers as PostgreSQL does.
func TypeFromName(name string, mods []int32) (Type, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "pg_catalog.")
	n = strings.Join(strings.Fields(n), " ")
	noMods := func(t Type) (Type, error) {
		if len(mods) > 0 {
			return Type{}, pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type %q", name)
		}
		return t, nil
	}
	switch n {
	case "bool", "boolean":
		return noMods(BoolType)
	case "int2", "smallint":
		return noMods(Int2Type)
	case "int4", "int", "integer":
		return noMods(Int4Type)
	case "int8", "bigint":
		return noMods(Int8Type)
	case "float4", "real":
		return noMods(Float4Type)
	case "float8", "double precision":
		return noMods(Float8Type)
	case "text":
		return noMods(TextType)
	case "date":
		return noMods(DateType)
	case "float":
		// float(p) picks real or double precision by the bits of precision.
		switch {
		case len(mods) == 0:
			return Float8Type, nil
		case len(mods) > 1:
			return Type{}, pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type %q", name)
		case mods[0] < 1:
			return Type{}, pgerr.New(pgerr.InvalidParameter, "precision for type float must be at least 1 bit")
		case mods[0] <= 24:
			return Float4Type, nil
		case mods[0] <= 53:
			return Float8Type, nil
		}
		return Type{}, pgerr.New(pgerr.InvalidParameter, "precision for type float must be less than 54 bits")
	case "numeric", "decimal":
		return numericType(mods)
	case "varchar", "character varying":
		return lengthType(Varchar, "varchar", mods, -1)
	case "bpchar":
		// Written bpchar it has no length; SQL's char and character
		// arrive as bpchar(1) from the grammar, or by that name here.
		return lengthType(Char, "char", mods, -1)
	case "character":
		return lengthType(Char, "char", mods, 1)
	case "timestamp", "timestamp without time zone":
		return timestampType(Timestamp, mods)
	case "timestamptz", "timestamp with time zone":
		return timestampType(TimestampTZ, mods)
	case "interval":
		return intervalType(mods)
	case "time", "time without time zone":
		return timeType(Time, mods)
	case "timetz", "time with time zone":
		return timeType(TimeTZ, mods)
	case "json", "jsonb":
		return noMods(Type{map[string]Kind{"json": JSON, "jsonb": JSONB}[n], -1})
	case "jsonpath":
		return noMods(JSONPathType)
	case "tsvector":
		return noMods(TSVectorType)
	case "tsquery":
		return noMods(TSQueryType)
	case "int4range", "int8range", "numrange", "daterange", "tsrange", "tstzrange":
		return noMods(Type{rangeKinds[n], -1})
	case "int4multirange", "int8multirange", "nummultirange", "datemultirange", "tsmultirange", "tstzmultirange":
		return noMods(Type{rangeKinds[strings.Replace(n, "multirange", "range", 1)].MultirangeOf(), -1})
	case "inet", "cidr", "macaddr", "macaddr8":
		return noMods(Type{map[string]Kind{"inet": Inet, "cidr": Cidr, "macaddr": MacAddr, "macaddr8": MacAddr8}[n], -1})
	case "money":
		return noMods(MoneyType)
	case "point", "lseg", "path", "box", "polygon", "line", "circle":
		return noMods(Type{geoKinds[n], -1})
	case "xml":
		return noMods(XMLType)
	case "oid", "regclass", "regtype", "regproc", "regprocedure", "regnamespace", "regrole", "regoper", "regoperator", "regcollation", "regconfig":
		return noMods(Type{oidKinds[n], -1})
	case "pg_lsn":
		return noMods(PgLSNType)
	case "int2vector":
		return noMods(Int2VectorType)
	case "oidvector":
		return noMods(OidVectorType)
	case "name":
		return noMods(NameType)
	case "xid8":
		return noMods(Xid8Type)
	case "aclitem":
		return noMods(ACLItemType)
	case "pg_snapshot":
		return noMods(PgSnapshotType)
	case "txid_snapshot":
		return noMods(TxidSnapshotType)
	case "refcursor":
		return noMods(RefCursorType)
	case "void":
		return noMods(VoidType)
	case "trigger":
		return noMods(TriggerType)
	case "event_trigger":
		return noMods(EventTriggerType)
	case "cstring":
		return noMods(CstringType)
	case "char", `"char"`:
		// "char", as format_type prints it; pg_query gives the SQL type
		// char as bpchar, so a bare char here is the quoted name too.
		return noMods(InternalCharType)
	case "tid", "xid", "cid":
		return noMods(Type{map[string]Kind{"tid": Tid, "xid": Xid, "cid": Cid}[n], -1})
	}
	if t, ok, err := bytesTypeFromName(n, mods); ok {
		return t, err
	}
	if t, ok := arrayTypeByName(n, mods); ok {
		return t, nil
	}
	if unsupportedTypes[n] {
		return Type{}, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported", n)
	}
	return Type{}, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
}

// arrayTypeByName resolves a built-in array type by its pg_type name, an
// underscore before its element type's (_int4, _int2vector), as
// PostgreSQL reads it; a modifier is its element's (_varchar(3)).
func arrayTypeByName(n string, mods []int32) (Type, bool) {
	elem, ok := strings.CutPrefix(n, "_")
	if !ok {
		return Type{}, false
	}
	for _, b := range BuiltinTypes {
		if b.Name != elem || b.ArrayOID == 0 || b.Kind == Record {
			continue
		}
		t, err := TypeFromName(b.Name, mods)
		if err != nil || t.Kind != b.Kind {
			return Type{}, false
		}
		return ArrayTypeOf(t), true
	}
	return Type{}, false
}

// unsupportedTypes are PostgreSQL's built-in types that deltaview does not
// have: naming one is 0A000, not "does not exist".
var unsupportedTypes = map[string]bool{
	"serial": true, "bigserial": true, "smallserial": true,
	"serial4": true, "serial8": true, "serial2": true, "record": true,
}

func numericType(mods []int32) (Type, error) {
	if len(mods) == 0 {
		return NumericType, nil
	}
	if len(mods) > 2 {
		return Type{}, pgerr.New(pgerr.InvalidParameter, "invalid NUMERIC type modifier")
	}
	p, s := mods[0], int32(0)
	if len(mods) == 2 {
		s = mods[1]
	}
	if p < 1 || p > numericMaxPrecision {
		return Type{}, pgerr.New(pgerr.InvalidParameter, "NUMERIC precision %d must be between 1 and %d", p, numericMaxPrecision)
	}
	if s < numericMinScale || s > numericMaxScale {
		return Type{}, pgerr.New(pgerr.InvalidParameter, "NUMERIC scale %d must be between %d and %d", s, numericMinScale, numericMaxScale)
	}
	return Type{Numeric, NumericMod(p, s)}, nil
}

func lengthType(k Kind, short string, mods []int32, dflt int32) (Type, error) {
	switch len(mods) {
	case 0:
		return Type{k, dflt}, nil
	case 1:
	default:
		return Type{}, pgerr.New(pgerr.InvalidParameter, "invalid type modifier")
	}
	if mods[0] < 1 {
		return Type{}, pgerr.New(pgerr.InvalidParameter, "length for type %s must be at least 1", short)
	}
	if mods[0] > maxVarcharLen {
		return Type{}, pgerr.New(pgerr.InvalidParameter, "length for type %s cannot exceed %d", short, maxVarcharLen)
	}
	return Type{k, mods[0]}, nil
}

func timestampType(k Kind, mods []int32) (Type, error) {
	switch len(mods) {
	case 0:
		return Type{k, -1}, nil
	case 1:
	default:
		return Type{}, pgerr.New(pgerr.InvalidParameter, "invalid type modifier")
	}
	p := mods[0]
	if p < 0 {
		name := "TIMESTAMP"
		if k == TimestampTZ {
			name = "TIMESTAMP WITH TIME ZONE"
		}
		return Type{}, pgerr.New(pgerr.InvalidParameter, "%s(%d) precision must not be negative", name, p)
	}
	// PostgreSQL reduces a larger precision to the maximum with a warning.
	if p > maxTimestampPrec {
		p = maxTimestampPrec
	}
	return Type{k, p}, nil
}
