package value

// TextStyle is the session's settings that shape values' text output,
// packed in one word so that they travel together to every writer:
// IntervalStyle, DateStyle's format and field order, bytea_output and
// extra_float_digits. The zero value is PostgreSQL's defaults (postgres,
// ISO, MDY, hex, 1).
type TextStyle uint16

// The bits of TextStyle. extra_float_digits is kept as its difference
// from the default 1, in five bits of two's complement (-16 to 15), so
// that the zero value is the default.
const (
	styleIntervalMask = 3
	styleDateShift    = 2
	styleOrderShift   = 4
	styleByteaEscape  = 1 << 6
	styleFloatShift   = 7
	styleFloatMask    = 31 << styleFloatShift
)

// TextDefault is the text style of PostgreSQL's default settings, in
// which views, which no session runs, write values.
const TextDefault TextStyle = 0

// Interval is the interval output style alone.
func (st TextStyle) Interval() TextStyle { return st & styleIntervalMask }

// Date is the session's DateStyle format.
func (st TextStyle) Date() DateStyle { return DateStyle(st >> styleDateShift & 3) }

// Order is the session's DateStyle field order.
func (st TextStyle) Order() DateOrder { return DateOrder(st >> styleOrderShift & 3) }

// ByteaEscape reports whether bytea_output is escape.
func (st TextStyle) ByteaEscape() bool { return st&styleByteaEscape != 0 }

// FloatDigits is extra_float_digits, -15 to 3.
func (st TextStyle) FloatDigits() int {
	return int(int8(uint8(st>>styleFloatShift)<<3)>>3) + 1
}

// FloatRounded reports whether extra_float_digits is 0 or less, when
// floats print rounded to 15 (float8) or 6 (float4) digits plus it,
// rather than shortest-exact.
func (st TextStyle) FloatRounded() bool { return st.FloatDigits() <= 0 }

// WithDate is st with DateStyle's format d and order o.
func (st TextStyle) WithDate(d DateStyle, o DateOrder) TextStyle {
	return st&^(3<<styleDateShift|3<<styleOrderShift) | TextStyle(d)<<styleDateShift | TextStyle(o)<<styleOrderShift
}

// WithByteaEscape is st with bytea_output escape (or hex).
func (st TextStyle) WithByteaEscape(escape bool) TextStyle {
	if escape {
		return st | styleByteaEscape
	}
	return st &^ styleByteaEscape
}

// WithFloatDigits is st with extra_float_digits d, which must be -15 to 3.
func (st TextStyle) WithFloatDigits(d int) TextStyle {
	return st&^styleFloatMask | TextStyle(uint8(d-1)&31)<<styleFloatShift
}
