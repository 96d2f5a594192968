package value

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Coerce applies t's modifier to v, which is already of kind t.Kind (or
// NULL): numeric(p,s) rounds to s digits and checks the integer digits,
// varchar(n) and char(n) check the length (explicit casts truncate
// silently) and char(n) pads, timestamp(p) rounds to p fractional digits;
// an array type's modifier applies to each element.
// v is returned unchanged when t has no modifier.
func Coerce(v Value, t Type, explicit bool) (Value, error) {
	if t.Mod < 0 || v.kind == Unknown {
		return v, nil
	}
	if t.Kind.IsArray() && v.kind.IsArray() && TakesModifier(t.Kind.Elem()) {
		return coerceArray(v, t, explicit)
	}
	switch t.Kind {
	case Numeric:
		p, s, _ := t.PrecisionScale()
		return coerceNumeric(v, p, s)
	case Varchar, Char:
		return coerceString(v, t, explicit)
	case Timestamp, TimestampTZ:
		return coerceTimestamp(v, t.Mod), nil
	case Interval:
		return coerceInterval(v, t.Mod)
	case Time, TimeTZ:
		return coerceTime(v, t.Mod), nil
	case Bit, Varbit:
		return coerceBits(v, t, explicit)
	}
	return v, nil
}

// coerceNumeric is PostgreSQL's apply_typmod for numeric(p,s).
func coerceNumeric(v Value, p, s int32) (Value, error) {
	d := v.Decimal()
	if d == nil {
		return v, nil
	}
	if d.Form == apd.Infinite {
		return Null, &pgerr.Error{Code: pgerr.NumericOutOfRange, Message: "numeric field overflow",
			Detail: "A field with precision " + strconv.Itoa(int(p)) + ", scale " + strconv.Itoa(int(s)) + " cannot hold an infinite value."}
	}
	if d.Form != apd.Finite {
		return v, nil
	}
	r, err := normNumeric(rescale(d, int64(s), false))
	if err != nil {
		return Null, err
	}
	maxDigits := int64(p - s)
	if r.Coeff.Sign() != 0 && r.NumDigits()+int64(r.Exponent) > maxDigits {
		detail := "A field with precision " + strconv.Itoa(int(p)) + ", scale " + strconv.Itoa(int(s)) +
			" must round to an absolute value less than "
		if maxDigits != 0 {
			detail += "10^" + strconv.FormatInt(maxDigits, 10) + "."
		} else {
			detail += "1."
		}
		return Null, &pgerr.Error{Code: pgerr.NumericOutOfRange, Message: "numeric field overflow", Detail: detail}
	}
	return NewNumeric(r), nil
}

// coerceString applies varchar(n)/char(n): a longer value is an error
// unless the excess is all spaces or the cast is explicit, both of which
// truncate; char(n) then pads to n.
func coerceString(v Value, t Type, explicit bool) (Value, error) {
	s := v.Str()
	n := int(t.Mod)
	if len(s) > n {
		// Byte offset of the n-th rune, if there are more than n runes.
		cut, count := len(s), 0
		for i := range s {
			if count == n {
				cut = i
				break
			}
			count++
		}
		if cut < len(s) {
			if !explicit {
				for i := cut; i < len(s); i++ {
					if s[i] != ' ' {
						return Null, pgerr.New(pgerr.StringTooLong, "value too long for type %s", t)
					}
				}
			}
			s = s[:cut]
		}
	}
	if t.Kind == Char {
		if pad := n - utf8.RuneCountInString(s); pad > 0 {
			b := make([]byte, len(s), len(s)+pad)
			copy(b, s)
			for ; pad > 0; pad-- {
				b = append(b, ' ')
			}
			s = string(b)
		}
	}
	return NewText(t.Kind, s), nil
}

// timestampScales are the units timestamp(p) rounds microseconds to.
var timestampScales = [7]int64{1000000, 100000, 10000, 1000, 100, 10, 1}

// coerceTimestamp rounds to p fractional digits, half away from zero, as
// PostgreSQL's AdjustTimestampForTypmod.
func coerceTimestamp(v Value, p int32) Value {
	if p >= 6 || p < 0 || !tsIsFinite(v.n) {
		return v
	}
	sc := timestampScales[p]
	n := v.n
	if n >= 0 {
		n = (n + sc/2) / sc * sc
	} else {
		n = -((-n + sc/2) / sc * sc)
	}
	return NewTimestamp(v.kind, n)
}

