package value

import (
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Fields of dates, timestamps and intervals: extract, date_part,
// date_trunc, age and make_date, after PostgreSQL's timestamp.c. Sessions
// run in UTC, so timestamptz splits into fields as timestamp does.

// unitNames maps the unit words PostgreSQL accepts to their canonical name.
var unitNames = map[string]string{}

func init() {
	for canon, words := range map[string][]string{
		"microseconds": {"microsecon", "us", "usec", "usecs", "usecond", "useconds"},
		"milliseconds": {"millisecon", "ms", "msec", "msecs", "msecond", "mseconds"},
		"second":       {"second", "seconds", "s", "sec", "secs"},
		"minute":       {"minute", "minutes", "m", "min", "mins"},
		"hour":         {"hour", "hours", "h", "hr", "hrs"},
		"day":          {"day", "days", "d"},
		"week":         {"week", "weeks", "w"},
		"month":        {"month", "months", "mon", "mons"},
		"quarter":      {"quarter", "qtr"},
		"year":         {"year", "years", "y", "yr", "yrs"},
		"decade":       {"decade", "decades", "dec", "decs"},
		"century":      {"century", "centuries", "c", "cent"},
		"millennium":   {"millennium", "millennia", "mil", "mils"},
		"epoch":        {"epoch"},
		"julian":       {"julian", "j", "jd"},
		"dow":          {"dow"},
		"isodow":       {"isodow"},
		"doy":          {"doy"},
		"isoyear":      {"isoyear"},
		"timezone":     {"timezone"},
		"timezone_h":   {"timezone_h"},
		"timezone_m":   {"timezone_m"},
	} {
		for _, w := range words {
			unitNames[w] = canon
		}
	}
}

// unit resolves a unit word; 22023 when PostgreSQL does not know it. Only
// the first 10 characters count, as in PostgreSQL ("microseconds" is
// "microsecon").
func unit(field string, k Kind) (string, error) {
	f := strings.ToLower(field)
	w := f
	if len(w) > 10 {
		w = w[:10]
	}
	if u, ok := unitNames[w]; ok {
		return u, nil
	}
	return "", pgerr.New(pgerr.InvalidParameter, "unit %q not recognized for type %s", f, k)
}

func errUnitNotSupported(field string, k Kind) *pgerr.Error {
	return pgerr.New(pgerr.FeatureNotSupported, "unit %q not supported for type %s", strings.ToLower(field), k)
}

// monotonic units grow with time: an infinite date or timestamp gives an
// infinite value for them, NULL for the others.
func monotonic(u string) bool {
	switch u {
	case "year", "decade", "century", "millennium", "julian", "isoyear", "epoch":
		return true
	}
	return false
}

// fieldResult is an extracted field: n scaled down by 10^scale.
type fieldResult struct {
	n     int64
	scale int32
	big   *apd.Decimal // when set, the exact result (julian, large epochs)
}

func (r fieldResult) numeric() Value {
	if r.big != nil {
		return NewNumeric(r.big)
	}
	return NewNumeric(apd.New(r.n, -r.scale))
}

// tsFields splits microseconds since 2000 into the calendar fields.
type tsFields struct {
	y, m, d, days int64 // astronomical year; days since 2000-01-01
	h, mi, s, us  int64 // us: microseconds within the second
}

func splitTimestamp(us int64) tsFields { return splitShifted(us, 0) }

// splitShifted splits us moved by off seconds, without overflowing at the
// ends of the range: PostgreSQL's timestamp2tm shifts +infinity's largest
// number of microseconds into a zone east of UTC too.
func splitShifted(us, off int64) tsFields {
	days := floorDiv(us, usecsPerDay)
	tod := us - days*usecsPerDay + off*usecsPerSec
	shift := floorDiv(tod, usecsPerDay)
	days, tod = days+shift, tod-shift*usecsPerDay
	y, m, d := civilFromDays(days)
	return tsFields{y: y, m: m, d: d, days: days,
		h: tod / usecsPerHour, mi: tod / usecsPerMinute % 60, s: tod / usecsPerSec % 60, us: tod % usecsPerSec}
}

func (f tsFields) isoWeek() (year, week int64) {
	y, w := time.Date(int(f.y), time.Month(f.m), int(f.d), 0, 0, 0, 0, time.UTC).ISOWeek()
	return int64(y), int64(w)
}

// julianOffset turns days since 2000-01-01 into Julian day numbers.
const julianOffset = 2451545

// unixEpochMicros is 1970-01-01 in microseconds since 2000-01-01.
const unixEpochMicros = -int64(unixToPG) * usecsPerDay

// dateField is one unit of a date or timestamp's fields; ok is false for
// the time units when date is true, and for units that do not apply.
func dateField(u string, f tsFields, date bool) (fieldResult, bool) {
	y := f.y
	switch u {
	case "day":
		return fieldResult{n: f.d}, true
	case "month":
		return fieldResult{n: f.m}, true
	case "quarter":
		return fieldResult{n: (f.m-1)/3 + 1}, true
	case "week":
		_, w := f.isoWeek()
		return fieldResult{n: w}, true
	case "year":
		if y <= 0 {
			y--
		}
		return fieldResult{n: y}, true
	case "decade":
		if y >= 0 {
			return fieldResult{n: y / 10}, true
		}
		return fieldResult{n: -((8 - (y - 1)) / 10)}, true
	case "century":
		if y > 0 {
			return fieldResult{n: (y + 99) / 100}, true
		}
		return fieldResult{n: -((99 - (y - 1)) / 100)}, true
	case "millennium":
		if y > 0 {
			return fieldResult{n: (y + 999) / 1000}, true
		}
		return fieldResult{n: -((999 - (y - 1)) / 1000)}, true
	case "isoyear":
		iy, _ := f.isoWeek()
		if iy <= 0 {
			iy--
		}
		return fieldResult{n: iy}, true
	case "dow", "isodow":
		dow := floorDiv(f.days+julianOffset+1, 7)
		dow = f.days + julianOffset + 1 - dow*7
		if u == "isodow" && dow == 0 {
			dow = 7
		}
		return fieldResult{n: dow}, true
	case "doy":
		return fieldResult{n: f.days - daysFromCivil(f.y, 1, 1) + 1}, true
	}
	if date {
		switch u {
		case "julian":
			return fieldResult{n: f.days + julianOffset}, true
		case "epoch":
			return fieldResult{n: (f.days - (-unixToPG)) * 86400}, true
		}
		return fieldResult{}, false
	}
	secUs := f.s*usecsPerSec + f.us
	switch u {
	case "microseconds":
		return fieldResult{n: secUs}, true
	case "milliseconds":
		return fieldResult{n: secUs, scale: 3}, true
	case "second":
		return fieldResult{n: secUs, scale: 6}, true
	case "minute":
		return fieldResult{n: f.mi}, true
	case "hour":
		return fieldResult{n: f.h}, true
	case "julian":
		// The day number plus the fraction of the day, with numeric
		// division's scale.
		tod := ((f.h*60+f.mi)*60)*usecsPerSec + secUs
		q, err := Div(NewNumeric(apd.New(tod, 0)), NewNumeric(apd.New(usecsPerDay, 0)))
		if err != nil {
			return fieldResult{}, false
		}
		sum, err := Add(NewNumeric(apd.New(f.days+julianOffset, 0)), q)
		if err != nil {
			return fieldResult{}, false
		}
		return fieldResult{big: sum.Decimal()}, true
	}
	return fieldResult{}, false
}

func infiniteField(u string, neg bool, k Kind, field string) (Value, error) {
	switch u {
	case "day", "month", "quarter", "week", "dow", "isodow", "doy",
		"microseconds", "milliseconds", "second", "minute", "hour":
		if k == Date && (u == "microseconds" || u == "milliseconds" || u == "second" || u == "minute" || u == "hour") {
			return Null, errUnitNotSupported(field, k)
		}
		return Null, nil
	}
	if monotonic(u) {
		if neg {
			return NewNumeric(decNegInf), nil
		}
		return NewNumeric(decPosInf), nil
	}
	return Null, errUnitNotSupported(field, k)
}

// Extract is extract(field FROM v) for a date, timestamp, timestamptz or
// interval: a numeric, as in PostgreSQL 14 and later.
func Extract(field string, v Value) (Value, error) {
	k := v.kind
	if k == Time || k == TimeTZ {
		return timeField(field, v, true)
	}
	u, err := unit(field, k)
	if err != nil {
		return Null, err
	}
	switch k {
	case Unknown:
		return Null, nil
	case Interval:
		r, ok := intervalField(u, v.Span())
		if !ok {
			return Null, errUnitNotSupported(field, k)
		}
		return r.numeric(), nil
	case Date:
		if !dateIsFinite(v.n) {
			return infiniteField(u, v.n == DateNegInfinity, k, field)
		}
		// The day itself, not its midnight's timestamp, which a date
		// past the timestamp range would overflow.
		y, m, d := civilFromDays(v.n)
		r, ok := dateField(u, tsFields{y: y, m: m, d: d, days: v.n}, true)
		if !ok {
			return Null, errUnitNotSupported(field, k)
		}
		return r.numeric(), nil
	case Timestamp, TimestampTZ:
		if !tsIsFinite(v.n) {
			return infiniteField(u, v.n == TimestampNegInfinity, k, field)
		}
		if u == "epoch" {
			// In numeric, as PostgreSQL: near the end of the range the
			// difference from 1970 overflows 64 bits.
			if v.n <= math.MaxInt64+unixEpochMicros {
				return NewNumeric(apd.New(v.n-unixEpochMicros, -6)), nil
			}
			// PostgreSQL then divides in numeric, whose quotient of
			// these magnitudes keeps 4 decimals, and rounds to 6.
			var d apd.Decimal
			ctx := apd.BaseContext.WithPrecision(40)
			ctx.Rounding = apd.RoundHalfUp
			ctx.Sub(&d, apd.New(v.n, -6), apd.New(unixEpochMicros, -6))
			ctx.Quantize(&d, &d, -4)
			ctx.Quantize(&d, &d, -6)
			return NewNumeric(&d), nil
		}
		if k == TimestampTZ && strings.HasPrefix(u, "timezone") {
			return NewNumeric(apd.New(0, 0)), nil
		}
		r, ok := dateField(u, splitTimestamp(v.n), false)
		if !ok {
			return Null, errUnitNotSupported(field, k)
		}
		return r.numeric(), nil
	}
	return Null, pgerr.New(pgerr.UndefinedFunction, "function extract(unknown, %s) does not exist", k)
}

// DatePart is date_part(field, v): the field as double precision, computed
// in floating point as PostgreSQL's date_part does. A date is taken as a
// timestamp at midnight.
func DatePart(field string, v Value) (Value, error) {
	if v.kind == Time || v.kind == TimeTZ {
		return timeField(field, v, false)
	}
	if v.kind == Date {
		ts, err := convertDateTime(v, Timestamp)
		if err != nil {
			return Null, err
		}
		v = ts
	}
	u, err := unit(field, v.kind)
	if err != nil {
		return Null, err
	}
	switch {
	case v.kind == Interval:
		s := v.Span()
		secUs := s.Micros % usecsPerMinute
		sec, us := secUs/usecsPerSec, secUs%usecsPerSec
		switch u {
		case "second":
			return NewFloat(Float8, float64(sec)+float64(us)/1e6), nil
		case "milliseconds":
			return NewFloat(Float8, float64(sec)*1000+float64(us)/1000), nil
		case "epoch":
			f := float64(s.Micros) / 1e6
			f += 365.25 * 86400 * float64(s.Months/monthsPerYear)
			f += 30.0 * 86400 * float64(s.Months%monthsPerYear)
			f += 86400.0 * float64(s.Days)
			return NewFloat(Float8, f), nil
		}
	case tsIsFinite(v.n) && (v.kind == Timestamp || v.kind == TimestampTZ):
		f := splitTimestamp(v.n)
		switch u {
		case "second":
			return NewFloat(Float8, float64(f.s)+float64(f.us)/1e6), nil
		case "milliseconds":
			return NewFloat(Float8, float64(f.s)*1000+float64(f.us)/1000), nil
		case "epoch":
			return NewFloat(Float8, float64(v.n-unixEpochMicros)/1e6), nil
		case "julian":
			j := float64(f.days + julianOffset)
			j += (float64((f.h*60+f.mi)*60+f.s) + float64(f.us)/1e6) / 86400
			return NewFloat(Float8, j), nil
		}
	}
	n, err := Extract(field, v)
	if err != nil || n.IsNull() {
		return n, err
	}
	return convertNumber(n, Float8)
}

// intervalField is one unit of an interval's fields.
func intervalField(u string, s Span) (fieldResult, bool) {
	year, mon := int64(s.Months/monthsPerYear), int64(s.Months%monthsPerYear)
	t := s.Micros
	secUs := t % usecsPerMinute
	switch u {
	case "microseconds":
		return fieldResult{n: secUs}, true
	case "milliseconds":
		return fieldResult{n: secUs, scale: 3}, true
	case "second":
		return fieldResult{n: secUs, scale: 6}, true
	case "minute":
		return fieldResult{n: t / usecsPerMinute % 60}, true
	case "hour":
		return fieldResult{n: t / usecsPerHour}, true
	case "day":
		return fieldResult{n: int64(s.Days)}, true
	case "month":
		return fieldResult{n: mon}, true
	case "quarter":
		return fieldResult{n: mon/3 + 1}, true
	case "year":
		return fieldResult{n: year}, true
	case "decade":
		return fieldResult{n: year / 10}, true
	case "century":
		return fieldResult{n: year / 100}, true
	case "millennium":
		return fieldResult{n: year / 1000}, true
	case "epoch":
		// 365.25-day years and 30-day months, computed exactly: four
		// times the days, a quarter of the seconds per day.
		secs := (1461*year + 120*mon + 4*int64(s.Days)) * (86400 / 4)
		d := new(apd.Decimal)
		_, _ = DecimalContext.Mul(d, apd.New(secs, 0), apd.New(1000000, 0))
		_, _ = DecimalContext.Add(d, d, apd.New(t, 0))
		d.Exponent -= 6
		return fieldResult{big: d}, true
	}
	return fieldResult{}, false
}

// DateTrunc is date_trunc(field, v) for a timestamp, timestamptz or
// interval: v with every field below field zeroed (days and months to
// their first). Infinities are returned unchanged.
func DateTrunc(field string, v Value) (Value, error) {
	u, err := unit(field, v.kind)
	if err != nil {
		return Null, err
	}
	switch u {
	case "dow", "isodow", "doy", "epoch", "julian", "isoyear":
		// Words of a date, not units of time: date_trunc does not know them.
		return Null, pgerr.New(pgerr.InvalidParameter, "unit %q not recognized for type %s", strings.ToLower(field), v.kind)
	}
	if v.kind == Interval {
		return intervalTrunc(u, field, v)
	}
	if !tsIsFinite(v.n) {
		return v, nil
	}
	f := splitTimestamp(v.n)
	y, m, d := f.y, f.m, f.d
	h, mi, s, us := f.h, f.mi, f.s, f.us
	switch u {
	case "week":
		dow := f.days + julianOffset + 1 - floorDiv(f.days+julianOffset+1, 7)*7
		days := f.days - (dow+6)%7
		return NewTimestamp(v.kind, days*usecsPerDay), nil
	case "millennium":
		if y > 0 {
			y = (y+999)/1000*1000 - 999
		} else {
			y = -((999-(y-1))/1000)*1000 + 1
		}
		m, d = 1, 1
	case "century":
		if y > 0 {
			y = (y+99)/100*100 - 99
		} else {
			y = -((99-(y-1))/100)*100 + 1
		}
		m, d = 1, 1
	case "decade":
		if y > 0 {
			y = y / 10 * 10
		} else {
			y = -((8 - (y - 1)) / 10) * 10
		}
		m, d = 1, 1
	case "year":
		m, d = 1, 1
	case "quarter":
		m, d = 3*((m-1)/3)+1, 1
	case "month":
		d = 1
	case "day", "hour", "minute", "second", "milliseconds", "microseconds":
	default:
		return Null, errUnitNotSupported(field, v.kind)
	}
	switch u {
	case "millennium", "century", "decade", "year", "quarter", "month", "day":
		h, mi, s, us = 0, 0, 0, 0
	case "hour":
		mi, s, us = 0, 0, 0
	case "minute":
		s, us = 0, 0
	case "second":
		us = 0
	case "milliseconds":
		us = us / 1000 * 1000
	}
	days := daysFromCivil(y, m, d)
	r := days*usecsPerDay + ((h*60+mi)*60+s)*usecsPerSec + us
	if !validTimestamp(r) {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	}
	return NewTimestamp(v.kind, r), nil
}

func intervalTrunc(u, field string, v Value) (Value, error) {
	s := v.Span()
	year, mon := int64(s.Months/monthsPerYear), int64(s.Months%monthsPerYear)
	day := int64(s.Days)
	t := s.Micros
	h, mi, sec, us := t/usecsPerHour, t/usecsPerMinute%60, t/usecsPerSec%60, t%usecsPerSec
	switch u {
	case "millennium":
		year = year / 1000 * 1000
		mon, day, h, mi, sec, us = 0, 0, 0, 0, 0, 0
	case "century":
		year = year / 100 * 100
		mon, day, h, mi, sec, us = 0, 0, 0, 0, 0, 0
	case "decade":
		year = year / 10 * 10
		mon, day, h, mi, sec, us = 0, 0, 0, 0, 0, 0
	case "year":
		mon, day, h, mi, sec, us = 0, 0, 0, 0, 0, 0
	case "quarter":
		mon = 3 * (mon / 3)
		day, h, mi, sec, us = 0, 0, 0, 0, 0
	case "month":
		day, h, mi, sec, us = 0, 0, 0, 0, 0
	case "day":
		h, mi, sec, us = 0, 0, 0, 0
	case "hour":
		mi, sec, us = 0, 0, 0
	case "minute":
		sec, us = 0, 0
	case "second":
		us = 0
	case "milliseconds":
		us = us / 1000 * 1000
	case "microseconds":
	default:
		if u == "week" {
			e := errUnitNotSupported(field, Interval)
			e.Detail = "Months usually have fractional weeks."
			return Null, e
		}
		return Null, errUnitNotSupported(field, Interval)
	}
	return NewInterval(Span{Months: int32(year*12 + mon), Days: int32(day),
		Micros: ((h*60+mi)*60+sec)*usecsPerSec + us}), nil
}

// Age is age(a, b): the difference as years, months and days on the
// calendar ("1 year 2 mons 3 days"), borrowing from the next larger field
// as PostgreSQL's timestamp_age does.
func Age(a, b Value) (Value, error) {
	// PostgreSQL splits +infinity into fields as the largest number of
	// microseconds it is (294277-01-09 04:00:54.775807); -infinity's
	// fields are out of its range.
	if a.n == TimestampNegInfinity || b.n == TimestampNegInfinity {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	}
	return ageOfFields(splitTimestamp(a.n), splitTimestamp(b.n), a.n < b.n)
}

// ageOfFields is the calendar difference of f1 and f2; neg says the first
// instant is the earlier one.
func ageOfFields(f1, f2 tsFields, neg bool) (Value, error) {
	us := f1.us - f2.us
	sec, mi, h := f1.s-f2.s, f1.mi-f2.mi, f1.h-f2.h
	d, m, y := f1.d-f2.d, f1.m-f2.m, f1.y-f2.y
	if neg {
		us, sec, mi, h, d, m, y = -us, -sec, -mi, -h, -d, -m, -y
	}
	for us < 0 {
		us += usecsPerSec
		sec--
	}
	for sec < 0 {
		sec += 60
		mi--
	}
	for mi < 0 {
		mi += 60
		h--
	}
	for h < 0 {
		h += 24
		d--
	}
	for d < 0 {
		if neg {
			d += daysInMonth(f1.y, f1.m)
		} else {
			d += daysInMonth(f2.y, f2.m)
		}
		m--
	}
	for m < 0 {
		m += 12
		y--
	}
	if neg {
		us, sec, mi, h, d, m, y = -us, -sec, -mi, -h, -d, -m, -y
	}
	months := y*12 + m
	if months != int64(int32(months)) {
		return Null, errIntervalRange()
	}
	return NewInterval(Span{Months: int32(months), Days: int32(d),
		Micros: ((h*60+mi)*60+sec)*usecsPerSec + us}), nil
}

// MakeDate is make_date(year, month, day); a negative year is BC.
func MakeDate(y, m, d int64) (Value, error) {
	bad := func() (Value, error) {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "date field value out of range: %d-%02d-%02d", y, m, d)
	}
	ay := y
	if y < 0 {
		ay = y + 1 // 1 BC is year 0
	}
	if y == 0 || m < 1 || m > 12 || d < 1 || d > daysInMonth(ay, m) {
		return bad()
	}
	days := daysFromCivil(ay, m, d)
	if !validDate(days) {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "date out of range: %d-%02d-%02d", y, m, d)
	}
	return NewDate(days), nil
}
