package value

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Span is an interval's three fields, kept apart as PostgreSQL keeps them
// because a month and a day have no fixed length: '1 mon' added to January
// 31 and to February 28 moves by different numbers of days.
type Span struct {
	Months int32
	Days   int32
	Micros int64
}

// NewInterval returns an interval. The span is held behind a pointer, as a
// numeric's decimal is, so that a Value stays 24 bytes.
func NewInterval(s Span) Value {
	p := new(Span)
	*p = s
	return Value{kind: Interval, p: unsafe.Pointer(p)}
}

// Span returns an interval's fields; the zero Span for other kinds.
func (v Value) Span() Span {
	if v.kind != Interval || v.p == nil {
		return Span{}
	}
	return *(*Span)(v.p)
}

const (
	usecsPerMinute = 60 * usecsPerSec
	usecsPerHour   = 60 * usecsPerMinute
	daysPerMonth   = 30
	monthsPerYear  = 12
)

func errIntervalRange() error {
	return pgerr.New(pgerr.DatetimeOverflow, "interval out of range")
}

// spanKey splits an interval's length, with PostgreSQL's comparison
// convention of 30-day months and 24-hour days, into whole days and the
// microseconds left over (0 ≤ rem < one day). Ordering these pairs
// lexicographically orders the exact 128-bit lengths without overflow.
func spanKey(s Span) (days, rem int64) {
	days = int64(s.Months)*daysPerMonth + int64(s.Days) + floorDiv(s.Micros, usecsPerDay)
	rem = s.Micros - floorDiv(s.Micros, usecsPerDay)*usecsPerDay
	return days, rem
}

// cmpLength compares intervals by length, as PostgreSQL's interval_cmp
// does: '1 mon' = '30 days' and '1 day' = '24:00:00'. Grouping, DISTINCT,
// keys and joins take such intervals as one value, as PostgreSQL does; a
// Z-set still tells them apart by representation (zset.CompareRows), since
// they print differently.
func cmpLength(a, b Span) int {
	ad, ar := spanKey(a)
	bd, br := spanKey(b)
	if c := cmpInt(ad, bd); c != 0 {
		return c
	}
	return cmpInt(ar, br)
}

// Interval type modifiers, as PostgreSQL encodes them: the field range as
// a bit mask in the high 16 bits, the fractional-second precision in the
// low 16.
const (
	ivMonth  = 1 << 1
	ivYear   = 1 << 2
	ivDay    = 1 << 3
	ivHour   = 1 << 10
	ivMinute = 1 << 11
	ivSecond = 1 << 12

	ivFullRange     = 0x7FFF
	ivFullPrecision = 0xFFFF
	maxIntervalPrec = 6
)

// intervalMod builds an interval type modifier from a field range mask and
// a precision (ivFullPrecision for none).
func intervalMod(rng, prec int32) int32 { return rng<<16 | prec&0xFFFF }

func intervalRange(mod int32) int32 {
	if mod < 0 {
		return ivFullRange
	}
	return mod >> 16 & 0x7FFF
}

func intervalPrec(mod int32) int32 {
	if mod < 0 {
		return ivFullPrecision
	}
	return mod & 0xFFFF
}

// intervalRanges are the field ranges SQL allows after INTERVAL, with the
// words format_type prints for them.
var intervalRanges = map[int32]string{
	ivYear:                               "year",
	ivMonth:                              "month",
	ivDay:                                "day",
	ivHour:                               "hour",
	ivMinute:                             "minute",
	ivSecond:                             "second",
	ivYear | ivMonth:                     "year to month",
	ivDay | ivHour:                       "day to hour",
	ivDay | ivHour | ivMinute:            "day to minute",
	ivDay | ivHour | ivMinute | ivSecond: "day to second",
	ivHour | ivMinute:                    "hour to minute",
	ivHour | ivMinute | ivSecond:         "hour to second",
	ivMinute | ivSecond:                  "minute to second",
	ivFullRange:                          "",
}