// CanCast reports whether Cast allows converting from one kind to another.
// Implicit casts are PostgreSQL's: integer and numeric widening toward
// double precision, string kinds among themselves, date toward
// timestamptz, and an untyped literal to anything.
func CanCast(from, to Kind, explicit bool) bool {
	if from == to || from == Unknown {
		return true
	}
	if to == Record {
		return false // input of anonymous composite types is not implemented, as in PostgreSQL
	}
	if from == Cstring || to == Cstring {
		return cstringCastable(from, to, explicit)
	}
	if from.IsVector() || to.IsVector() {
		return vectorCastable(from, to, explicit)
	}
	if from.IsArray() || to.IsArray() {
		switch {
		case from.IsArray() && to.IsArray():
			return CanCast(from.Elem(), to.Elem(), explicit)
		case from.IsString() || to.IsString():
			return explicit
		}
		return false
	}
	if from >= numKinds || to >= numKinds {
		return false
	}
	if from.IsJSON() || to.IsJSON() {
		return canCastJSON(from, to, explicit)
	}
	if from == InternalChar || to == InternalChar {
		return internalCharCastable(from, to, explicit)
	}
	if ok, known := oidCastable(from, to, explicit); known {
		return ok
	}
	switch {
	case from.IsNumeric() && to.IsNumeric():
		// The kinds are declared in widening order.
		return explicit || from < to
	case from.IsString() && to.IsString():
		return true
	case from.IsDateTime() && to.IsDateTime():
		return explicit || from < to
	case from.IsBits() && to.IsBits():
		return true
	case to == Unknown:
		return false
	case from == Time && (to == Interval || to == TimeTZ):
		return true
	case from == Cidr && to == Inet, from == MacAddr && to == MacAddr8, from == MacAddr8 && to == MacAddr:
		return true
	case from == Int4 && to == Xid:
		return true // for xid = int4, which PostgreSQL has as an operator of its own
	}
	if from == Xid8 && to == Xid {
		return explicit
	}
	if !explicit {
		return false
	}
	switch {
	case from.IsString() || to.IsString():
		return true
	case from == Bool && to == Int4, from == Int4 && to == Bool:
		return true
	case to == Time || to == TimeTZ:
		_, ok, _ := castTime(Value{kind: from}, to)
		return ok
	case (from == Int4 || from == Int8) && to == Bit, from == Bit && (to == Int4 || to == Int8):
		return true
	case from.IsRange() && to == from.MultirangeOf():
		return true
	case from == Inet && to == Cidr:
		return true
	case MoneyCast(from, to):
		return true
	case from.IsGeometric() && to.IsGeometric():
		ok, _ := geoCastable(from, to)
		return ok
	}
	return false
}

func errCannotCast(from, to Kind) error {
	return pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from, to)
}

func errIntRange(k Kind) error {
	return pgerr.New(pgerr.NumericOutOfRange, "%s out of range", k)
}

// Cast converts v to type to, with PostgreSQL's conversion rules, then
// applies to's modifier with Coerce. NULL casts to NULL.
func Cast(v Value, to Type, explicit bool) (Value, error) {
	switch {
	case v.kind == Unknown:
		return Null, nil
	case v.kind == to.Kind && to.Mod < 0 && !to.Kind.IsString():
		return v, nil // the common case of typed input: nothing to do
	case v.kind.IsInteger() && to.Kind.IsInteger():
		return intResult(to.Kind, v.n)
	}
	if r, ok, err := castBits(v, to, explicit); ok {
		return r, err
	}
	if v.kind.IsString() && (to.Kind == Record || to.Kind == ArrayOf(Record)) {
		if to.Mod < 0 {
			return Null, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
		}
		return Parse(v.Str(), to) // a row type's text input, which knows its fields
	}
	if v.kind.IsString() && to.Kind == Enum {
		return parseEnum(v.Str(), to) // a char's padding included, as enum_in reads it
	}
	if v.kind.IsString() && to.Kind == ArrayOf(Enum) && to.Enum() != nil {
		return Parse(v.Str(), to) // its elements are the enum's labels
	}
	if v.kind.IsString() && (to.Kind == UserRange || to.Kind == UserMultirange) {
		return Parse(v.Str(), to) // its subtype's input
	}
	if v.kind.IsArray() && v.kind != to.Kind && (to.Kind == ArrayOf(Enum) || to.UserRange() != nil) && CanCast(v.kind, to.Kind, explicit) {
		return castElems(v, to.ElemType(), explicit) // to the enum's own labels, a user range's subtype
	}
	if !CanCast(v.kind, to.Kind, explicit) {
		return Null, errCannotCast(v.kind, to.Kind)
	}
	r, err := convert(v, to.Kind, explicit)
	if err != nil {
		return Null, err
	}
	return Coerce(r, to, explicit)
}

