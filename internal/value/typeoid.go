package value

// BuiltinType is a built-in type as PostgreSQL's catalog pg_type describes
// it: its internal name (typname), its oid and its array type's, its
// length (-1: variable), category, whether it is passed by value, its
// alignment and storage.
type BuiltinType struct {
	Kind     Kind
	Name     string
	OID      uint32
	ArrayOID uint32
	Len      int16
	Category byte
	ByVal    bool
	Align    byte
	Storage  byte
}

// BuiltinTypes are the built-in types, by oid, with PostgreSQL 15's
// numbers.
var BuiltinTypes = []BuiltinType{
	{Bool, "bool", 16, 1000, 1, 'B', true, 'c', 'p'},
	{InternalChar, "char", 18, 1002, 1, 'Z', true, 'c', 'p'},
	{Name, "name", 19, 1003, 64, 'S', false, 'c', 'p'},
	{Bytea, "bytea", 17, 1001, -1, 'U', false, 'i', 'x'},
	{Int8, "int8", 20, 1016, 8, 'N', true, 'd', 'p'},
	{Int2, "int2", 21, 1005, 2, 'N', true, 's', 'p'},
	{Int2Vector, "int2vector", 22, 1006, -1, 'A', false, 'i', 'p'},
	{Int4, "int4", 23, 1007, 4, 'N', true, 'i', 'p'},
	{RegProc, "regproc", 24, 1008, 4, 'N', true, 'i', 'p'},
	{Text, "text", 25, 1009, -1, 'S', false, 'i', 'x'},
	{Oid, "oid", 26, 1028, 4, 'N', true, 'i', 'p'},
	{Tid, "tid", 27, 1010, 6, 'U', false, 's', 'p'},
	{Xid, "xid", 28, 1011, 4, 'U', true, 'i', 'p'},
	{Cid, "cid", 29, 1012, 4, 'U', true, 'i', 'p'},
	{OidVector, "oidvector", 30, 1013, -1, 'A', false, 'i', 'p'},
	{JSON, "json", 114, 199, -1, 'U', false, 'i', 'x'},
	{XML, "xml", 142, 143, -1, 'U', false, 'i', 'x'},
	{Point, "point", 600, 1017, 16, 'G', false, 'd', 'p'},
	{LSeg, "lseg", 601, 1018, 32, 'G', false, 'd', 'p'},
	{Path, "path", 602, 1019, -1, 'G', false, 'd', 'x'},
	{Box, "box", 603, 1020, 32, 'G', false, 'd', 'p'},
	{Polygon, "polygon", 604, 1027, -1, 'G', false, 'd', 'x'},
	{Line, "line", 628, 629, 24, 'G', false, 'd', 'p'},
	{Cidr, "cidr", 650, 651, -1, 'I', false, 'i', 'm'},
	{Float4, "float4", 700, 1021, 4, 'N', true, 'i', 'p'},
	{Float8, "float8", 701, 1022, 8, 'N', true, 'd', 'p'},
	{Circle, "circle", 718, 719, 24, 'G', false, 'd', 'p'},
	{MacAddr8, "macaddr8", 774, 775, 8, 'U', false, 'i', 'p'},
	{Money, "money", 790, 791, 8, 'N', true, 'd', 'p'},
	{MacAddr, "macaddr", 829, 1040, 6, 'U', false, 'i', 'p'},
	{Inet, "inet", 869, 1041, -1, 'I', false, 'i', 'm'},
	{Char, "bpchar", 1042, 1014, -1, 'S', false, 'i', 'x'},
	{Varchar, "varchar", 1043, 1015, -1, 'S', false, 'i', 'x'},
	{Date, "date", 1082, 1182, 4, 'D', true, 'i', 'p'},
	{Time, "time", 1083, 1183, 8, 'D', true, 'd', 'p'},
	{Timestamp, "timestamp", 1114, 1115, 8, 'D', true, 'd', 'p'},
	{TimestampTZ, "timestamptz", 1184, 1185, 8, 'D', true, 'd', 'p'},
	{Interval, "interval", 1186, 1187, 16, 'T', false, 'd', 'p'},
	{TimeTZ, "timetz", 1266, 1270, 12, 'D', false, 'd', 'p'},
	{Bit, "bit", 1560, 1561, -1, 'V', false, 'i', 'x'},
	{Varbit, "varbit", 1562, 1563, -1, 'V', false, 'i', 'x'},
	{Numeric, "numeric", 1700, 1231, -1, 'N', false, 'i', 'm'},
	{RegProcedure, "regprocedure", 2202, 2207, 4, 'N', true, 'i', 'p'},
	{RegOper, "regoper", 2203, 2208, 4, 'N', true, 'i', 'p'},
	{RegOperator, "regoperator", 2204, 2209, 4, 'N', true, 'i', 'p'},
	{RegClass, "regclass", 2205, 2210, 4, 'N', true, 'i', 'p'},
	{RegType, "regtype", 2206, 2211, 4, 'N', true, 'i', 'p'},
	{Record, "record", 2249, 2287, -1, 'P', false, 'd', 'x'},
	{Void, "void", 2278, 0, 4, 'P', true, 'i', 'p'},
	{Trigger, "trigger", 2279, 0, 4, 'P', true, 'i', 'p'},
	{EventTrigger, "event_trigger", 3838, 0, 4, 'P', true, 'i', 'p'},
	{UUID, "uuid", 2950, 2951, 16, 'U', false, 'c', 'p'},
	{PgLSN, "pg_lsn", 3220, 3221, 8, 'U', true, 'd', 'p'},
	{Xid8, "xid8", 5069, 271, 8, 'U', true, 'd', 'p'},
	{ACLItem, "aclitem", 1033, 1034, 12, 'U', false, 'd', 'p'},
	{TxidSnapshot, "txid_snapshot", 2970, 2949, -1, 'U', false, 'd', 'x'},
	{PgSnapshot, "pg_snapshot", 5038, 5039, -1, 'U', false, 'd', 'x'},
	{RefCursor, "refcursor", 1790, 2201, -1, 'U', false, 'i', 'x'},
	{Cstring, "cstring", 2275, 1263, -2, 'P', false, 'c', 'p'},
	{TSVector, "tsvector", 3614, 3643, -1, 'U', false, 'i', 'x'},
	{TSQuery, "tsquery", 3615, 3645, -1, 'U', false, 'i', 'p'},
	{RegConfig, "regconfig", 3734, 3735, 4, 'N', true, 'i', 'p'},
	{JSONB, "jsonb", 3802, 3807, -1, 'U', false, 'i', 'x'},
	{Int4Range, "int4range", 3904, 3905, -1, 'R', false, 'i', 'x'},
	{NumRange, "numrange", 3906, 3907, -1, 'R', false, 'i', 'x'},
	{TSRange, "tsrange", 3908, 3909, -1, 'R', false, 'd', 'x'},
	{TSTZRange, "tstzrange", 3910, 3911, -1, 'R', false, 'd', 'x'},
	{DateRange, "daterange", 3912, 3913, -1, 'R', false, 'i', 'x'},
	{Int8Range, "int8range", 3926, 3927, -1, 'R', false, 'd', 'x'},
	{JSONPath, "jsonpath", 4072, 4073, -1, 'U', false, 'i', 'x'},
	{RegNamespace, "regnamespace", 4089, 4090, 4, 'N', true, 'i', 'p'},
	{RegRole, "regrole", 4096, 4097, 4, 'N', true, 'i', 'p'},
	{RegCollation, "regcollation", 4191, 4192, 4, 'N', true, 'i', 'p'},
	{Int4Multirange, "int4multirange", 4451, 6150, -1, 'R', false, 'i', 'x'},
	{NumMultirange, "nummultirange", 4532, 6151, -1, 'R', false, 'i', 'x'},
	{TSMultirange, "tsmultirange", 4533, 6152, -1, 'R', false, 'd', 'x'},
	{TSTZMultirange, "tstzmultirange", 4534, 6153, -1, 'R', false, 'd', 'x'},
	{DateMultirange, "datemultirange", 4535, 6155, -1, 'R', false, 'i', 'x'},
	{Int8Multirange, "int8multirange", 4536, 6157, -1, 'R', false, 'd', 'x'},
}

