package value

import (
	"math"
	"math/bits"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// Compare orders two values: -1, 0 or +1. Values of the same kind are
// ordered as PostgreSQL's default btree operator class orders them; NULL
// sorts after every non-NULL value (ASC NULLS LAST) and equals NULL.
// Values of different kinds, which callers avoid by casting first, are
// ordered by kind so that Compare stays a total order.
func Compare(a, b Value) int {
	if a.kind != b.kind {
		switch {
		case a.kind == Unknown:
			return 1
		case b.kind == Unknown:
			return -1
		case a.kind < b.kind:
			return -1
		}
		return 1
	}
	switch a.kind {
	case Unknown:
		return 0
	case Bool, Int2, Int4, Int8, Date, Timestamp, TimestampTZ:
		return cmpInt(a.n, b.n)
	case Time, TimeTZ, Money:
		return cmpInt(a.n, b.n)
	case Oid, RegClass, RegType, RegProc, RegProcedure, RegNamespace, RegRole, RegOper, RegOperator, RegCollation, RegConfig, Tid, Xid, Cid, PgLSN, InternalChar, Xid8:
		return cmpInt(a.n, b.n)
	case Float4, Float8:
		return cmpFloat(a.Float(), b.Float())
	case Numeric:
		if c, ok := cmpSmallNumeric(a, b); ok {
			return c
		}
		var x, y apd.Decimal
		return cmpNumeric(a.DecimalInto(&x), b.DecimalInto(&y))
	case Interval:
		return cmpLength(a.Span(), b.Span())
	case JSON, JSONB:
		return compareJSONValues(a, b)
	case JSONPath:
		return strings.Compare(a.JSONPathOf().text, b.JSONPathOf().text)
	case Char:
		if id := collationOf(a, b); id != 0 {
			return compareCollated(id, trimSpaces(a.Str()), trimSpaces(b.Str()))
		}
		return strings.Compare(trimSpaces(a.Str()), trimSpaces(b.Str()))
	case Text, Varchar:
		if id := collationOf(a, b); id != 0 {
			return compareCollated(id, a.Str(), b.Str())
		}
	case TSVector:
		return strings.Compare(a.textSearchBytes(), b.textSearchBytes())
	case TSQuery:
		return strings.Compare(a.TSQuery().OrderKey(), b.TSQuery().OrderKey())
	case Int4Range, Int8Range, NumRange, DateRange, TSRange, TSTZRange, UserRange:
		return compareRanges(a, b)
	case Int4Multirange, Int8Multirange, NumMultirange, DateMultirange, TSMultirange, TSTZMultirange, UserMultirange:
		return compareMultiranges(a, b)
	case Enum:
		return compareEnums(a, b)
	case HStore:
		return compareHStores(a, b)
	case CIText:
		return compareCIText(a.Str(), b.Str())
	}
	if a.kind == OidVector && b.kind == OidVector && a.n != b.n {
		return cmpInt(a.n, b.n) // oidvectorcmp: the shorter first
	}
	if a.kind.IsArray() {
		return compareArrays(a, b)
	}
	if a.kind == Record {
		return compareRecords(a, b)
	}
	return strings.Compare(a.Str(), b.Str())
}

// CompareRows orders rows lexicographically by Compare; a shorter row that
// is a prefix of a longer one sorts first.
func CompareRows(a, b Row) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if c := Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(a)), int64(len(b)))
}

// CompareRowsExact is CompareRows, then, among rows CompareRows holds
// equal, the order of their representations (CompareRepr): 0 only for rows
// that print alike. It is the order of Z-set rows.
func CompareRowsExact(a, b Row) int {
	if c := CompareRows(a, b); c != 0 {
		return c
	}
	return CompareReprs(a, b)
}

