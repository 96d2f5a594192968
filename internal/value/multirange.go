package value

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Multiranges. A multirange of one of the six range types is an ordered
// list of its non-empty ranges, none overlapping or meeting another
// (PostgreSQL's multirange_canonicalize): it points at the ranges,
// immutable once built, and n holds their count.

// IsMultirange reports whether k is a multirange kind.
func (k Kind) IsMultirange() bool {
	return k >= Int4Multirange && k <= TSTZMultirange || k == UserMultirange
}

// MultirangeOf returns the multirange kind of a range kind, and the range
// kind of a multirange kind; Unknown for other kinds.
func (k Kind) MultirangeOf() Kind {
	switch {
	case k == UserRange:
		return UserMultirange
	case k == UserMultirange:
		return UserRange
	case k.IsRange():
		return k - Int4Range + Int4Multirange
	case k.IsMultirange():
		return k - Int4Multirange + Int4Range
	}
	return Unknown
}

// MakeMultirange is PostgreSQL's make_multirange: the multirange of kind
// k (a multirange kind) of the ranges rs, sorted, without the empty ones,
// those that overlap or meet merged. rs is not kept.
func MakeMultirange(k Kind, rs []Value) (Value, error) {
	rs = slices.DeleteFunc(slices.Clone(rs), Value.IsEmptyRange)
	slices.SortFunc(rs, compareRanges)
	out := rs[:0]
	for _, r := range rs {
		if len(out) == 0 {
			out = append(out, r)
			continue
		}
		last := out[len(out)-1]
		if RangeBefore(last, r) && !RangeAdjacent(last, r) {
			out = append(out, r)
			continue
		}
		u, err := RangeUnion(last, r, false)
		if err != nil {
			return Null, err
		}
		out[len(out)-1] = u
	}
	if len(out) == 0 {
		return Value{kind: k}, nil
	}
	return Value{kind: k, p: unsafe.Pointer(unsafe.SliceData(out)), n: int64(len(out))}, nil
}

// Ranges returns a multirange's ranges, which must not be modified; a
// range alone for a non-empty range; nil otherwise.
func (v Value) Ranges() []Value {
	switch {
	case v.kind.IsMultirange() && v.n > 0:
		return unsafe.Slice((*Value)(v.p), v.n)
	case v.kind.IsRange() && !v.IsEmptyRange():
		return []Value{v}
	}
	return nil
}

// MultirangeBytes approximates the memory behind a multirange: its ranges
// and their bounds; 0 for other kinds.
func MultirangeBytes(v Value) int64 {
	if !v.kind.IsMultirange() {
		return 0
	}
	return v.n * int64(unsafe.Sizeof(Value{})+unsafe.Sizeof([2]Value{}))
}

// compareMultiranges is multirange_cmp: range by range, a multirange
// that is a prefix of another first.
func compareMultiranges(a, b Value) int {
	ra, rb := a.Ranges(), b.Ranges()
	for i := range min(len(ra), len(rb)) {
		if c := compareRanges(ra[i], rb[i]); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(ra)), int64(len(rb)))
}

// appendMultirangeKey writes per range a 1 and the range's key, then a 0:
// compareMultiranges' order.
func appendMultirangeKey(buf []byte, v Value) []byte {
	for _, r := range v.Ranges() {
		buf = appendRangeKey(append(buf, 1), r)
	}
	return append(buf, 0)
}

// appendMultirangeText is multirange_out: the ranges between braces.
func appendMultirangeText(buf []byte, v Value, z Zone) []byte {
	return appendMultirangeTextStyle(buf, v, IntervalPostgres, z)
}

// appendMultirangeTextStyle is appendMultirangeText with date and
// timestamp bounds in the DateStyle st carries.
func appendMultirangeTextStyle(buf []byte, v Value, st TextStyle, z Zone) []byte {
	buf = append(buf, '{')
	for i, r := range v.Ranges() {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendRangeTextStyle(buf, r, st, z)
	}
	return append(buf, '}')
}

// parseMultirange is multirange_in: ranges, or "empty", between braces,
// separated by commas; each read by range_in.
func parseMultirange(s string, t Type) (Value, error) { return parseMultirangeZone(s, t, nil) }

// parseMultirangeZone is parseMultirange reading timestamptz bounds
// without an offset as z's wall-clock time (nil: UTC).
func parseMultirangeZone(s string, t Type, z *Zone) (Value, error) {
	return parseMultirangeWith(s, t, func(r string, rt Type) (Value, error) { return parseRangeZone(r, rt, z) })
}