// Typmod is t's modifier as PostgreSQL's catalogs hold it (atttypmod):
// the length plus 4 for varchar(n) and char(n), (precision<<16 | scale) + 4
// for numeric(p,s), the modifier itself for the other types that take
// one, -1 for none.
func (t Type) Typmod() int32 {
	if t.Mod < 0 || t.Enum() != nil || t.Kind == Record {
		return -1
	}
	k := t.Kind
	if k.IsArray() {
		k = k.Elem() // an array's modifier is its elements'
	}
	switch k {
	case Varchar, Char, Numeric:
		return t.Mod + 4
	}
	return t.Mod
}

// WithTypmod returns the type of kind k with PostgreSQL's modifier typmod
// (Typmod's inverse); a modifier k does not take is dropped.
func WithTypmod(k Kind, typmod int32) Type {
	if k.IsArray() && TakesModifier(k.Elem()) {
		return Type{k, WithTypmod(k.Elem(), typmod).Mod} // an array's modifier is its elements'
	}
	switch {
	case typmod < 0:
		return Type{k, -1}
	case k == Varchar || k == Char || k == Numeric:
		if typmod < 4 {
			return Type{k, -1}
		}
		return Type{k, typmod - 4}
	case k == Timestamp || k == TimestampTZ || k == Time || k == TimeTZ || k == Interval || k == Bit || k == Varbit:
		return Type{k, typmod}
	}
	return Type{k, -1}
}
