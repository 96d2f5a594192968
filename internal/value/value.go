// Package value holds deltaview's typed datums: PostgreSQL types, SQL NULL,
// comparison, canonical key encoding, arithmetic and casts with PostgreSQL's
// semantics, and PostgreSQL's text input and output formats.
//
// A Value is a small immutable struct; a Row is a fixed-arity slice of them.
// A numeric whose coefficient fits an int64 (with a scale of at most 255)
// is held inline, as that integer and its scale; a larger one, NaN or an
// infinity points at an immutable apd.Decimal. Strings point at their
// bytes, as do a tsvector and a tsquery (internal/tsearch's encodings)
// and a network address (network.go), a geometric value (geometric.go)
// and an xml value (xml.go);
// a non-empty range points at its two bounds, a multirange at its ranges;
// every other type is held
// inline, so rows carry few pointers.
package value

import (
	"math"
	"unsafe"

	"github.com/cockroachdb/apd/v3"
)

// Kind is the type of a value. The zero Kind is Unknown, the type of an
// untyped NULL or string literal before binding resolves it.
type Kind uint8

// The kinds deltaview supports.
const (
	Unknown Kind = iota
	Bool
	Int2
	Int4
	Int8
	Numeric
	Float4
	Float8
	Text
	Varchar
	Char
	Date
	Timestamp
	TimestampTZ
	Interval
	Record
	JSON
	JSONB
	Bytea
	Bit
	Varbit
	UUID
	Time
	TimeTZ
	JSONPath
	TSVector
	TSQuery
	Int4Range
	Int8Range
	NumRange
	DateRange
	TSRange
	TSTZRange
	Int4Multirange
	Int8Multirange
	NumMultirange
	DateMultirange
	TSMultirange
	TSTZMultirange
	Inet
	Cidr
	MacAddr
	MacAddr8
	Money
	Enum
	Point
	LSeg
	Path
	Box
	Polygon
	Line
	Circle
	XML
	Oid
	RegClass
	RegType
	RegProc
	RegProcedure
	RegNamespace
	RegRole
	UserRange
	UserMultirange
	Tid
	Xid
	Cid
	RegOper
	RegOperator
	HStore
	CIText
	PgLSN
	InternalChar // "char", one byte (internalchar.go)
	Int2Vector   // int2vector, an array of int2 from 0 (vector.go)
	OidVector    // oidvector, an array of oid from 0 (vector.go)
	Name         // name, an identifier of at most 63 bytes (name.go)
	Xid8         // xid8, a 64-bit transaction id (xid8.go)
	ACLItem      // aclitem, an access control list's entry, held as its text (aclitem.go)
	PgSnapshot   // pg_snapshot, a transaction snapshot, held as its text (snapshot.go)
	TxidSnapshot // txid_snapshot, the same under its older name (snapshot.go)
	RegCollation // regcollation, a collation's oid read and printed as its name (oid.go)
	RefCursor    // refcursor, a cursor's name, held as its text (refcursor.go)
	RegConfig    // regconfig, a text search configuration's oid read and printed as its name (regconfig.go)
	Void         // void, the result of a function that returns nothing (void.go)
	Trigger      // trigger, the result of a trigger function, which has no value (trigger.go)
	EventTrigger // event_trigger, the same for an event trigger function (trigger.go)
	Cstring      // cstring, the text type input and output functions read and print, held as its text (cstring.go)
	numKinds
)

// Type is a Kind with its modifier: the declared length of varchar(n) and
// char(n), the precision and scale of numeric(p,s). Mod is -1 when absent.
type Type struct {
	Kind Kind
	Mod  int32
}

// Common types without modifiers.
var (
	UnknownType     = Type{Unknown, -1}
	BoolType        = Type{Bool, -1}
	Int2Type        = Type{Int2, -1}
	Int4Type        = Type{Int4, -1}
	Int8Type        = Type{Int8, -1}
	NumericType     = Type{Numeric, -1}
	Float4Type      = Type{Float4, -1}
	Float8Type      = Type{Float8, -1}
	TextType        = Type{Text, -1}
	DateType        = Type{Date, -1}
	TimestampType   = Type{Timestamp, -1}
	TimestampTZType = Type{TimestampTZ, -1}
	IntervalType    = Type{Interval, -1}
	JSONType        = Type{JSON, -1}
	JSONBType       = Type{JSONB, -1}
	TimeType        = Type{Time, -1}
	TimeTZType      = Type{TimeTZ, -1}
)

// NumericMod encodes precision and scale as a numeric type modifier.
func NumericMod(precision, scale int32) int32 { return precision<<16 | scale&0xffff }

// Precision and Scale decode a numeric modifier; ok is false when Mod is -1.
func (t Type) PrecisionScale() (precision, scale int32, ok bool) {
	if t.Kind != Numeric || t.Mod < 0 {
		return 0, 0, false
	}
	return t.Mod >> 16, int32(int16(t.Mod & 0xffff)), true
}

// Value is one datum. The zero Value is SQL NULL. It is 24 bytes with one
// pointer: a row of five values fits two cache lines and a half.
type Value struct {
	p    unsafe.Pointer // a string's bytes, or a large numeric's *apd.Decimal; nil otherwise
	n    int64          // an integer-ordered value, a float's bits, a string's length, or an inline numeric's coefficient
	kind Kind           // Unknown means NULL
	sc   uint8          // an inline numeric's scale: its value is n × 10^-sc
}

// Null is SQL NULL.
var Null = Value{}