// CompareReprs orders two rows that CompareRows holds equal by their
// values' representations (CompareRepr), cheaper than CompareRowsExact
// for rows known equal.
func CompareReprs(a, b Row) int {
	for i := range min(len(a), len(b)) {
		if c := CompareRepr(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// HasReprs reports whether values of kind k that Compare holds equal may
// print differently, which CompareRepr tells apart.
func HasReprs(k Kind) bool {
	switch {
	case k == Float4, k == Float8, k == Numeric, k == Interval, k == TSQuery, k == Record,
		k == NumRange, k == NumMultirange, k == UserRange, k == UserMultirange, k == CIText:
		return true // a user range's subtype may have several (floats, numeric)
	case k == Text, k == Varchar, k == Char:
		return nondeterministicKnown.Load() // 'abc' and 'ABC' under a case-insensitive one
	case k.IsArray():
		return HasReprs(k.Elem())
	}
	return false
}

// CompareRepr orders two values that Compare holds equal by their
// representation, 0 when they print alike: -0 before 0, 1.5 before 1.50,
// '1 mon' before '30 days' before '720:00:00' (the more months, then the
// more days, first), tsqueries by their marks, numeric ranges by their
// bounds; arrays and records element by element. Among the
// rows of a group or a DISTINCT of several representations, the first in
// this order is the one shown.
func CompareRepr(a, b Value) int {
	switch a.kind {
	case Float4, Float8:
		return cmpInt(boolInt(!math.Signbit(a.Float())), boolInt(!math.Signbit(b.Float())))
	case Numeric:
		if a.p == nil && b.p == nil { // inline: the scale is the exponent's negation
			return cmpInt(int64(a.sc), int64(b.sc))
		}
		var x, y apd.Decimal
		return cmpInt(int64(b.DecimalInto(&y).Exponent), int64(a.DecimalInto(&x).Exponent))
	case Interval:
		x, y := a.Span(), b.Span()
		if c := cmpInt(int64(y.Months), int64(x.Months)); c != 0 {
			return c
		}
		return cmpInt(int64(y.Days), int64(x.Days))
	case TSQuery: // weights and prefix marks, which the order leaves out
		return strings.Compare(string(a.TSQuery()), string(b.TSQuery()))
	case CIText: // the letters' case, which the order leaves out
		return strings.Compare(a.Str(), b.Str())
	case Text, Varchar, Char: // what a nondeterministic collation leaves out
		if a.Nondeterministic() || b.Nondeterministic() {
			return strings.Compare(a.Str(), b.Str())
		}
	case Record:
		return CompareReprs(a.Fields(), b.Fields())
	case NumRange, UserRange:
		return compareRangeReprs(a, b)
	case NumMultirange, UserMultirange:
		x, y := a.Ranges(), b.Ranges()
		for i := range min(len(x), len(y)) {
			if c := compareRangeReprs(x[i], y[i]); c != 0 {
				return c
			}
		}
		return 0
	}
	if a.kind.IsArray() && HasReprs(a.kind.Elem()) {
		return CompareReprs(a.Elems(), b.Elems())
	}
	return 0
}

// Equal reports whether Compare(a, b) == 0. NULL equals NULL here: this is
// the equality of grouping, DISTINCT and consolidation, not SQL's '='.
func Equal(a, b Value) bool { return Compare(a, b) == 0 }

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpFloat orders floats as PostgreSQL does: NaN above everything, equal to
// itself; -0 equals 0.
func cmpFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// numRank places NaN and the infinities around the finite numerics:
// -Infinity < finite < Infinity < NaN, as PostgreSQL orders them.
func numRank(d *apd.Decimal) int {
	switch d.Form {
	case apd.Finite:
		return 0
	case apd.Infinite:
		if d.Negative {
			return -1
		}
		return 1
	}
	return 2
}

// cmpNumeric compares numerics by value (1.5 equals 1.50).
func cmpNumeric(a, b *apd.Decimal) int {
	if a == nil || b == nil {
		return cmpInt(boolInt(a != nil), boolInt(b != nil))
	}
	ra, rb := numRank(a), numRank(b)
	if ra != 0 || rb != 0 {
		return cmpInt(int64(ra), int64(rb))
	}
	sa, sb := a.Sign(), b.Sign()
	if sa != sb {
		return cmpInt(int64(sa), int64(sb))
	}
	if sa == 0 {
		return 0
	}
	c := cmpAbs(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

// cmpAbs compares the magnitudes of two nonzero finite numerics, without
// allocating when both coefficients fit 64 bits.
func cmpAbs(a, b *apd.Decimal) int {
	if a.Exponent == b.Exponent {
		return a.Coeff.CmpAbs(&b.Coeff)
	}
	// Different adjusted exponents decide at once.
	ea := a.NumDigits() + int64(a.Exponent)
	eb := b.NumDigits() + int64(b.Exponent)
	if ea != eb {
		return cmpInt(ea, eb)
	}
	if a.Coeff.IsUint64() && b.Coeff.IsUint64() {
		ca, cb := a.Coeff.Uint64(), b.Coeff.Uint64()
		// Scale the coefficient with the larger exponent; the shift is at
		// most 19 digits because both have the same adjusted exponent and
		// at most 20 digits.
		d := int64(a.Exponent) - int64(b.Exponent)
		swap := d < 0
		if swap {
			ca, cb, d = cb, ca, -d
		}
		if d < int64(len(pow10Small)) {
			hi, lo := bits.Mul64(ca, pow10Small[d])
			c := 0
			switch {
			case hi != 0 || lo > cb:
				c = 1
			case lo < cb:
				c = -1
			}
			if swap {
				c = -c
			}
			return c
		}
	}
	var x, y apd.Decimal
	x.Abs(a)
	y.Abs(b)
	return x.Cmp(&y)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// trimSpaces drops the trailing spaces that char(n) pads with and ignores
// in comparisons.
func trimSpaces(s string) string {
	i := len(s)
	for i > 0 && s[i-1] == ' ' {
		i--
	}
	return s[:i]
}

// Prefix returns a coarse key of v that orders as Compare does: when
// Compare(a, b) < 0, Prefix(a) ≤ Prefix(b), comparing the class first,
// then the bits; equal prefixes say nothing, unless exact, which equal
// prefixes of a kind have or lack together. Sorting many rows by their
// first values' prefixes, kept beside them, spares most comparisons the
// reads of rows scattered in memory.
func Prefix(v Value) (class uint8, bits uint64, exact bool) {
	switch v.kind {
	case Unknown:
		return math.MaxUint8, 0, true // NULL sorts after every kind
	case Bool, Int2, Int4, Int8, Date, Timestamp, TimestampTZ:
		return uint8(v.kind), uint64(v.n) ^ 1<<63, true
	case Time, TimeTZ:
		return uint8(v.kind), uint64(v.n) ^ 1<<63, true
	case Text, Varchar:
		// The first eight bytes, big-endian: a shorter string is padded
		// with zeros, so "ab" and "ab\x00" tie, and Compare decides.
		s := v.Str()
		var b uint64
		for i := range 8 {
			b <<= 8
			if i < len(s) {
				b |= uint64(s[i])
			}
		}
		return uint8(v.kind), b, false
	}
	return uint8(v.kind), 0, false
}

// compareRangeReprs orders two equal numeric (or user) ranges by their bounds'
// representations, lower first.
func compareRangeReprs(a, b Value) int {
	if a.IsEmptyRange() {
		return 0
	}
	al, au := a.RangeBounds()
	bl, bu := b.RangeBounds()
	if c := CompareRepr(al.Val, bl.Val); c != 0 {
		return c
	}
	return CompareRepr(au.Val, bu.Val)
}