// convert changes v's kind without applying a modifier.
func convert(v Value, to Kind, explicit bool) (Value, error) {
	from := v.kind
	switch {
	case from == to:
		return v, nil
	case from.IsVector() && to.IsArray():
		return vectorToArray(v, to, explicit)
	case from.IsArray() && to.IsArray():
		return castArray(v, to, explicit)
	case from.IsJSON() && !to.IsString():
		return castJSON(v, to)
	case from == HStore && to.IsJSON():
		return castHStoreJSON(v, to)
	case to.IsString():
		return toString(v, to), nil
	case from == InternalChar || to == InternalChar:
		return convertInternalChar(v, to)
	case to == Cstring && from.IsString():
		return NewText(Cstring, v.Str()), nil // the string's output, char's padding kept
	case from.IsString():
		s := v.Str()
		if from == Char {
			s = trimSpaces(s)
		}
		return Parse(s, Type{to, -1})
	case from.IsNumeric() && to.IsNumeric():
		return convertNumber(v, to)
	case from.IsDateTime() && to.IsDateTime():
		return convertDateTime(v, to)
	case from == Time || from == TimeTZ || to == Time || to == TimeTZ:
		if r, ok, err := castTime(v, to); ok {
			return r, err
		}
	case from.IsRange() && to == from.MultirangeOf():
		return MakeMultirange(to, []Value{v})
	case from.IsNetwork() && to.IsNetwork():
		return castNetwork(v, to)
	case MoneyCast(from, to):
		return convertMoney(v, to)
	case from.IsOid() || to.IsOid():
		return convertOid(v, to)
	case from.IsGeometric() && to.IsGeometric():
		return castGeometric(v, to)
	case from == Int4 && to == Xid:
		return NewXid(uint32(v.n)), nil
	case from == Xid8 && to == Xid:
		return NewXid(uint32(v.Xid8())), nil // xid(xid8): the id without its epoch
	case from == Bool && to == Int4:
		return NewInt(Int4, v.n&1), nil
	case from == Int4 && to == Bool:
		return NewBool(v.n != 0), nil
	}
	return Null, errCannotCast(from, to)
}

// toString is the cast to a string kind: the text output, except that bool
// casts to "true"/"false" and char loses its padding.
func toString(v Value, to Kind) Value {
	if to == Name {
		return NewName(toString(v, Text).Str())
	}
	switch v.kind {
	case Bool:
		if v.n != 0 {
			return NewText(to, "true")
		}
		return NewText(to, "false")
	case Char:
		if to == Char {
			return v
		}
		return NewText(to, trimSpaces(v.Str()))
	case Text, Varchar, XML, CIText, Name:
		return NewText(to, v.Str()) // xml converts to text as written, its declaration kept
	case Inet, Cidr:
		return NewText(to, string(appendInetFull(nil, v))) // text(inet), which always shows the mask
	}
	return NewText(to, string(AppendText(nil, v)))
}

func convertNumber(v Value, to Kind) (Value, error) {
	from := v.kind
	switch {
	case from.IsInteger():
		switch {
		case to.IsInteger():
			return intResult(to, v.n)
		case to == Numeric:
			return newNumericInt(v.n), nil
		case to == Float4:
			return Value{kind: Float4, n: int64(math.Float64bits(float64(float32(v.n))))}, nil
		}
		return NewFloat(Float8, float64(v.n)), nil
	case from.IsFloat():
		f := v.Float()
		switch {
		case to.IsInteger():
			return floatToInt(f, to)
		case to == Numeric:
			return floatToNumeric(f, from)
		case to == Float4:
			r := float32(f)
			if math.IsInf(float64(r), 0) && !math.IsInf(f, 0) {
				return Null, errFloatOverflow()
			}
			if r == 0 && f != 0 {
				return Null, errFloatUnderflow()
			}
			return NewFloat(Float4, f), nil
		}
		return NewFloat(Float8, f), nil
	}
	// From numeric.
	switch {
	case to.IsInteger():
		return numericToInt(v.Decimal(), to)
	}
	return numericToFloat(v.Decimal(), to)
}