// parseMultirangeWith is parseMultirange reading each range with read.
func parseMultirangeWith(s string, t Type, read func(string, Type) (Value, error)) (Value, error) {
	k := t.Kind
	malformed := func(detail string) error {
		return pgerr.New(pgerr.InvalidTextRep, "malformed multirange literal: %q", s).WithDetail("%s", detail)
	}
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i >= len(s) || s[i] != '{' {
		return Null, malformed("Missing left brace.")
	}
	i++
	const (
		before = iota
		inRange
		inRangeEscaped
		inQuoted
		inQuotedEscaped
		after
		finished
	)
	var rs []Value
	state, seen, start := before, 0, 0
	for ; state != finished; i++ {
		if i >= len(s) {
			return Null, malformed("Unexpected end of input.")
		}
		c := s[i]
		if isSpace(c) {
			continue
		}
		switch state {
		case before:
			switch {
			case c == '[' || c == '(':
				start, state = i, inRange
			case c == '}' && seen == 0:
				state = finished
			case len(s)-i >= 5 && strings.EqualFold(s[i:i+5], "empty"):
				seen++
				i += 4
				state = after
			default:
				return Null, malformed("Expected range start.")
			}
		case inRange:
			switch c {
			case ']', ')':
				r, err := read(s[start:i+1], t.RangeType())
				if err != nil {
					return Null, err
				}
				rs = append(rs, r)
				seen++
				state = after
			case '"':
				state = inQuoted
			case '\\':
				state = inRangeEscaped
			}
		case inRangeEscaped:
			state = inRange
		case inQuoted:
			switch {
			case c == '"' && i+1 < len(s) && s[i+1] == '"':
				i++
			case c == '"':
				state = inRange
			case c == '\\':
				state = inQuotedEscaped
			}
		case inQuotedEscaped:
			state = inQuoted
		case after:
			switch c {
			case ',':
				state = before
			case '}':
				state = finished
			default:
				return Null, malformed("Expected comma or end of multirange.")
			}
		}
	}
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) {
		return Null, malformed("Junk after closing right brace.")
	}
	return MakeMultirange(k, rs)
}

// The operators over ranges and multiranges together, as PostgreSQL's
// multirangetypes.c computes them: each operand is a range or a
// multirange of the same range type, taken as its list of ranges (Ranges).

// MultirangeContainsElem is a @> v.
func MultirangeContainsElem(a, v Value) bool {
	for _, r := range a.Ranges() {
		if RangeContainsElem(r, v) {
			return true
		}
	}
	return false
}

// MultirangeContains is a @> b: each range of b within one of a.
func MultirangeContains(a, b Value) bool {
	ra := a.Ranges()
	for _, r := range b.Ranges() {
		if !slices.ContainsFunc(ra, func(x Value) bool { return RangeContains(x, r) }) {
			return false
		}
	}
	return true
}

// MultirangeOverlaps is a && b.
func MultirangeOverlaps(a, b Value) bool {
	rb := b.Ranges()
	for _, r := range a.Ranges() {
		if slices.ContainsFunc(rb, func(x Value) bool { return RangeOverlaps(r, x) }) {
			return true
		}
	}
	return false
}

// outerBounds returns the lower bound of v's first range and the upper
// bound of its last; ok is false when v is empty.
func outerBounds(v Value) (lower, upper RangeBound, ok bool) {
	rs := v.Ranges()
	if len(rs) == 0 {
		return lower, upper, false
	}
	lower, _ = rs[0].RangeBounds()
	_, upper = rs[len(rs)-1].RangeBounds()
	return lower, upper, true
}

// MultirangeBefore is a << b.
func MultirangeBefore(a, b Value) bool {
	_, ua, oka := outerBounds(a)
	lb, _, okb := outerBounds(b)
	return oka && okb && CmpRangeBounds(ua, lb) < 0
}

// MultirangeOverLeft is a &< b.
func MultirangeOverLeft(a, b Value) bool {
	_, ua, oka := outerBounds(a)
	_, ub, okb := outerBounds(b)
	return oka && okb && CmpRangeBounds(ua, ub) <= 0
}

// MultirangeOverRight is a &> b.
func MultirangeOverRight(a, b Value) bool {
	la, _, oka := outerBounds(a)
	lb, _, okb := outerBounds(b)
	return oka && okb && CmpRangeBounds(la, lb) >= 0
}

// MultirangeAdjacent is a -|- b: a ends where b starts, or b where a
// starts.
func MultirangeAdjacent(a, b Value) bool {
	la, ua, oka := outerBounds(a)
	lb, ub, okb := outerBounds(b)
	k := a.kind
	if k.IsMultirange() {
		k = k.MultirangeOf()
	}
	return oka && okb && (boundsAdjacent(k, ua, lb) || boundsAdjacent(k, ub, la))
}

// MultirangeUnion is a + b.
func MultirangeUnion(a, b Value) (Value, error) {
	return MakeMultirange(a.kind, append(slices.Clone(a.Ranges()), b.Ranges()...))
}

// MultirangeIntersect is a * b.
func MultirangeIntersect(a, b Value) (Value, error) {
	var out []Value
	for _, x := range a.Ranges() {
		for _, y := range b.Ranges() {
			r, err := RangeIntersect(x, y)
			if err != nil {
				return Null, err
			}
			out = append(out, r)
		}
	}
	return MakeMultirange(a.kind, out)
}

// MultirangeMinus is a - b: the parts of a's ranges outside every range
// of b.
func MultirangeMinus(a, b Value) (Value, error) {
	pieces := slices.Clone(a.Ranges())
	for _, y := range b.Ranges() {
		ly, uy := y.RangeBounds()
		var next []Value
		for _, x := range pieces {
			if !RangeOverlaps(x, y) {
				next = append(next, x)
				continue
			}
			lx, ux := x.RangeBounds()
			if CmpRangeBounds(lx, ly) < 0 {
				ly.Inc = !ly.Inc
				r, err := MakeRange(x.kind, lx, ly, false)
				ly.Inc = !ly.Inc
				if err != nil {
					return Null, err
				}
				next = append(next, r)
			}
			if CmpRangeBounds(ux, uy) > 0 {
				uy.Inc = !uy.Inc
				r, err := MakeRange(x.kind, uy, ux, false)
				uy.Inc = !uy.Inc
				if err != nil {
					return Null, err
				}
				next = append(next, r)
			}
		}
		pieces = next
	}
	return MakeMultirange(a.kind, pieces)
}