// intervalType checks interval's modifiers as intervaltypmodin does: a
// range mask, then optionally a precision.
func intervalType(mods []int32) (Type, error) {
	switch len(mods) {
	case 0:
		return IntervalType, nil
	case 1, 2:
	default:
		return Type{}, pgerr.New(pgerr.InvalidParameter, "invalid INTERVAL type modifier")
	}
	if _, ok := intervalRanges[mods[0]]; !ok {
		return Type{}, pgerr.New(pgerr.InvalidParameter, "invalid INTERVAL type modifier")
	}
	prec := int32(ivFullPrecision)
	if len(mods) == 2 {
		prec = mods[1]
		if prec < 0 {
			return Type{}, pgerr.New(pgerr.InvalidParameter, "INTERVAL(%d) precision must not be negative", prec)
		}
		prec = min(prec, maxIntervalPrec)
	}
	if mods[0] == ivFullRange && prec == ivFullPrecision {
		return IntervalType, nil
	}
	return Type{Interval, intervalMod(mods[0], prec)}, nil
}

func intervalTypeString(mod int32) string {
	s := "interval"
	if w := intervalRanges[intervalRange(mod)]; w != "" {
		s += " " + w
	}
	if p := intervalPrec(mod); p != ivFullPrecision {
		s += "(" + strconv.Itoa(int(p)) + ")"
	}
	return s
}

// coerceInterval applies a modifier as AdjustIntervalForTypmod does: fields
// below the range's last are dropped, then the seconds are rounded to the
// precision, half away from zero.
func coerceInterval(v Value, mod int32) (Value, error) {
	s := v.Span()
	rng, prec := intervalRange(mod), intervalPrec(mod)
	switch rng {
	case ivYear:
		s.Months = s.Months / monthsPerYear * monthsPerYear
		s.Days, s.Micros = 0, 0
	case ivMonth, ivYear | ivMonth:
		s.Days, s.Micros = 0, 0
	case ivDay:
		s.Micros = 0
	case ivHour, ivDay | ivHour:
		s.Micros = s.Micros / usecsPerHour * usecsPerHour
	case ivMinute, ivHour | ivMinute, ivDay | ivHour | ivMinute:
		s.Micros = s.Micros / usecsPerMinute * usecsPerMinute
	}
	if prec != ivFullPrecision {
		if prec < 0 || prec > maxIntervalPrec {
			return Null, pgerr.New(pgerr.InvalidParameter, "interval(%d) precision must be between 0 and 6", prec)
		}
		scale := int64(math.Pow10(int(maxIntervalPrec - prec)))
		if s.Micros >= 0 {
			s.Micros = (s.Micros + scale/2) / scale * scale
		} else {
			s.Micros = -((-s.Micros + scale/2) / scale * scale)
		}
	}
	if s == v.Span() {
		return v, nil
	}
	return NewInterval(s), nil
}

// ScaleInterval is PostgreSQL's interval(interval, integer), the cast
// applying typmod (AdjustIntervalForTypmod): a modifier whose range is
// none SQL writes is an internal error there (XX000), as here.
func ScaleInterval(v Value, typmod int32) (Value, error) {
	if typmod < 0 {
		return v, nil
	}
	if _, ok := intervalRanges[intervalRange(typmod)]; !ok {
		return Null, pgerr.New(pgerr.Internal, "unrecognized interval typmod: %d", typmod)
	}
	return coerceInterval(v, typmod)
}