// intResult range-checks an integer result for kind k.
func intResult(k Kind, n int64) (Value, error) {
	lo, hi := intRange(k)
	if n < lo || n > hi {
		return Null, errIntRange(k)
	}
	return Value{kind: k, n: n}, nil
}

// floatToInt rounds half to even (rint) and range-checks, as PostgreSQL.
func floatToInt(f float64, to Kind) (Value, error) {
	r := math.RoundToEven(f)
	lo, hi := intRange(to)
	// hi+1 is exact as a float; hi itself may not be.
	if math.IsNaN(r) || r < float64(lo) || r >= float64(hi)+1 {
		return Null, errIntRange(to)
	}
	return Value{kind: to, n: int64(r)}, nil
}

// floatToNumeric converts as PostgreSQL's float8_numeric does: through the
// value printed with 15 significant digits (6 for real), so 0.1::float8
// becomes 0.1.
func floatToNumeric(f float64, from Kind) (Value, error) {
	switch {
	case math.IsNaN(f):
		return NewNumeric(decNaN), nil
	case math.IsInf(f, 1):
		return NewNumeric(decPosInf), nil
	case math.IsInf(f, -1):
		return NewNumeric(decNegInf), nil
	}
	digits := 15
	if from == Float4 {
		digits = 6
	}
	var tmp [40]byte
	b := strconv.AppendFloat(tmp[:0], f, 'e', digits-1, 64)
	// b is [-]d.ddde±XX; strip the trailing zeros of the mantissa as %g does.
	e := 0
	for i := range b {
		if b[i] == 'e' {
			e = i
			break
		}
	}
	m := e
	for m > 0 && b[m-1] == '0' {
		m--
	}
	if m > 0 && b[m-1] == '.' {
		m--
	}
	s := string(b[:m]) + string(b[e:])
	return parseNumeric(s)
}

func numericToInt(d *apd.Decimal, to Kind) (Value, error) {
	if d == nil || d.Form == apd.NaN || d.Form == apd.NaNSignaling {
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cannot convert NaN to %s", to)
	}
	if d.Form == apd.Infinite {
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cannot convert infinity to %s", to)
	}
	if d.NumDigits()+int64(d.Exponent) > 20 {
		return Null, errIntRange(to)
	}
	r := rescale(d, 0, false)
	if !r.Coeff.IsInt64() {
		return Null, errIntRange(to)
	}
	n := r.Coeff.Int64()
	if r.Negative {
		n = -n
	}
	return intResult(to, n)
}

// numericToFloat converts through the decimal text, correctly rounded, as
// PostgreSQL's numeric_float8.
func numericToFloat(d *apd.Decimal, to Kind) (Value, error) {
	var tmp [64]byte
	s := appendNumeric(tmp[:0], d)
	bits := 64
	if to == Float4 {
		bits = 32
	}
	f, err := strconv.ParseFloat(string(s), bits)
	if err != nil || (f == 0 && d.Coeff.Sign() != 0 && d.Form == apd.Finite) {
		return Null, pgerr.New(pgerr.NumericOutOfRange, "%q is out of range for type %s", s, to)
	}
	return NewFloat(to, f), nil
}

func convertDateTime(v Value, to Kind) (Value, error) {
	switch {
	case v.kind == Date:
		switch v.n {
		case DateNegInfinity:
			return NewTimestamp(to, TimestampNegInfinity), nil
		case DatePosInfinity:
			return NewTimestamp(to, TimestampPosInfinity), nil
		}
		if v.n < minDate || v.n >= endTimestamp/usecsPerDay {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "date out of range for timestamp")
		}
		return NewTimestamp(to, v.n*usecsPerDay), nil
	case to == Date:
		switch v.n {
		case TimestampNegInfinity:
			return NewDate(DateNegInfinity), nil
		case TimestampPosInfinity:
			return NewDate(DatePosInfinity), nil
		}
		return NewDate(floorDiv(v.n, usecsPerDay)), nil
	}
	// Timestamp and timestamptz agree in UTC.
	return NewTimestamp(to, v.n), nil
}
