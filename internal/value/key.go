package value

import (
	"encoding/binary"
	"math"

	"github.com/cockroachdb/apd/v3"
	"github.com/zeebo/xxh3"
)

// Key encoding. AppendKey writes a canonical, self-delimiting and
// order-preserving ("memcomparable") encoding: for any two values,
// bytes.Compare of their keys equals Compare of the values, so equal keys
// mean Equal values and keys can index ordered structures directly.
//
// Every key starts with a tag byte: the kind for a non-NULL value, and
// keyNull, above every kind, for NULL (NULLs sort last). Then:
//
//	bool                one byte, 0 or 1
//	int2/4/8, date,     8 bytes big-endian with the sign bit flipped
//	timestamp(tz),
//	time(tz), money,
//	oid, reg*           (the oid)
//	float4/8            8 bytes: IEEE bits, sign bit flipped for positives and
//	                    all bits inverted for negatives; -0 is written as 0
//	                    and every NaN as one NaN above +Infinity
//	numeric             a class byte (-Inf, negative, zero, positive, +Inf,
//	                    NaN); for nonzero finite values the decimal exponent of
//	                    the leading digit as 8 ordered bytes, then the
//	                    significant digits (trailing zeros dropped, so 1.5 and
//	                    1.50 agree) two per byte as 1+dd, then a 0 terminator;
//	                    negatives invert every byte after the class byte
//	text, varchar       bytes with 0x00 escaped as 0x00 0xFF, then 0x00 0x01;
//	char                the same, trailing spaces dropped first
//	citext              the same, ASCII letters lowered first (citext.go)
//	bytea, uuid, bit,   their bytes (a bit string's digits) as text's
//	bit varying
//	inet, cidr,         their bytes (network.go), as text's
//	macaddr(8),
//	geometric types     their bytes (geometric.go), as text's
//	interval            its length in whole days (30-day months), then the
//	                    microseconds left over, each as 8 ordered bytes, so
//	                    '1 mon' and '30 days' agree
//	json                its text, as text's
//	tsvector, tsquery   their stored forms (internal/tsearch), as text's
//	range               appendRangeKey's encoding
//	multirange          appendMultirangeKey's encoding
//	jsonb               appendJSONBKey's encoding
//	enum                its type's mod in 4 bytes, then its label's sort
//	                    position as a float8's 8 bytes
//	array               per element a 1 byte and the element's key, then a
//	                    0 byte, then a non-empty array's shape
//	                    (appendArrayShapeKey)
//	record              the kind byte, then per field a 1 byte and the
//	                    field's key, then a 0 byte
const keyNull = 0xFF

// Numeric class bytes, in value order.
const (
	numKeyNegInf = iota + 1
	numKeyNeg
	numKeyZero
	numKeyPos
	numKeyPosInf
	numKeyNaN
)

// AppendKey appends v's key encoding to buf.
func AppendKey(buf []byte, v Value) []byte {
	if v.kind == Record || v.kind == ArrayOf(Record) {
		return appendRecordKey(buf, v) // before arrays: its elements are records
	}
	if v.kind.IsVector() {
		return appendVectorKey(buf, v)
	}
	if v.kind.IsArray() {
		return appendArrayKey(buf, v)
	}
	return appendScalarKey(buf, v)
}

// appendScalarKey is AppendKey of a value of a kind other than array; it
// does not recurse, so that a caller's stack buffer stays on the stack: a
// range's bounds take appendPlainKey.
func appendScalarKey(buf []byte, v Value) []byte {
	switch {
	case v.kind.IsRange():
		return appendRangeKey(append(buf, byte(v.kind)), v)
	case v.kind.IsMultirange():
		return appendMultirangeKey(append(buf, byte(v.kind)), v)
	}
	return appendPlainKey(buf, v)
}

// appendPlainKey is appendScalarKey of a value of a kind other than a
// range or a multirange.
func appendPlainKey(buf []byte, v Value) []byte {
	if v.kind == Unknown {
		return append(buf, keyNull)
	}
	buf = append(buf, byte(v.kind))
	if v.Nondeterministic() { // equal strings are those of equal sort keys
		s := v.Str()
		if v.kind == Char {
			s = trimSpaces(s)
		}
		return appendStringKey(buf, collationKey(v.sc, s))
	}
	switch v.kind {
	case Bool:
		return append(buf, byte(v.n&1))
	case Int2, Int4, Int8, Date, Timestamp, TimestampTZ:
		return appendOrderedInt(buf, v.n)
	case Time, TimeTZ, Money:
		return appendOrderedInt(buf, v.n)
	case Oid, RegClass, RegType, RegProc, RegProcedure, RegNamespace, RegRole, RegOper, RegOperator, RegCollation, RegConfig, Tid, Xid, Cid, PgLSN, InternalChar, Xid8:
		return appendOrderedInt(buf, v.n)
	case Float4, Float8:
		return binary.BigEndian.AppendUint64(buf, floatKeyBits(v.Float()))
	case Numeric:
		var d apd.Decimal
		return appendNumericKey(buf, v.DecimalInto(&d))
	case JSON, JSONB:
		return appendJSONValueKey(buf, v)
	case JSONPath:
		return appendStringKey(buf, v.JSONPathOf().text)
	case Interval:
		d, r := spanKey(v.Span())
		return appendOrderedInt(appendOrderedInt(buf, d), r)
	case Char:
		return appendStringKey(buf, trimSpaces(v.Str()))
	case TSVector:
		return appendStringKey(buf, v.textSearchBytes())
	case TSQuery:
		return appendStringKey(buf, v.TSQuery().OrderKey())
	case Enum:
		return appendEnumKey(buf, v)
	case HStore:
		return appendHStoreKey(buf, v)
	case CIText:
		return appendCITextKey(buf, v.Str())
	}
	return appendStringKey(buf, v.Str())
}