// NewBool returns a boolean.
func NewBool(b bool) Value {
	if b {
		return Value{kind: Bool, n: 1}
	}
	return Value{kind: Bool}
}

// NewInt returns an integer of kind Int2, Int4 or Int8. The caller has
// checked the range.
func NewInt(k Kind, n int64) Value { return Value{kind: k, n: n} }

// NewFloat returns a float of kind Float4 or Float8. A Float4 is stored
// rounded to float32.
func NewFloat(k Kind, f float64) Value {
	if k == Float4 {
		f = float64(float32(f))
	}
	return Value{kind: k, n: int64(math.Float64bits(f))}
}

// NewNumeric returns a numeric; d must not be modified afterwards. A
// finite d whose coefficient fits an int64, at a scale of 0 to 255, is
// held inline, and d is not kept.
func NewNumeric(d *apd.Decimal) Value {
	if d.Form == apd.Finite && d.Exponent <= 0 && d.Exponent >= -math.MaxUint8 && d.Coeff.IsInt64() {
		c := d.Coeff.Int64()
		if d.Negative {
			c = -c
		}
		if c != math.MinInt64 && (c != 0 || !d.Negative) {
			return Value{kind: Numeric, n: c, sc: uint8(-d.Exponent)}
		}
	}
	return Value{kind: Numeric, p: unsafe.Pointer(d)}
}

// newSmallNumeric returns the numeric c × 10^-scale; c is not MinInt64.
func newSmallNumeric(c int64, scale uint8) Value { return Value{kind: Numeric, n: c, sc: scale} }

// SmallNumeric returns an inline numeric's coefficient and scale; ok is
// false for any other value.
func (v Value) SmallNumeric() (coeff int64, scale int32, ok bool) {
	if v.kind != Numeric || v.p != nil {
		return 0, 0, false
	}
	return v.n, int32(v.sc), true
}

// NewText returns a string of kind Text, Varchar or Char.
func NewText(k Kind, s string) Value {
	return Value{kind: k, p: unsafe.Pointer(unsafe.StringData(s)), n: int64(len(s))}
}

// NewDate returns a date, as days since 2000-01-01 (PostgreSQL's epoch).
func NewDate(days int64) Value { return Value{kind: Date, n: days} }

// NewTimestamp returns a timestamp or timestamptz, as microseconds since
// 2000-01-01 00:00:00 (UTC for timestamptz).
func NewTimestamp(k Kind, micros int64) Value { return Value{kind: k, n: micros} }

// IntOrdered reports whether a value of kind k is exactly its Int(), and
// Compare orders such values as their Int()s: booleans, integers, dates,
// timestamps, times (a timetz's Int() packs time and zone, see time.go)
// and money (cents).
func IntOrdered(k Kind) bool {
	switch k {
	case Bool, Int2, Int4, Int8, Date, Timestamp, TimestampTZ:
		return true
	case Time, TimeTZ, Money:
		return true
	case Oid, RegClass, RegType, RegProc, RegProcedure, RegNamespace, RegRole, RegOper, RegOperator, RegCollation, RegConfig:
		return true // the oid (oid.go)
	case Tid, Xid, Cid:
		return true // sysid.go
	case PgLSN, Xid8:
		return true // pglsn.go, xid8.go: the number with its top bit flipped
	case InternalChar:
		return true // internalchar.go: the byte
	}
	return false
}

// FromInt returns the value of kind k whose Int() is n; IntOrdered(k) must
// hold.
func FromInt(k Kind, n int64) Value { return Value{kind: k, n: n} }

// IsNull reports whether v is SQL NULL.
func (v Value) IsNull() bool { return v.kind == Unknown }

// Kind returns v's kind; Unknown for NULL.
func (v Value) Kind() Kind { return v.kind }

// Bool returns a boolean's value.
func (v Value) Bool() bool { return v.n != 0 }

// Int returns an integer's value, a date's days or a timestamp's
// microseconds.
func (v Value) Int() int64 { return v.n }

// Float returns a float's value.
func (v Value) Float() float64 { return math.Float64frombits(uint64(v.n)) }

// Decimal returns a numeric's value; it must not be modified. An inline
// numeric's is allocated anew: DecimalInto does without.
func (v Value) Decimal() *apd.Decimal {
	if v.kind != Numeric {
		return nil
	}
	if v.p == nil {
		return new(apd.Decimal).SetFinite(v.n, -int32(v.sc))
	}
	return (*apd.Decimal)(v.p)
}

// DecimalInto returns a numeric's value, which must not be modified:
// an inline numeric's is set into buf.
func (v Value) DecimalInto(buf *apd.Decimal) *apd.Decimal {
	if v.kind != Numeric {
		return nil
	}
	if v.p == nil {
		return buf.SetFinite(v.n, -int32(v.sc))
	}
	return (*apd.Decimal)(v.p)
}

// Str returns a string's value, or the bytes of a bytea, a uuid, a
// network address (network.go) or a geometric value (geometric.go), a bit
// string's digits, or an xml value's text.
func (v Value) Str() string {
	if !v.kind.IsString() && !v.kind.IsBytes() && !v.kind.IsNetwork() && !v.kind.IsGeometric() && v.kind != XML && v.kind != HStore && v.kind != ACLItem && v.kind != PgSnapshot && v.kind != TxidSnapshot && v.kind != RefCursor && v.kind != Cstring {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.n))
}

// Row is a fixed-arity tuple of values.
type Row []Value
