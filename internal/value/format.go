package value

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/cockroachdb/apd/v3"
)

// AppendText appends v in PostgreSQL's text output format, as psql prints
// it; NULL appends nothing.
func AppendText(buf []byte, v Value) []byte {
	return AppendTextStyle(buf, v, IntervalPostgres)
}

// AppendTextStyle is AppendText with intervals, alone or within arrays
// and records, in the IntervalStyle st carries.
func AppendTextStyle(buf []byte, v Value, st TextStyle) []byte {
	return AppendTextZone(buf, v, st, UTC)
}

// AppendTextZone is AppendTextStyle with timestamptz values, alone or
// within arrays and records, as z's wall-clock time and offset; dates,
// timestamps and bytea in the DateStyle and bytea_output st carries.
func AppendTextZone(buf []byte, v Value, st TextStyle, z Zone) []byte {
	switch {
	case v.kind.IsVector():
		return appendVector(buf, v)
	case v.kind.IsArray():
		return appendArray(buf, v, st, z)
	case v.kind == Record:
		return appendRecord(buf, v, st, z)
	case v.kind == Interval:
		return AppendIntervalStyle(buf, v.Span(), st)
	case st.styledScalar(v.kind):
		return appendStyledScalar(buf, v, st, z)
	case v.kind == TimestampTZ:
		return appendTimestampTZ(buf, v.n, z)
	case v.kind == TSTZRange, v.kind == DateRange && st.Date() != DateISO, v.kind == TSRange && st.Date() != DateISO:
		return appendRangeTextStyle(buf, v, st, z)
	case v.kind == TSTZMultirange, v.kind == DateMultirange && st.Date() != DateISO, v.kind == TSMultirange && st.Date() != DateISO:
		return appendMultirangeTextStyle(buf, v, st, z)
	}
	return appendScalarText(buf, v)
}

// appendScalarText is AppendText of a value of a kind other than array.
func appendScalarText(buf []byte, v Value) []byte {
	switch v.kind {
	case Unknown:
		return buf
	case JSON, JSONB:
		return appendJSONText(buf, v)
	case Bool:
		if v.n != 0 {
			return append(buf, 't')
		}
		return append(buf, 'f')
	case Int2, Int4, Int8:
		return strconv.AppendInt(buf, v.n, 10)
	case Float4:
		return appendFloat(buf, v.Float(), 32)
	case Float8:
		return appendFloat(buf, v.Float(), 64)
	case Numeric:
		var d apd.Decimal
		return appendNumeric(buf, v.DecimalInto(&d))
	case Date:
		return appendDate(buf, v.n)
	case Timestamp:
		return appendTimestamp(buf, v.n, false)
	case TimestampTZ:
		return appendTimestamp(buf, v.n, true)
	case Interval:
		return appendInterval(buf, v.Span())
	case Time, TimeTZ:
		return appendTimeText(buf, v)
	case Bytea:
		return appendBytea(buf, v)
	case UUID:
		return appendUUID(buf, v)
	case Inet, Cidr:
		return appendInet(buf, v)
	case MacAddr, MacAddr8:
		return appendMacAddr(buf, v)
	case Money:
		return appendMoney(buf, v)
	case Oid, RegClass, RegType, RegProc, RegProcedure, RegNamespace, RegRole, RegOper, RegOperator, RegCollation, RegConfig:
		return appendOid(buf, v)
	case Tid:
		return appendTid(buf, v)
	case PgLSN:
		return appendPgLSN(buf, v)
	case Xid8:
		return appendXid8(buf, v)
	case InternalChar:
		return appendInternalChar(buf, v)
	case Xid, Cid:
		return strconv.AppendUint(buf, uint64(uint32(v.n)), 10)
	case Enum:
		return append(buf, v.EnumLabel()...)
	case Point, LSeg, Path, Box, Polygon, Line, Circle:
		return appendGeometric(buf, v, 1)
	case JSONPath:
		return append(buf, v.JSONPathOf().text...)
	case XML:
		return appendXMLText(buf, v.Str())
	case HStore, ACLItem, PgSnapshot, TxidSnapshot, RefCursor, Cstring:
		return append(buf, v.Str()...)
	case Void:
		return buf // void_out prints nothing
	case TSVector:
		return v.TSVector().AppendText(buf)
	case TSQuery:
		return v.TSQuery().AppendText(buf)
	case Int4Range, Int8Range, NumRange, DateRange, TSRange, TSTZRange, UserRange:
		return appendRangeText(buf, v, UTC)
	case Int4Multirange, Int8Multirange, NumMultirange, DateMultirange, TSMultirange, TSTZMultirange, UserMultirange:
		return appendMultirangeText(buf, v, UTC)
	}
	return append(buf, v.Str()...)
}

