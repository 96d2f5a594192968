package value

import (
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Ranges. A range of one of PostgreSQL's six built-in range types is
// empty or has a lower and an upper bound, each infinite or a value of
// the range's element kind, inclusive or exclusive. Its n holds the
// flags; a non-empty range points at its two bound values, immutable once
// built. Ranges are made only by MakeRange, PostgreSQL's make_range: the
// bounds are checked, a range whose bounds are equal and not both
// inclusive is empty, an infinite bound is exclusive, and a discrete
// range (int4range, int8range, daterange) is canonical, [lower,upper).

// Range flags, in n.
const (
	rangeEmpty = 1 << iota
	rangeLowerInc
	rangeUpperInc
	rangeLowerInf
	rangeUpperInf
)

// rangeKinds maps the range types' names to their kinds.
var rangeKinds = map[string]Kind{
	"int4range": Int4Range, "int8range": Int8Range, "numrange": NumRange,
	"daterange": DateRange, "tsrange": TSRange, "tstzrange": TSTZRange,
}

// IsRange reports whether k is a range kind.
func (k Kind) IsRange() bool { return k >= Int4Range && k <= TSTZRange || k == UserRange }

// RangeElem returns the element kind of a built-in range kind; Unknown
// for others (a user range's is its type's: Type.RangeSubtype).
func (k Kind) RangeElem() Kind {
	switch k {
	case Int4Range:
		return Int4
	case Int8Range:
		return Int8
	case NumRange:
		return Numeric
	case DateRange:
		return Date
	case TSRange:
		return Timestamp
	case TSTZRange:
		return TimestampTZ
	}
	return Unknown
}

// discrete reports whether a range kind has a canonical form.
func (k Kind) discrete() bool { return k == Int4Range || k == Int8Range || k == DateRange }

// RangeBound is one bound of a range, as PostgreSQL's RangeBound: Val is
// NULL when Inf; Lower tells which bound it is, which orders bounds of
// equal values (an exclusive lower bound is above, an exclusive upper
// bound below, the value).
type RangeBound struct {
	Val   Value
	Inf   bool
	Inc   bool
	Lower bool
}

// EmptyRange returns the empty range of kind k.
func EmptyRange(k Kind) Value { return Value{kind: k, n: rangeEmpty} }

// IsEmptyRange reports whether v is an empty range.
func (v Value) IsEmptyRange() bool { return v.kind.IsRange() && v.n&rangeEmpty != 0 }

// RangeBounds returns a non-empty range's bounds; an empty range's, two
// NULL exclusive bounds, mean nothing (check IsEmptyRange first).
func (v Value) RangeBounds() (lower, upper RangeBound) {
	lower = RangeBound{Inf: v.n&rangeLowerInf != 0, Inc: v.n&rangeLowerInc != 0, Lower: true}
	upper = RangeBound{Inf: v.n&rangeUpperInf != 0, Inc: v.n&rangeUpperInc != 0}
	if v.p != nil {
		b := (*[2]Value)(v.p)
		lower.Val, upper.Val = b[0], b[1]
	}
	return lower, upper
}

// MakeRange is PostgreSQL's make_range: the range of kind k with the
// given bounds (their Lower fields are ignored), or the empty range. A
// lower bound above the upper is 22000.
func MakeRange(k Kind, lower, upper RangeBound, empty bool) (Value, error) {
	lower.Lower, upper.Lower = true, false
	if lower.Inf {
		lower.Val, lower.Inc = Null, false
	}
	if upper.Inf {
		upper.Val, upper.Inc = Null, false
	}
	if !empty {
		c := cmpRangeBoundValues(lower, upper)
		if c > 0 {
			return Null, pgerr.New("22000", "range lower bound must be less than or equal to range upper bound")
		}
		empty = c == 0 && !(lower.Inc && upper.Inc)
	}
	if empty {
		return EmptyRange(k), nil
	}
	if k.discrete() {
		var err error
		if !lower.Inf && !lower.Inc && rangeStep(lower.Val) {
			if lower.Val, err = rangeSucc(lower.Val); err != nil {
				return Null, err
			}
			lower.Inc = true
		}
		if !upper.Inf && upper.Inc && rangeStep(upper.Val) {
			if upper.Val, err = rangeSucc(upper.Val); err != nil {
				return Null, err
			}
			upper.Inc = false
		}
		if !lower.Inf && !upper.Inf && Compare(lower.Val, upper.Val) == 0 && !(lower.Inc && upper.Inc) {
			return EmptyRange(k), nil // [a,a) once canonical
		}
	}
	var n int64
	if lower.Inc {
		n |= rangeLowerInc
	}
	if upper.Inc {
		n |= rangeUpperInc
	}
	if lower.Inf {
		n |= rangeLowerInf
	}
	if upper.Inf {
		n |= rangeUpperInf
	}
	b := &[2]Value{lower.Val, upper.Val}
	return Value{kind: k, n: n, p: unsafe.Pointer(b)}, nil
}

// rangeStep reports whether a discrete range's canonical form steps a
// bound of value v: an infinite date stays as it is.
func rangeStep(v Value) bool { return v.kind != Date || dateIsFinite(v.n) }

// RangeBytes approximates the memory behind a range: its two bounds,
// each counted as held in its Value; 0 for other kinds and empty ranges.
func RangeBytes(v Value) int64 {
	if !v.kind.IsRange() || v.p == nil {
		return 0
	}
	return int64(unsafe.Sizeof([2]Value{}))
}

// rangeSucc is the next value of a discrete range's element.
func rangeSucc(v Value) (Value, error) {
	switch v.kind {
	case Date:
		if !validDate(v.n + 1) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "date out of range")
		}
	case Int4:
		if v.n == 1<<31-1 {
			return Null, errIntRange(Int4)
		}
	case Int8:
		if v.n == 1<<63-1 {
			return Null, pgerr.New(pgerr.NumericOutOfRange, "bigint out of range")
		}
	}
	return Value{kind: v.kind, n: v.n + 1}, nil
}