// appendInterval writes PostgreSQL's output in IntervalStyle postgres:
// "1 year 2 mons -3 days +04:05:06.5". Each nonzero field after a negative
// one carries an explicit sign; the time is written when nonzero or when
// every field is zero.
func appendInterval(buf []byte, s Span) []byte {
	zero, before := true, false
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if !zero {
			buf = append(buf, ' ')
		}
		if before && n > 0 {
			buf = append(buf, '+')
		}
		buf = strconv.AppendInt(buf, n, 10)
		buf = append(buf, ' ')
		buf = append(buf, unit...)
		if n != 1 {
			buf = append(buf, 's')
		}
		before, zero = n < 0, false
	}
	part(int64(s.Months/monthsPerYear), "year")
	part(int64(s.Months%monthsPerYear), "mon")
	part(int64(s.Days), "day")
	t := s.Micros
	if !zero && t == 0 {
		return buf
	}
	if !zero {
		buf = append(buf, ' ')
	}
	// Work on the magnitude in uint64: -MinInt64 does not fit int64.
	u := uint64(t)
	switch {
	case t < 0:
		buf = append(buf, '-')
		u = uint64(-t)
	case before:
		buf = append(buf, '+')
	}
	hours := u / uint64(usecsPerHour)
	u -= hours * uint64(usecsPerHour)
	mins := u / uint64(usecsPerMinute)
	u -= mins * uint64(usecsPerMinute)
	secs := u / uint64(usecsPerSec)
	frac := u - secs*uint64(usecsPerSec)
	buf = append2(buf, hours)
	buf = append(buf, ':')
	buf = append2(buf, mins)
	buf = append(buf, ':')
	buf = append2(buf, secs)
	if frac != 0 {
		var f [7]byte
		f[0] = '.'
		for i := 6; i >= 1; i-- {
			f[i] = byte('0' + frac%10)
			frac /= 10
		}
		n := 7
		for f[n-1] == '0' {
			n--
		}
		buf = append(buf, f[:n]...)
	}
	return buf
}

// append2 writes n with at least two digits.
func append2(buf []byte, n uint64) []byte {
	if n < 10 {
		buf = append(buf, '0')
	}
	return strconv.AppendUint(buf, n, 10)
}

// Interval arithmetic. Field sums and products overflow with 22008
// "interval out of range", as in PostgreSQL.

func addSpan(a, b Span) (Span, error) {
	m := int64(a.Months) + int64(b.Months)
	d := int64(a.Days) + int64(b.Days)
	us := a.Micros + b.Micros
	if m != int64(int32(m)) || d != int64(int32(d)) ||
		(a.Micros >= 0) == (b.Micros >= 0) && (us >= 0) != (a.Micros >= 0) {
		return Span{}, errIntervalRange()
	}
	return Span{int32(m), int32(d), us}, nil
}

func subSpan(a, b Span) (Span, error) {
	m := int64(a.Months) - int64(b.Months)
	d := int64(a.Days) - int64(b.Days)
	us := a.Micros - b.Micros
	if m != int64(int32(m)) || d != int64(int32(d)) ||
		(a.Micros >= 0) != (b.Micros >= 0) && (us >= 0) != (a.Micros >= 0) {
		return Span{}, errIntervalRange()
	}
	return Span{int32(m), int32(d), us}, nil
}

func negSpan(a Span) (Span, error) {
	if a.Months == math.MinInt32 || a.Days == math.MinInt32 || a.Micros == math.MinInt64 {
		return Span{}, errIntervalRange()
	}
	return Span{-a.Months, -a.Days, -a.Micros}, nil
}

// tsRound rounds to microsecond precision as PostgreSQL's TSROUND does, so
// that float noise does not leave a stray microsecond.
func tsRound(f float64) float64 { return math.RoundToEven(f*1e6) / 1e6 }

// mulSpan is interval_mul: whole months and days scale in place; their
// fractions cascade down into days and seconds (never up).
func mulSpan(a Span, f float64) (Span, error) {
	mr := float64(a.Months) * f
	if math.IsNaN(mr) || mr > math.MaxInt32 || mr < math.MinInt32 {
		return Span{}, errIntervalRange()
	}
	dr := float64(a.Days) * f
	if math.IsNaN(dr) || dr > math.MaxInt32 || dr < math.MinInt32 {
		return Span{}, errIntervalRange()
	}
	r := Span{Months: int32(mr), Days: int32(dr)}
	monthDays := tsRound((mr - float64(r.Months)) * daysPerMonth)
	secRem := tsRound((dr - float64(r.Days) + monthDays - math.Trunc(monthDays)) * 86400)
	return cascade(r, a, secRem, monthDays, float64(a.Micros)*f)
}

// divSpan is interval_div, the same cascade with a quotient.
func divSpan(a Span, f float64) (Span, error) {
	if f == 0 {
		return Span{}, errDivByZero()
	}
	mr := float64(a.Months) / f
	dr := float64(a.Days) / f
	if math.IsNaN(mr) || mr > math.MaxInt32 || mr < math.MinInt32 ||
		math.IsNaN(dr) || dr > math.MaxInt32 || dr < math.MinInt32 {
		return Span{}, errIntervalRange()
	}
	r := Span{Months: int32(mr), Days: int32(dr)}
	monthDays := tsRound((mr - float64(r.Months)) * daysPerMonth)
	secRem := tsRound((dr - float64(r.Days) + monthDays - math.Trunc(monthDays)) * 86400)
	return cascade(r, a, secRem, monthDays, float64(a.Micros)/f)
}