// String returns v's text output, or "NULL".
func (v Value) String() string {
	if v.kind == Unknown {
		return "NULL"
	}
	var stack [64]byte
	return string(AppendText(stack[:0], v))
}

// String prints a row as "(a, b, NULL)".
func (r Row) String() string {
	buf := []byte{'('}
	for i, v := range r {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		if v.kind == Unknown {
			buf = append(buf, "NULL"...)
		} else {
			buf = AppendText(buf, v)
		}
	}
	return string(append(buf, ')'))
}

// appendFloatDigits writes f as float4out (bitSize 32) or float8out does
// under extra_float_digits fd: shortest-exact from 1 to 3 (appendFloat),
// else rounded to 6 or 15 digits plus fd (at least one), in C's %g.
func appendFloatDigits(buf []byte, f float64, bitSize int, fd int) []byte {
	if fd > 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return appendFloat(buf, f, bitSize)
	}
	ndig := 15 + fd
	if bitSize == 32 {
		ndig = 6 + fd
	}
	return strconv.AppendFloat(buf, f, 'g', max(ndig, 1), 64)
}

// appendFloat writes the shortest digits that read back as f (PostgreSQL's
// extra_float_digits=1 default), in exponent notation when the decimal
// exponent is below -4 or at least 15 (6 for real), as PostgreSQL does.
func appendFloat(buf []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(buf, "NaN"...)
	case math.IsInf(f, 1):
		return append(buf, "Infinity"...)
	case math.IsInf(f, -1):
		return append(buf, "-Infinity"...)
	}
	var tmp [40]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, bitSize)
	var dbuf [24]byte
	mant, exp := splitExp(dbuf[:0], e)
	if onRoundingBoundary(f, mant, exp, bitSize) {
		// PostgreSQL's Ryu excludes the interval's bounds, where strconv
		// includes them for even mantissas: the shortest output that is
		// strictly closer to f than to its neighbours is a digit longer.
		for prec := len(mant); prec < 17; prec++ {
			e = strconv.AppendFloat(tmp[:0], f, 'e', prec, bitSize)
			mant, exp = splitExp(dbuf[:0], e)
			if !onRoundingBoundary(f, mant, exp, bitSize) {
				break
			}
		}
	}
	limit := 15
	if bitSize == 32 {
		limit = 6
	}
	if exp < -4 || exp >= limit {
		return append(buf, e...)
	}
	prec := len(mant) - 1 - exp // digits after the point
	return strconv.AppendFloat(buf, f, 'f', max(prec, 0), bitSize)
}

// splitExp appends to dst the significant digits (sign and point removed)
// of a float in 'e' format, and returns them with the decimal exponent.
func splitExp(dst, e []byte) (digits []byte, exp int) {
	i := len(e) - 1
	for i > 0 && e[i] != 'e' {
		i--
	}
	x, _ := strconv.Atoi(string(e[i+1:]))
	for _, c := range e[:i] {
		if c >= '0' && c <= '9' {
			dst = append(dst, c)
		}
	}
	return dst, x
}

// onRoundingBoundary reports whether the decimal digits×10^(exp-len+1),
// which reads back as f, lies exactly halfway between f and a neighbour.
// Such a midpoint is a dyadic rational with one more significant bit than
// the format has; anything else is exactly f or strictly inside f's
// rounding interval.
func onRoundingBoundary(f float64, digits []byte, exp int, bitSize int) bool {
	var d uint64
	for _, c := range digits {
		d = d*10 + uint64(c-'0')
	}
	if d == 0 {
		return false
	}
	e := exp - (len(digits) - 1)
	// Odd part of d × 10^e, when it is an integer times a power of two.
	d >>= bits.TrailingZeros64(d)
	if e < 0 {
		if -e >= len(pow5) || d%pow5[-e] != 0 {
			return false
		}
		d /= pow5[-e]
	} else {
		if e >= len(pow5) {
			return false
		}
		hi, lo := bits.Mul64(d, pow5[e])
		if hi != 0 {
			return false
		}
		d = lo
	}
	mantBits := 53
	if bitSize == 32 {
		mantBits = 24
	}
	if bits.Len64(d) != mantBits+1 {
		return false
	}
	// Rare: compare exactly with the midpoints around f.
	s := string(digits) + "e" + strconv.Itoa(e)
	if f < 0 {
		s = "-" + s
	}
	x, _, err := big.ParseFloat(s, 10, 200, big.ToNearestEven)
	if err != nil {
		return false
	}
	var up, down float64
	if bitSize == 32 {
		up = float64(math.Nextafter32(float32(f), float32(math.Inf(1))))
		down = float64(math.Nextafter32(float32(f), float32(math.Inf(-1))))
	} else {
		up, down = math.Nextafter(f, math.Inf(1)), math.Nextafter(f, math.Inf(-1))
	}
	for _, n := range []float64{up, down} {
		if math.IsInf(n, 0) {
			continue
		}
		m := new(big.Float).SetPrec(200).SetFloat64(f)
		m.Add(m, new(big.Float).SetPrec(200).SetFloat64(n))
		m.Quo(m, big.NewFloat(2))
		if m.Cmp(x) == 0 {
			return true
		}
	}
	return false
}