// cmpRangeBoundValues is PostgreSQL's range_cmp_bound_values: bounds
// ordered by their values alone, an infinite lower bound below and an
// infinite upper bound above every value.
func cmpRangeBoundValues(a, b RangeBound) int {
	switch {
	case a.Inf && b.Inf:
		if a.Lower == b.Lower {
			return 0
		}
		if a.Lower {
			return -1
		}
		return 1
	case a.Inf:
		if a.Lower {
			return -1
		}
		return 1
	case b.Inf:
		if b.Lower {
			return 1
		}
		return -1
	}
	return Compare(a.Val, b.Val)
}

// CmpRangeBounds is PostgreSQL's range_cmp_bounds: bounds ordered by
// value, then an inclusive lower bound below an exclusive one and an
// exclusive upper bound below an inclusive one.
func CmpRangeBounds(a, b RangeBound) int {
	c := cmpRangeBoundValues(a, b)
	if c != 0 || a.Inf || b.Inf {
		return c
	}
	switch {
	case !a.Inc && !b.Inc:
		if a.Lower == b.Lower {
			return 0
		}
		if a.Lower {
			return 1
		}
		return -1
	case !a.Inc:
		if a.Lower {
			return 1
		}
		return -1
	case !b.Inc:
		if b.Lower {
			return -1
		}
		return 1
	}
	return 0
}

// compareRanges is range_cmp, the btree order: the empty range first, then
// by lower bound, then by upper bound.
func compareRanges(a, b Value) int {
	ae, be := a.IsEmptyRange(), b.IsEmptyRange()
	switch {
	case ae && be:
		return 0
	case ae:
		return -1
	case be:
		return 1
	}
	al, au := a.RangeBounds()
	bl, bu := b.RangeBounds()
	if c := CmpRangeBounds(al, bl); c != 0 {
		return c
	}
	return CmpRangeBounds(au, bu)
}

// appendRangeKey writes a range's key: 0 for empty; else 1, then the
// lower bound (0 when infinite; else 1, the value's key, then 0 if
// inclusive, 1 if not), then the upper bound (1, the value's key, then 0
// if exclusive, 1 if inclusive; 2 when infinite): compareRanges' order.
func appendRangeKey(buf []byte, v Value) []byte {
	if v.IsEmptyRange() {
		return append(buf, 0)
	}
	lo, hi := v.RangeBounds()
	buf = append(buf, 1)
	if lo.Inf {
		buf = append(buf, 0)
	} else {
		buf = appendPlainKey(append(buf, 1), lo.Val)
		buf = append(buf, flagByte(!lo.Inc))
	}
	if hi.Inf {
		return append(buf, 2)
	}
	buf = appendPlainKey(append(buf, 1), hi.Val)
	return append(buf, flagByte(hi.Inc))
}

func flagByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// appendRangeText is range_out: "empty", or the bounds between [ or ( and
// ] or ), an infinite bound written as nothing and a bound quoted when its
// text is empty or holds a quote, a backslash, a parenthesis, a bracket, a
// comma or a space (range_bound_escape).
func appendRangeText(buf []byte, v Value, z Zone) []byte {
	return appendRangeTextStyle(buf, v, IntervalPostgres, z)
}