func cascade(r, a Span, secRem, monthDays, micros float64) (Span, error) {
	days := int64(r.Days)
	if math.Abs(secRem) >= 86400 {
		extra := math.Trunc(secRem / 86400)
		days += int64(extra)
		secRem -= extra * 86400
	}
	days += int64(monthDays)
	if days != int64(int32(days)) {
		return Span{}, errIntervalRange()
	}
	r.Days = int32(days)
	t := math.RoundToEven(micros + secRem*1e6)
	if math.IsNaN(t) || t < -9223372036854775808.0 || t >= 9223372036854775808.0 {
		return Span{}, errIntervalRange()
	}
	r.Micros = int64(t)
	return r, nil
}

// addSpanToTimestamp is timestamp_pl_interval: months first (clamping the
// day to the month's end: January 31 + 1 month is February's last day),
// then days on the calendar, then the microseconds. Infinities stay.
func addSpanToTimestamp(us int64, s Span) (int64, error) {
	if !tsIsFinite(us) {
		return us, nil
	}
	outOfRange := pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	days := floorDiv(us, usecsPerDay)
	tod := us - days*usecsPerDay
	if s.Months != 0 {
		y, m, d := civilFromDays(days)
		mm := m - 1 + int64(s.Months)
		y += floorDiv(mm, 12)
		m = mm - floorDiv(mm, 12)*12 + 1
		d = min(d, daysInMonth(y, m))
		days = daysFromCivil(y, m, d)
		if days < minDate-1 || days > endDate {
			return 0, outOfRange
		}
	}
	days += int64(s.Days)
	if days < minDate-1 || days > endDate {
		return 0, outOfRange
	}
	r := days*usecsPerDay + tod
	if !validTimestamp(r) {
		return 0, outOfRange
	}
	n := r + s.Micros
	if (s.Micros >= 0) != (n >= r) || !validTimestamp(n) {
		return 0, outOfRange
	}
	return n, nil
}

// tsDiff is timestamp_mi: the microseconds between two timestamps, with
// whole days moved out of the time (justify_hours).
func tsDiff(a, b int64) (Value, error) {
	if !tsIsFinite(a) || !tsIsFinite(b) {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "cannot subtract infinite timestamps")
	}
	return NewInterval(justifyHours(Span{Micros: a - b})), nil
}

func justifyHours(s Span) Span {
	d := s.Micros / usecsPerDay
	s.Micros -= d * usecsPerDay
	s.Days += int32(d)
	switch {
	case s.Days > 0 && s.Micros < 0:
		s.Micros += usecsPerDay
		s.Days--
	case s.Days < 0 && s.Micros > 0:
		s.Micros -= usecsPerDay
		s.Days++
	}
	return s
}

// JustifyHours moves whole 24-hour periods of an interval's time into its
// days, as justify_hours does.
func JustifyHours(v Value) (Value, error) {
	s := v.Span()
	d := int64(s.Days) + s.Micros/usecsPerDay
	if d != int64(int32(d)) {
		return Null, errIntervalRange()
	}
	return NewInterval(justifyHours(s)), nil
}

// JustifyDays moves whole 30-day periods of an interval's days into its
// months, as justify_days does.
func JustifyDays(v Value) (Value, error) {
	s := v.Span()
	m := int64(s.Months) + int64(s.Days/daysPerMonth)
	if m != int64(int32(m)) {
		return Null, errIntervalRange()
	}
	s.Months = int32(m)
	s.Days -= s.Days / daysPerMonth * daysPerMonth
	switch {
	case s.Months > 0 && s.Days < 0:
		s.Days += daysPerMonth
		s.Months--
	case s.Months < 0 && s.Days > 0:
		s.Days -= daysPerMonth
		s.Months++
	}
	return NewInterval(s), nil
}

