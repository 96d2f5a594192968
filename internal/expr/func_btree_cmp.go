package expr

import (
	"cmp"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The btree comparison support functions (pg_amproc's procedure 1:
// btint4cmp, bttextcmp, uuid_cmp, btarraycmp, btrecordcmp, …), callable
// by name as in PostgreSQL, with its numbers: most give -1, 0 or 1, but
// btint2cmp, btcharcmp and btboolcmp give the difference of their
// arguments, and those that compare bytes (text and name under the C
// collation, bpchar, bytea, uuid, bit) the difference of the first bytes
// that differ, as memcmp does on PostgreSQL's platform. Stateless.
func init() {
	I2, I4, I8, F4, F8 := value.Int2, value.Int4, value.Int8, value.Float4, value.Float8
	cmp := func(name string, l, r value.Kind, f func(a, b value.Value) int) {
		if l == r {
			btreeCmps[l] = f
		}
		strict(name, kinds(l, r), value.Int4Type, func(a []value.Value) (value.Value, error) {
			return int4(int64(f(a[0], a[1]))), nil
		})
	}
	diff := func(a, b value.Value) int { return int(a.Int() - b.Int()) }
	byInt := func(a, b value.Value) int { return cmpSign(a.Int(), b.Int()) }
	byFloat := func(a, b value.Value) int {
		return value.Compare(value.NewFloat(F8, a.Float()), value.NewFloat(F8, b.Float()))
	}
	sign := func(a, b value.Value) int { return value.Compare(a, b) }
	cmp("btint2cmp", I2, I2, diff)
	cmp("btint4cmp", I4, I4, byInt)
	cmp("btint8cmp", I8, I8, byInt)
	for _, p := range []struct {
		name string
		l, r value.Kind
	}{{"btint24cmp", I2, I4}, {"btint28cmp", I2, I8}, {"btint42cmp", I4, I2}, {"btint48cmp", I4, I8}, {"btint82cmp", I8, I2}, {"btint84cmp", I8, I4}} {
		cmp(p.name, p.l, p.r, byInt)
	}
	cmp("btfloat4cmp", F4, F4, byFloat)
	cmp("btfloat8cmp", F8, F8, byFloat)
	cmp("btfloat48cmp", F4, F8, byFloat)
	cmp("btfloat84cmp", F8, F4, byFloat)
	cmp("btoidcmp", value.Oid, value.Oid, func(a, b value.Value) int { return cmpSign(int64(a.OID()), int64(b.OID())) })
	cmp("btcharcmp", value.InternalChar, value.InternalChar, func(a, b value.Value) int { return int(a.CharByte()) - int(b.CharByte()) })
	cmp("btboolcmp", value.Bool, value.Bool, func(a, b value.Value) int { return boolDiff(a) - boolDiff(b) })
	text := func(a, b value.Value) int {
		if a.CollationID() != 0 || b.CollationID() != 0 {
			return value.Compare(a, b) // a collation's order, as ICU's -1, 0 or 1
		}
		return memcmpDiff(a.Str(), b.Str())
	}
	cmp("bttextcmp", value.Text, value.Text, text)
	btreeCmps[value.Varchar] = text
	cmp("bttext_pattern_cmp", value.Text, value.Text, func(a, b value.Value) int { return memcmpDiff(a.Str(), b.Str()) })
	bpchar := func(a, b value.Value) int {
		a = value.NewText(value.Char, strings.TrimRight(a.Str(), " ")).Collated(a.CollationID())
		b = value.NewText(value.Char, strings.TrimRight(b.Str(), " ")).Collated(b.CollationID())
		return text(a, b)
	}
	cmp("bpcharcmp", value.Char, value.Char, bpchar)
	cmp("btbpchar_pattern_cmp", value.Char, value.Char, func(a, b value.Value) int {
		return memcmpDiff(strings.TrimRight(a.Str(), " "), strings.TrimRight(b.Str(), " "))
	})
	// name compares as strncmp over its 64 bytes: a shorter name's NUL
	// against the other's next byte.
	cmp("btnamecmp", value.Name, value.Name, func(a, b value.Value) int { return strncmpDiff(a.Str(), b.Str()) })
	cmp("btnametextcmp", value.Name, value.Text, text)
	cmp("bttextnamecmp", value.Text, value.Name, text)
	cmp("byteacmp", value.Bytea, value.Bytea, func(a, b value.Value) int { return memcmpDiff(a.Str(), b.Str()) })
	cmp("uuid_cmp", value.UUID, value.UUID, func(a, b value.Value) int { return memcmpDiff(a.Str(), b.Str()) })
	bits := func(a, b value.Value) int {
		x, y := a.Str(), b.Str()
		n := (min(len(x), len(y)) + 7) / 8
		if c := memcmpDiff(packBits(x, n), packBits(y, n)); c != 0 || len(x) == len(y) {
			return c
		}
		return cmpSign(int64(len(x)), int64(len(y)))
	}
	cmp("bitcmp", value.Bit, value.Bit, bits)
	cmp("varbitcmp", value.Varbit, value.Varbit, bits)
	for _, f := range []struct {
		name string
		k    value.Kind
	}{
		{"time_cmp", value.Time}, {"timetz_cmp", value.TimeTZ}, {"interval_cmp", value.Interval},
		{"numeric_cmp", value.Numeric}, {"cash_cmp", value.Money}, {"macaddr_cmp", value.MacAddr},
		{"macaddr8_cmp", value.MacAddr8}, {"pg_lsn_cmp", value.PgLSN}, {"xid8cmp", value.Xid8}, {"bttidcmp", value.Tid},
	} {
		cmp(f.name, f.k, f.k, sign)
	}
	// oidvector orders the shorter first, by the difference of the
	// lengths, then oid by oid.
	cmp("btoidvectorcmp", value.OidVector, value.OidVector, func(a, b value.Value) int {
		x, y := a.Elems(), b.Elems()
		if len(x) != len(y) {
			return len(x) - len(y)
		}
		for i := range x {
			if c := cmpSign(int64(x[i].OID()), int64(y[i].OID())); c != 0 {
				return c
			}
		}
		return 0
	})
	polyStrict("btarraycmp", []poly{pAnyArray, pAnyArray}, intResult, func(a []value.Value) (value.Value, error) {
		return int4(int64(value.Compare(a[0], a[1]))), nil
	})
	strict("btrecordcmp", kinds(value.Record, value.Record), value.Int4Type, func(a []value.Value) (value.Value, error) {
		c, err := recordCmp(a[0], a[1])
		return int4(int64(c)), err
	})
}

// btreeCmps are the comparison support functions of the built-in types
// by kind, with their numbers, which range_cmp gives for a range's
// bounds (btint2cmp's difference for a range over smallint, bttextcmp's
// for one over text).
var btreeCmps = map[value.Kind]func(a, b value.Value) int{}

// subtypeCmp is the comparison support function of a's and b's type:
// btreeCmps' when it has one, else -1, 0 or 1.
func subtypeCmp(a, b value.Value) int {
	if f, ok := btreeCmps[a.Kind()]; ok && a.Kind() == b.Kind() {
		return f(a, b)
	}
	return value.Compare(a, b)
}

// cmpSign is -1, 0 or 1 as a is below, equal to or above b (cmp.Compare
// under a name the functions here, which call a local helper cmp, can reach).
func cmpSign[T cmp.Ordered](a, b T) int { return cmp.Compare(a, b) }

func boolDiff(v value.Value) int {
	if v.Bool() {
		return 1
	}
	return 0
}

// memcmpDiff is varstr_cmp's order of two byte strings under the C
// collation: the difference of the first bytes that differ (unsigned),
// else -1 or 1 for the shorter and the longer.
func memcmpDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return cmpSign(int64(len(a)), int64(len(b)))
}

// strncmpDiff is strncmp's difference of two NUL-terminated names.
func strncmpDiff(a, b string) int {
	for i := 0; ; i++ {
		var x, y int
		if i < len(a) {
			x = int(a[i])
		}
		if i < len(b) {
			y = int(b[i])
		}
		if x != y || x == 0 {
			return x - y
		}
	}
}

// packBits is the first n bytes of a bit string's digits, as PostgreSQL
// keeps them: eight to a byte, the first the highest, zeros after the end.
func packBits(s string, n int) string {
	b := make([]byte, n)
	for i := range min(len(s), 8*n) {
		if s[i] == '1' {
			b[i/8] |= 0x80 >> (i % 8)
		}
	}
	return string(b)
}

// recordCmp is record_cmp: the columns compared in turn, NULL after
// every value; columns of different types fail when reached, and
// different numbers of columns only when the shared ones are equal.
func recordCmp(a, b value.Value) (int, error) {
	x, y := a.Fields(), b.Fields()
	for i := range min(len(x), len(y)) {
		if !x[i].IsNull() && !y[i].IsNull() && x[i].Kind() != y[i].Kind() {
			return 0, pgerr.New(pgerr.DatatypeMismatch, "cannot compare dissimilar column types %s and %s at record column %d",
				value.Type{Kind: x[i].Kind(), Mod: -1}, value.Type{Kind: y[i].Kind(), Mod: -1}, i+1)
		}
		if c := value.Compare(x[i], y[i]); c != 0 {
			return c, nil
		}
	}
	if len(x) != len(y) {
		return 0, pgerr.New(pgerr.DatatypeMismatch, "cannot compare record types with different numbers of columns")
	}
	return 0, nil
}