// appendRangeTextStyle is appendRangeText with date and timestamp bounds
// in the DateStyle st carries.
func appendRangeTextStyle(buf []byte, v Value, st TextStyle, z Zone) []byte {
	if v.IsEmptyRange() {
		return append(buf, "empty"...)
	}
	lo, hi := v.RangeBounds()
	if lo.Inc {
		buf = append(buf, '[')
	} else {
		buf = append(buf, '(')
	}
	if !lo.Inf {
		buf = appendRangeBoundText(buf, lo.Val, st, z)
	}
	buf = append(buf, ',')
	if !hi.Inf {
		buf = appendRangeBoundText(buf, hi.Val, st, z)
	}
	if hi.Inc {
		return append(buf, ']')
	}
	return append(buf, ')')
}

func appendRangeBoundText(buf []byte, v Value, st TextStyle, z Zone) []byte {
	at := len(buf)
	if st.styledScalar(v.kind) {
		buf = appendStyledScalar(buf, v, st, z)
	} else if v.kind == TimestampTZ {
		buf = appendTimestampTZ(buf, v.n, z)
	} else {
		buf = appendScalarText(buf, v)
	}
	s := string(buf[at:])
	quote := s == ""
	for i := 0; i < len(s) && !quote; i++ {
		quote = strings.IndexByte(`"\()[],`, s[i]) >= 0 || isSpace(s[i])
	}
	if !quote {
		return buf
	}
	buf = append(buf[:at], '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			buf = append(buf, s[i])
		}
		buf = append(buf, s[i])
	}
	return append(buf, '"')
}

// parseRange is range_in: range_parse's syntax, then each bound read with
// the element's input function, then MakeRange.
func parseRange(s string, t Type) (Value, error) { return parseRangeZone(s, t, nil) }

// parseRangeZone is parseRange reading timestamptz bounds without an
// offset as z's wall-clock time (nil: UTC).
func parseRangeZone(s string, t Type, z *Zone) (Value, error) {
	return parseRangeWith(s, t, func(text string, sub Type) (Value, error) {
		if z != nil {
			return ParseZone(text, sub, *z)
		}
		return Parse(text, sub)
	})
}

// parseRangeWith is parseRange reading each bound's text with read.
func parseRangeWith(s string, t Type, read func(string, Type) (Value, error)) (Value, error) {
	k := t.Kind
	malformed := func(detail string) error {
		return pgerr.New(pgerr.InvalidTextRep, "malformed range literal: %q", s).WithDetail("%s", detail)
	}
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	skip()
	if len(s)-i >= 5 && strings.EqualFold(s[i:i+5], "empty") {
		i += 5
		skip()
		if i < len(s) {
			return Null, malformed(`Junk after "empty" key word.`)
		}
		return EmptyRange(k), nil
	}
	var lo, hi RangeBound
	switch {
	case i < len(s) && s[i] == '[':
		lo.Inc = true
		i++
	case i < len(s) && s[i] == '(':
		i++
	default:
		return Null, malformed("Missing left parenthesis or bracket.")
	}
	// bound reads one bound's text: nothing is infinite; quotes group,
	// a doubled quote inside them and a backslash escape a character.
	// The values are read once the whole literal is, as range_in does.
	var texts [2]string
	bound := func(b *RangeBound, text *string) error {
		if i < len(s) && (s[i] == ',' || s[i] == ')' || s[i] == ']') {
			b.Inf = true
			return nil
		}
		var t []byte
		inQuote := false
		for inQuote || i >= len(s) || !(s[i] == ',' || s[i] == ')' || s[i] == ']') {
			if i >= len(s) {
				return malformed("Unexpected end of input.")
			}
			c := s[i]
			i++
			switch {
			case c == '\\':
				if i >= len(s) {
					return malformed("Unexpected end of input.")
				}
				t = append(t, s[i])
				i++
			case c == '"' && !inQuote:
				inQuote = true
			case c == '"' && i < len(s) && s[i] == '"':
				t = append(t, '"')
				i++
			case c == '"':
				inQuote = false
			default:
				t = append(t, c)
			}
		}
		*text = string(t)
		return nil
	}
	if err := bound(&lo, &texts[0]); err != nil {
		return Null, err
	}
	if i >= len(s) || s[i] != ',' {
		return Null, malformed("Missing comma after lower bound.")
	}
	i++
	if err := bound(&hi, &texts[1]); err != nil {
		return Null, err
	}
	switch {
	case i < len(s) && s[i] == ']':
		hi.Inc = true
		i++
	case i < len(s) && s[i] == ')':
		i++
	default:
		return Null, malformed("Too many commas.")
	}
	skip()
	if i < len(s) {
		return Null, malformed("Junk after right parenthesis or bracket.")
	}
	for j, b := range []*RangeBound{&lo, &hi} {
		if !b.Inf {
			var err error
			if b.Val, err = read(texts[j], t.RangeSubtype()); err != nil {
				return Null, err
			}
		}
	}
	return MakeRange(k, lo, hi, false)
}