// pow5 holds 5^0 … 5^27, the powers that fit a uint64.
var pow5 = func() (p [28]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 5
	}
	return p
}()

// appendNumeric writes a numeric as plain digits with its scale, never in
// exponent notation.
func appendNumeric(buf []byte, d *apd.Decimal) []byte {
	if d == nil {
		return append(buf, "NaN"...)
	}
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(buf, "NaN"...)
	case apd.Infinite:
		if d.Negative {
			return append(buf, "-Infinity"...)
		}
		return append(buf, "Infinity"...)
	}
	if d.Negative && d.Coeff.Sign() != 0 {
		buf = append(buf, '-')
	}
	ds := len(buf)
	buf = d.Coeff.Append(buf, 10)
	if buf[ds] == '-' {
		copy(buf[ds:], buf[ds+1:])
		buf = buf[:len(buf)-1]
	}
	if d.Exponent >= 0 {
		if d.Coeff.Sign() == 0 {
			return buf[:ds+1]
		}
		for i := int32(0); i < d.Exponent; i++ {
			buf = append(buf, '0')
		}
		return buf
	}
	scale := int(-d.Exponent)
	nd := len(buf) - ds
	if nd <= scale {
		// Pad with leading zeros so there is one integer digit.
		pad := scale - nd + 1
		for i := 0; i < pad; i++ {
			buf = append(buf, 0)
		}
		copy(buf[ds+pad:], buf[ds:ds+nd])
		for i := 0; i < pad; i++ {
			buf[ds+i] = '0'
		}
		nd += pad
	}
	buf = append(buf, 0)
	p := ds + nd - scale
	copy(buf[p+1:], buf[p:ds+nd])
	buf[p] = '.'
	return buf
}

func appendDate(buf []byte, days int64) []byte {
	switch days {
	case DateNegInfinity:
		return append(buf, "-infinity"...)
	case DatePosInfinity:
		return append(buf, "infinity"...)
	}
	y, m, d := civilFromDays(days)
	buf = appendYMD(buf, y, m, d)
	if y <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

func appendYMD(buf []byte, y, m, d int64) []byte {
	if y <= 0 {
		y = 1 - y
	}
	buf = appendPadded(buf, y, 4)
	buf = append(buf, '-')
	buf = appendPadded(buf, m, 2)
	buf = append(buf, '-')
	return appendPadded(buf, d, 2)
}

func appendPadded(buf []byte, n int64, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], n, 10)
	for i := len(s); i < width; i++ {
		buf = append(buf, '0')
	}
	return append(buf, s...)
}

func appendTimestamp(buf []byte, us int64, tz bool) []byte {
	switch us {
	case TimestampNegInfinity:
		return append(buf, "-infinity"...)
	case TimestampPosInfinity:
		return append(buf, "infinity"...)
	}
	days := floorDiv(us, usecsPerDay)
	tod := us - days*usecsPerDay
	y, m, d := civilFromDays(days)
	buf = appendYMD(buf, y, m, d)
	buf = append(buf, ' ')
	secs := tod / usecsPerSec
	frac := tod % usecsPerSec
	buf = appendPadded(buf, secs/3600, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs/60%60, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs%60, 2)
	if frac != 0 {
		buf = append(buf, '.')
		width := 6
		for frac%10 == 0 {
			frac /= 10
			width--
		}
		buf = appendPadded(buf, frac, width)
	}
	if tz {
		buf = append(buf, "+00"...)
	}
	if y <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}
