package value

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Parse reads s with PostgreSQL's input function for t's kind, then applies
// t's modifier as an implicit coercion would (a too-long varchar is an
// error unless the excess is spaces). Errors carry PostgreSQL's SQLSTATEs:
// 22P02 for bad syntax, 22003 for numbers out of range, 22007 and 22008 for
// dates and timestamps.
func Parse(s string, t Type) (Value, error) {
	var v Value
	var err error
	switch t.Kind {
	case Unknown, Text:
		return NewText(Text, s), nil
	case Varchar, Char, CIText:
		v = NewText(t.Kind, s)
	case Name:
		return NewName(s), nil
	case Bool:
		v, err = parseBool(s)
	case Int2, Int4, Int8:
		v, err = parseInt(s, t.Kind)
	case Numeric:
		v, err = parseNumeric(s)
	case Float4, Float8:
		v, err = parseFloat(s, t.Kind)
	case Date:
		v, err = parseDate(s)
	case Timestamp, TimestampTZ:
		v, err = parseTimestamp(s, t.Kind)
	case Interval:
		v, err = parseInterval(s, t.Mod)
	case JSON, JSONB:
		return parseJSONValue(s, t.Kind)
	case Bytea:
		return parseBytea(s)
	case Bit, Varbit:
		return parseBits(s, t)
	case UUID:
		return parseUUID(s)
	case Inet, Cidr:
		return parseInet(s, t.Kind)
	case MacAddr:
		return parseMacAddr(s)
	case MacAddr8:
		return parseMacAddr8(s)
	case Money:
		return parseMoney(s)
	case Oid, RegClass, RegType, RegProc, RegProcedure, RegNamespace, RegRole, RegOper, RegOperator, RegCollation, RegConfig:
		return parseOid(s, t.Kind)
	case Tid:
		return parseTid(s)
	case PgLSN:
		return parsePgLSN(s)
	case Xid8:
		return NewXid8(strtoul(s)), nil
	case ACLItem:
		return parseACLItemValue(s)
	case PgSnapshot, TxidSnapshot:
		return parseSnapshotValue(s, t.Kind)
	case RefCursor, Cstring:
		return NewText(t.Kind, s), nil
	case Void:
		return VoidValue, nil // void_in ignores its text
	case Trigger, EventTrigger:
		return Null, ErrPseudoValue(t.Kind)
	case InternalChar:
		return parseInternalChar(s), nil
	case Int2Vector:
		return parseInt2Vector(s)
	case OidVector:
		return parseOidVector(s)
	case Xid, Cid:
		return Value{kind: t.Kind, n: int64(uint32(strtoul(s)))}, nil
	case Enum:
		return parseEnum(s, t)
	case Point, LSeg, Path, Box, Polygon, Line, Circle:
		return parseGeometric(s, t.Kind)
	case JSONPath:
		return parseJSONPathValue(s)
	case XML:
		return ParseXML(s, false)
	case HStore:
		return ParseHStore(s)
	case TSVector, TSQuery:
		return parseTextSearch(s, t.Kind)
	case Int4Range, Int8Range, NumRange, DateRange, TSRange, TSTZRange, UserRange:
		return parseRange(s, t)
	case Int4Multirange, Int8Multirange, NumMultirange, DateMultirange, TSMultirange, TSTZMultirange, UserMultirange:
		return parseMultirange(s, t)
	case Time, TimeTZ:
		v, err = parseTime(s, t.Kind)
	default:
		if t.Kind.IsArray() {
			return parseArray(s, t.ElemTypeMod())
		}
		if t.Kind == Record && !t.IsAnonymousRecord() {
			return ParseRecord(s, t)
		}
		if t.IsAnonymousRecord() {
			// record_in: an anonymous record's text names no fields.
			return Null, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
		}
		return Null, pgerr.New(pgerr.Internal, "cannot parse values of type %s", t.Kind)
	}
	if err != nil {
		return Null, err
	}
	return Coerce(v, t, false)
}

// ParseBytes is Parse of b, which the caller may reuse once it returns:
// values that hold no text (booleans, integers, numerics, floats, dates and
// timestamps) are read from b in place, without a copy of it; the others
// copy it.
func ParseBytes(b []byte, t Type) (Value, error) {
	switch t.Kind {
	case Bool, Int2, Int4, Int8, Numeric, Float4, Float8, Date, Timestamp, TimestampTZ, Time, TimeTZ:
		if len(b) == 0 {
			return Parse("", t)
		}
		return Parse(unsafe.String(&b[0], len(b)), t)
	}
	return Parse(string(b), t)
}

func errSyntax(k Kind, s string) error {
	return pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type %s: %q", k, s)
}

// isSpace is C's isspace, which PostgreSQL's input functions skip.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// parseBool accepts what PostgreSQL's boolin accepts: t/true/yes/on/1 and
// f/false/no/off/0, case-insensitively, any unique prefix of the words.
func parseBool(s string) (Value, error) {
	w := strings.ToLower(trimSpace(s))
	prefix := func(word string, minLen int) bool {
		return len(w) >= minLen && len(w) <= len(word) && word[:len(w)] == w
	}
	switch {
	case w == "":
	case prefix("true", 1), prefix("yes", 1), prefix("on", 2), w == "1":
		return NewBool(true), nil
	case prefix("false", 1), prefix("no", 1), prefix("off", 2), w == "0":
		return NewBool(false), nil
	}
	return Null, errSyntax(Bool, s)
}

