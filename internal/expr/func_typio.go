package expr

import "github.com/deltaview/deltaview/internal/value"

// The input and output functions of built-in types, which PostgreSQL also
// lets SQL call: int4in('12') reads a cstring as the type's input does
// (with its errors, 22P02 for int4in('x')), int4out(12) prints a value
// as a cstring. Those taking a type modifier (numeric_in, varcharin,
// bpcharin) apply it as PostgreSQL's typmod, 4 more than the declared
// length. Only the types whose text does not depend on the session's
// settings are here (the floats and bytea by their input only; not the
// dates, times, money, xml or geometric types).
func init() {
	C := value.Cstring
	in := func(name string, t value.Type) {
		strict(name, kinds(C), t, func(a []value.Value) (value.Value, error) {
			return value.Parse(a[0].Str(), t)
		})
	}
	out := func(name string, k value.Kind) {
		strict(name, kinds(k), value.CstringType, func(a []value.Value) (value.Value, error) {
			return value.NewText(value.Cstring, string(value.AppendText(nil, a[0]))), nil
		})
	}
	// inMod reads with a typmod; PostgreSQL ignores the type oid.
	inMod := func(name string, k value.Kind) {
		strict(name, kinds(C, value.Oid, value.Int4), value.Type{Kind: k, Mod: -1}, func(a []value.Value) (value.Value, error) {
			v, err := value.Parse(a[0].Str(), value.Type{Kind: k, Mod: -1})
			if err != nil {
				return value.Null, err
			}
			if mod := int32(a[2].Int()); mod >= 4 {
				return value.Coerce(v, value.Type{Kind: k, Mod: mod - 4}, false)
			}
			return v, nil
		})
	}
	for _, io := range []struct {
		in, out string
		k       value.Kind
	}{
		{"boolin", "boolout", value.Bool},
		{"int2in", "int2out", value.Int2},
		{"int4in", "int4out", value.Int4},
		{"int8in", "int8out", value.Int8},
		{"textin", "textout", value.Text},
		{"namein", "nameout", value.Name},
		{"charin", "charout", value.InternalChar},
		{"oidin", "oidout", value.Oid},
		{"uuid_in", "uuid_out", value.UUID},
		{"json_in", "json_out", value.JSON},
		{"jsonb_in", "jsonb_out", value.JSONB},
		{"cstring_in", "cstring_out", value.Cstring},
		{"inet_in", "inet_out", value.Inet},
		{"cidr_in", "cidr_out", value.Cidr},
		{"macaddr_in", "macaddr_out", value.MacAddr},
		{"macaddr8_in", "macaddr8_out", value.MacAddr8},
		{"tsvectorin", "tsvectorout", value.TSVector},
		{"tsqueryin", "tsqueryout", value.TSQuery},
		{"int2vectorin", "int2vectorout", value.Int2Vector},
		{"oidvectorin", "oidvectorout", value.OidVector},
		{"pg_lsn_in", "pg_lsn_out", value.PgLSN},
		{"xid8in", "xid8out", value.Xid8},
		{"xidin", "xidout", value.Xid},
		{"cidin", "cidout", value.Cid},
		{"tidin", "tidout", value.Tid},
		{"jsonpath_in", "jsonpath_out", value.JSONPath},
	} {
		in(io.in, value.Type{Kind: io.k, Mod: -1})
		out(io.out, io.k)
	}
	// The floats' and bytea's input; their output follows settings.
	in("float4in", value.Type{Kind: value.Float4, Mod: -1})
	in("float8in", value.Type{Kind: value.Float8, Mod: -1})
	in("byteain", value.Type{Kind: value.Bytea, Mod: -1})
	inMod("numeric_in", value.Numeric)
	out("numeric_out", value.Numeric)
	inMod("varcharin", value.Varchar)
	out("varcharout", value.Varchar)
	inMod("bpcharin", value.Char)
	out("bpcharout", value.Char)
	out("record_out", value.Record)
}