// JustifyInterval is justify_interval: days into months, then the time into
// days, with the signs of all three fields made to agree.
func JustifyInterval(v Value) (Value, error) {
	s := v.Span()
	d := s.Micros / usecsPerDay
	days := int64(s.Days) + d
	s.Micros -= d * usecsPerDay
	m := int64(s.Months) + days/daysPerMonth
	days -= days / daysPerMonth * daysPerMonth
	if m != int64(int32(m)) {
		return Null, errIntervalRange()
	}
	s.Months, s.Days = int32(m), int32(days)
	switch {
	case s.Months > 0 && (s.Days < 0 || (s.Days == 0 && s.Micros < 0)):
		s.Days += daysPerMonth
		s.Months--
	case s.Months < 0 && (s.Days > 0 || (s.Days == 0 && s.Micros > 0)):
		s.Days -= daysPerMonth
		s.Months++
	}
	switch {
	case s.Days > 0 && s.Micros < 0:
		s.Micros += usecsPerDay
		s.Days--
	case s.Days < 0 && s.Micros > 0:
		s.Micros -= usecsPerDay
		s.Days++
	}
	return NewInterval(s), nil
}

// intervalArith handles the operators with an interval operand; ok is
// false when neither operand is one.
func intervalArith(op byte, a, b Value) (r Value, ok bool, err error) {
	switch {
	case a.kind == Interval && b.kind == Interval:
		var s Span
		switch op {
		case '+':
			s, err = addSpan(a.Span(), b.Span())
		case '-':
			s, err = subSpan(a.Span(), b.Span())
		default:
			return Null, true, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: interval %c interval", op)
		}
		if err != nil {
			return Null, true, err
		}
		return NewInterval(s), true, nil
	case b.kind == Interval && (a.kind.IsDateTime()):
		if op != '+' && op != '-' {
			return Null, true, errOperator(string(op), a, b)
		}
		s := b.Span()
		// An infinity stays itself whatever the interval (PostgreSQL
		// does not check the interval's negation first).
		if a.kind == Date && !dateIsFinite(a.n) {
			tv, err := convertDateTime(a, Timestamp)
			return tv, true, err
		}
		if (a.kind == Timestamp || a.kind == TimestampTZ) && !tsIsFinite(a.n) {
			return a, true, nil
		}
		if op == '-' {
			if s, err = negSpan(s); err != nil {
				return Null, true, err
			}
		}
		k := a.kind
		us := a.n
		if k == Date {
			k = Timestamp
			tv, err := convertDateTime(a, Timestamp)
			if err != nil {
				return Null, true, err
			}
			us = tv.n
		}
		n, err := addSpanToTimestamp(us, s)
		if err != nil {
			return Null, true, err
		}
		return NewTimestamp(k, n), true, nil
	case a.kind == Interval && b.kind.IsDateTime() && op == '+':
		r, _, err := intervalArith('+', b, a)
		return r, true, err
	case a.kind == Interval && b.kind == Float8 && (op == '*' || op == '/'):
		var s Span
		if op == '*' {
			s, err = mulSpan(a.Span(), b.Float())
		} else {
			s, err = divSpan(a.Span(), b.Float())
		}
		if err != nil {
			return Null, true, err
		}
		return NewInterval(s), true, nil
	case a.kind == Float8 && b.kind == Interval && op == '*':
		s, err := mulSpan(b.Span(), a.Float())
		if err != nil {
			return Null, true, err
		}
		return NewInterval(s), true, nil
	case a.kind == Interval || b.kind == Interval:
		return Null, true, errOperator(string(op), a, b)
	}
	return Null, false, nil
}

// IntervalLength returns an interval's length in microseconds, with
// 30-day months and 24-hour days, as a numeric (it can exceed 64 bits):
// two intervals have equal lengths exactly when SQL's = holds between
// them, so join keys on intervals compare through it.
func IntervalLength(v Value) Value {
	if v.kind != Interval {
		return Null
	}
	d, r := spanKey(v.Span())
	n := new(apd.Decimal)
	_, _ = DecimalContext.Mul(n, apd.New(d, 0), apd.New(usecsPerDay, 0))
	_, _ = DecimalContext.Add(n, n, apd.New(r, 0))
	return NewNumeric(n)
}