// intRange returns the bounds of an integer kind.
func intRange(k Kind) (lo, hi int64) {
	switch k {
	case Int2:
		return math.MinInt16, math.MaxInt16
	case Int4:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// parseInt accepts optional surrounding whitespace, an optional sign and
// decimal digits, as PostgreSQL 15's int2in/int4in/int8in.
func parseInt(s string, k Kind) (Value, error) {
	t := trimSpace(s)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" {
		return Null, errSyntax(k, s)
	}
	lo, hi := intRange(k)
	// Accumulate negatively so that the minimum value parses.
	var n int64
	overflow := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			return Null, errSyntax(k, s)
		}
		d := int64(c - '0')
		if n < (lo+d)/10 {
			overflow = true
			continue
		}
		n = n*10 - d
	}
	if !neg {
		if n < -hi {
			overflow = true
		}
		n = -n
	}
	if overflow {
		return Null, pgerr.New(pgerr.NumericOutOfRange, "value %q is out of range for type %s", s, k)
	}
	return NewInt(k, n), nil
}

// specialWord matches w case-insensitively against the given words.
func specialWord(w string, words ...string) bool {
	for _, x := range words {
		if strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}

// parseNumeric accepts what PostgreSQL 15's numeric_in accepts: a signed
// decimal with optional point and exponent, or NaN / [+-]Infinity / [+-]inf,
// with surrounding whitespace. The scale is the digits after the point less
// the exponent (1.50e-1 is 0.150).
func parseNumeric(s string) (Value, error) {
	t := trimSpace(s)
	switch {
	case specialWord(t, "nan"):
		return NewNumeric(decNaN), nil
	case specialWord(t, "infinity", "+infinity", "inf", "+inf"):
		return NewNumeric(decPosInf), nil
	case specialWord(t, "-infinity", "-inf"):
		return NewNumeric(decNegInf), nil
	}
	mant, exp, ok := scanDecimal(t)
	if !ok {
		return Null, errSyntax(Numeric, s)
	}
	if e := exp - int64(mant.frac); len(mant.digits) <= 18 && e <= 0 && e >= -math.MaxUint8 {
		// Fits an inline numeric: no decimal to allocate.
		var c int64
		for i := 0; i < len(mant.digits); i++ {
			c = c*10 + int64(mant.digits[i]-'0')
		}
		if mant.neg {
			c = -c
		}
		return newSmallNumeric(c, uint8(-e)), nil
	}
	d := new(apd.Decimal)
	if _, ok := d.Coeff.SetString(mant.digits, 10); !ok {
		return Null, errSyntax(Numeric, s)
	}
	d.Negative = mant.neg
	e := exp - int64(mant.frac)
	if e < -numericMaxDscale || e > numericMaxWeightDigits {
		return Null, errNumericOverflow()
	}
	d.Exponent = int32(e)
	d2, err := normNumeric(d)
	if err != nil {
		return Null, err
	}
	return NewNumeric(d2), nil
}

type mantissa struct {
	neg     bool
	digits  string // all digits, the point removed
	frac    int    // digits after the point
	nonzero bool
}

// scanDecimal parses [+-](digits[.digits]|.digits)([eE][+-]digits). The
// exponent saturates far beyond any representable value.
func scanDecimal(t string) (m mantissa, exp int64, ok bool) {
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		m.neg = t[i] == '-'
		i++
	}
	start := i
	var buf []byte
	point, nd := false, 0
	for ; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			nd++
			if c != '0' {
				m.nonzero = true
			}
			if point {
				m.frac++
			}
		case c == '.' && !point:
			point = true
			if buf == nil {
				buf = make([]byte, 0, len(t))
				buf = append(buf, t[start:i]...)
			}
			continue
		default:
			goto digitsDone
		}
		if buf != nil {
			buf = append(buf, c)
		}
	}
digitsDone:
	if nd == 0 {
		return m, 0, false
	}
	if buf != nil {
		m.digits = string(buf)
	} else {
		m.digits = t[start:i]
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		eneg := false
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			eneg = t[i] == '-'
			i++
		}
		es := i
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			if exp < 1e12 {
				exp = exp*10 + int64(t[i]-'0')
			}
		}
		if i == es {
			return m, 0, false
		}
		if eneg {
			exp = -exp
		}
	}
	return m, exp, i == len(t)
}

// parseFloat accepts decimal floats with optional exponent and NaN,
// [+-]Infinity and [+-]inf, like float4in/float8in. Values that overflow, or
// underflow to zero, are out of range.
func parseFloat(s string, k Kind) (Value, error) {
	t := trimSpace(s)
	switch {
	case specialWord(t, "nan", "+nan", "-nan"):
		return NewFloat(k, math.NaN()), nil
	case specialWord(t, "infinity", "+infinity", "inf", "+inf"):
		return NewFloat(k, math.Inf(1)), nil
	case specialWord(t, "-infinity", "-inf"):
		return NewFloat(k, math.Inf(-1)), nil
	}
	m, exp, ok := scanDecimal(t)
	if !ok {
		return Null, errSyntax(k, s)
	}
	bits := 64
	if k == Float4 {
		bits = 32
	}
	outOfRange := func() error {
		return pgerr.New(pgerr.NumericOutOfRange, "%q is out of range for type %s", s, k)
	}
	if m.nonzero && (exp > 1e6 || exp < -1e6) {
		// Far beyond any float; keeps strconv away from huge exponents.
		return Null, outOfRange()
	}
	f, err := strconv.ParseFloat(t, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return Null, outOfRange()
		}
		return Null, errSyntax(k, s)
	}
	if f == 0 && m.nonzero {
		return Null, outOfRange()
	}
	return NewFloat(k, f), nil
}