// AppendRowKey appends the concatenated keys of r's values to buf. Keys are
// self-delimiting, so the result is again canonical and order-preserving
// for rows of the same arity.
func AppendRowKey(buf []byte, r Row) []byte {
	for _, v := range r {
		buf = AppendKey(buf, v)
	}
	return buf
}

// HashRow returns a hash of r consistent with Equal: the xxh3 hash of its
// key. Rows whose key fits 128 bytes hash without allocating.
func HashRow(r Row) uint64 {
	var stack [128]byte
	return xxh3.Hash(AppendRowKey(stack[:0], r))
}

// HashKey returns the hash of an encoded key (AppendKey's or
// AppendRowKey's): HashRow of the row it encodes.
func HashKey(enc []byte) uint64 { return xxh3.Hash(enc) }

// HashValue returns the hash of a single value, consistent with Equal.
func HashValue(v Value) uint64 {
	var stack [64]byte
	return xxh3.Hash(AppendKey(stack[:0], v))
}

// Mix64 is splitmix64's finalizer: every bit of x moves every bit of the
// result.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// KeyIsInt reports whether AppendKey encodes a value of kind k as its
// Int() in 8 bytes, which IntKey decodes: integers, dates and timestamps
// (a boolean's key is one byte).
func KeyIsInt(k Kind) bool { return IntOrdered(k) && k != Bool }

// IntKey returns n when enc is exactly AppendKey of a value of a KeyIsInt
// kind whose Int() is n.
func IntKey(enc []byte) (int64, bool) {
	if len(enc) != 9 || !KeyIsInt(Kind(enc[0])) {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(enc[1:]) ^ 1<<63), true
}

func appendOrderedInt(buf []byte, n int64) []byte {
	return binary.BigEndian.AppendUint64(buf, uint64(n)^(1<<63))
}

// floatKeyBits maps a float to bits whose unsigned order is PostgreSQL's
// float order.
func floatKeyBits(f float64) uint64 {
	if math.IsNaN(f) {
		return math.MaxUint64
	}
	if f == 0 {
		f = 0 // folds -0 into 0
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// Prefix64 returns a 64-bit summary of a non-NULL v, monotone in
// Compare's order among values of v's kind: Compare(a, b) < 0 implies
// Prefix64(a) <= Prefix64(b), and equal values have equal summaries. Two
// values with different summaries therefore compare by them alone; equal
// summaries say nothing. It is exact for integer-ordered kinds and floats,
// the first 8 bytes of a string, and a constant for numerics and for
// strings under an ICU collation.
func Prefix64(v Value) uint64 {
	switch {
	case IntOrdered(v.kind):
		return uint64(v.n) ^ 1<<63
	case v.kind.IsFloat():
		return floatKeyBits(v.Float())
	case v.kind == Interval:
		d, _ := spanKey(v.Span())
		return uint64(d) ^ 1<<63
	case v.kind == Enum:
		return floatKeyBits(v.enumSort())
	case v.CollationID() != 0:
		return 1 << 63 // a collation's order is not the bytes'
	case v.kind.IsString() || v.kind.IsBytes() || v.kind.IsNetwork() || v.kind.IsGeometric():
		s := v.Str()
		if v.kind == Char {
			s = trimSpaces(s)
		}
		var b [8]byte
		copy(b[:], s)
		if v.kind == CIText {
			foldASCII(b[:])
		}
		return binary.BigEndian.Uint64(b[:])
	}
	return 1 << 63
}

func appendStringKey(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			buf = append(buf, 0, 0xFF)
		} else {
			buf = append(buf, s[i])
		}
	}
	return append(buf, 0, 1)
}

func appendNumericKey(buf []byte, d *apd.Decimal) []byte {
	if d == nil {
		return append(buf, numKeyNaN)
	}
	switch d.Form {
	case apd.Infinite:
		if d.Negative {
			return append(buf, numKeyNegInf)
		}
		return append(buf, numKeyPosInf)
	case apd.NaN, apd.NaNSignaling:
		return append(buf, numKeyNaN)
	}
	if d.Coeff.Sign() == 0 {
		return append(buf, numKeyZero)
	}
	neg := d.Negative != (d.Coeff.Sign() < 0)
	if neg {
		buf = append(buf, numKeyNeg)
	} else {
		buf = append(buf, numKeyPos)
	}
	start := len(buf)
	// Reserve the exponent, then write the decimal digits in place and
	// pack them into pairs over themselves (the packed form is shorter).
	buf = append(buf, 0, 0, 0, 0, 0, 0, 0, 0)
	ds := len(buf)
	buf = d.Coeff.Append(buf, 10)
	if buf[ds] == '-' {
		copy(buf[ds:], buf[ds+1:])
		buf = buf[:len(buf)-1]
	}
	nd := len(buf) - ds
	exp := int64(d.Exponent) + int64(nd) - 1
	end := len(buf)
	for end > ds+1 && buf[end-1] == '0' {
		end--
	}
	w := ds
	for i := ds; i < end; i += 2 {
		p := (buf[i] - '0') * 10
		if i+1 < end {
			p += buf[i+1] - '0'
		}
		buf[w] = 1 + p
		w++
	}
	buf = append(buf[:w], 0)
	binary.BigEndian.PutUint64(buf[start:], uint64(exp)^(1<<63))
	if neg {
		for i := start; i < len(buf); i++ {
			buf[i] = ^buf[i]
		}
	}
	return buf
}
