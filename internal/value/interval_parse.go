package value

import (
	"math"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Interval input, after PostgreSQL's DecodeInterval and DecodeISO8601Interval:
//
//	'1 year 2 mons 3 days 04:05:06.5'  number-unit pairs and a time
//	'@ 1 hour ago'                     the old verbose style; ago negates
//	'1-2', '3 4:05:06'                 SQL's year-month and day-time
//	'90' with a field range (day)      a bare number counts in the range's
//	                                   last field, seconds otherwise
//	'P1Y2M3DT4H5M6S'                   ISO 8601 with designators
//
// Fractions cascade down (1.5 months is 1 month 15 days). A field that
// overflows is 22015, bad syntax 22007.

// ivAcc accumulates the fields of an interval being parsed.
type ivAcc struct {
	years        int64 // kept apart: their overflow into months is 22008
	months, days int64
	micros       int64
	bad          bool   // overflow
	seen         uint16 // the units already given, each allowed once
}

// Unit bits for ivAcc.seen.
const (
	seenYear = 1 << iota
	seenMonth
	seenDay
	seenHour
	seenMinute
	seenSecond
	seenMilli
	seenMicro
	seenWeek
	seenDecade
	seenCentury
	seenMillennium
)

// once records a unit; false when it was already given.
func (a *ivAcc) once(bits uint16) bool {
	if a.seen&bits != 0 {
		return false
	}
	a.seen |= bits
	return true
}

func (a *ivAcc) addYears(n int64, frac float64, perYear int64) {
	a.years += n * (perYear / 12)
	if a.years != int64(int32(a.years)) {
		a.bad = true
	}
	a.addMonths(int64(math.RoundToEven(frac * float64(perYear))))
}

func (a *ivAcc) addMonths(n int64) {
	a.months += n
	if a.months != int64(int32(a.months)) {
		a.bad = true
	}
}

func (a *ivAcc) addDays(n int64) {
	a.days += n
	if a.days != int64(int32(a.days)) {
		a.bad = true
	}
}

func (a *ivAcc) addMicros(n int64, scale int64) {
	if n != 0 && (n > math.MaxInt64/scale || n < math.MinInt64/scale) {
		a.bad = true
		return
	}
	a.addUsec(n * scale)
}

func (a *ivAcc) addUsec(u int64) {
	r := a.micros + u
	if (u >= 0) != (r >= a.micros) {
		a.bad = true
	}
	a.micros = r
}

// fracMicros adds frac (|frac| < 1) of scale microseconds, rounded.
func (a *ivAcc) fracMicros(frac float64, scale int64) {
	if frac == 0 {
		return
	}
	f := frac * float64(scale)
	u := int64(f)
	u += int64(math.RoundToEven(f - float64(u)))
	a.addUsec(u)
}

func (a *ivAcc) fracDays(frac float64, scale int64) {
	if frac == 0 {
		return
	}
	f := frac * float64(scale)
	d := int64(f)
	a.addDays(d)
	a.fracMicros(f-float64(d), usecsPerDay)
}

// add adds val + frac units of unit.
func (a *ivAcc) add(unit string, val int64, frac float64) bool {
	var bit uint16
	switch unit {
	case "microsecond", "microseconds", "us", "usec", "usecs", "microsecon":
		bit = seenMicro
	case "millisecond", "milliseconds", "ms", "msec", "msecs", "millisecon":
		bit = seenMilli
	case "second", "seconds", "s", "sec", "secs":
		bit = seenSecond
	case "minute", "minutes", "m", "min", "mins":
		bit = seenMinute
	case "hour", "hours", "h", "hr", "hrs":
		bit = seenHour
	case "day", "days", "d":
		bit = seenDay
	case "week", "weeks", "w":
		bit = seenWeek
	case "month", "months", "mon", "mons":
		bit = seenMonth
	case "year", "years", "y", "yr", "yrs":
		bit = seenYear
	case "decade", "decades", "dec", "decs":
		bit = seenDecade
	case "century", "centuries", "c", "cent":
		bit = seenCentury
	case "millennium", "millennia", "mil", "mils":
		bit = seenMillennium
	}
	if bit == 0 || !a.once(bit) {
		return false
	}
	switch bit {
	case seenMicro:
		a.addUsec(val)
		a.addUsec(int64(math.RoundToEven(frac)))
	case seenMilli:
		a.addMicros(val, 1000)
		a.fracMicros(frac, 1000)
	case seenSecond:
		a.addMicros(val, usecsPerSec)
		a.fracMicros(frac, usecsPerSec)
	case seenMinute:
		a.addMicros(val, usecsPerMinute)
		a.fracMicros(frac, usecsPerMinute)
	case seenHour:
		a.addMicros(val, usecsPerHour)
		a.fracMicros(frac, usecsPerHour)
	case seenDay:
		a.addDays(val)
		a.fracMicros(frac, usecsPerDay)
	case seenWeek:
		a.addDays(val * 7)
		a.fracDays(frac, 7)
	case seenMonth:
		a.addMonths(val)
		a.fracDays(frac, daysPerMonth)
	case seenYear:
		a.addYears(val, frac, 12)
	case seenDecade:
		a.addYears(val, frac, 120)
	case seenCentury:
		a.addYears(val, frac, 1200)
	case seenMillennium:
		a.addYears(val, frac, 12000)
	default:
		return false
	}
	return true
}

// splitNumber reads a signed decimal into its integer part, which must fit
// int32 as in PostgreSQL, and its fraction with the same sign.
func splitNumber(s string) (val int64, frac float64, ok, overflow bool) {
	if s == "" {
		return 0, 0, false, false
	}
	neg := false
	body := s
	if body[0] == '+' || body[0] == '-' {
		neg = body[0] == '-'
		body = body[1:]
	}
	ip, fp, hasDot := strings.Cut(body, ".")
	if ip == "" && (!hasDot || fp == "") {
		return 0, 0, false, false
	}
	for _, part := range []string{ip, fp} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, 0, false, false
			}
		}
	}
	if ip != "" {
		n, err := strconv.ParseInt(ip, 10, 64)
		if err != nil {
			return 0, 0, true, true
		}
		val = n
	}
	if hasDot && fp != "" {
		f, _ := strconv.ParseFloat("0."+fp, 64)
		frac = f
	}
	if neg {
		val, frac = -val, -frac
	}
	return val, frac, true, false
}

// ivToken is one field of the input: a number (with its unit when written
// next to it), a time, or a word.
type ivToken struct {
	text string
	kind byte // 'n' number, 't' time h:m[:s], 'y' year-month, 'w' word
}

func tokenizeInterval(s string) ([]ivToken, bool) {
	var toks []ivToken
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isSpace(c) || c == ',':
			i++
		case strings.IndexByte("!\"#$%&'()*/:;<=>?@[\\]^_`{|}~", c) >= 0:
			// Punctuation before a field separates fields, as in
			// PostgreSQL's ParseDateTime: '"1 day"' is '1 day'.
			i++
		case c >= 'a' && c <= 'z':
			j := i
			for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
				j++
			}
			toks = append(toks, ivToken{s[i:j], 'w'})
			i = j
		case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
			j := i + 1
			kind := byte('n')
			for j < len(s) {
				d := s[j]
				switch {
				case d >= '0' && d <= '9' || d == '.':
				case d == ':':
					kind = 't'
				case d == '-' && kind == 'n':
					kind = 'y'
				case d == '-':
					return nil, false // a date, not an interval
				default:
					goto done
				}
				j++
			}
		done:
			toks = append(toks, ivToken{s[i:j], kind})
			i = j
		default:
			return nil, false
		}
	}
	return toks, true
}

// rangeUnit is the unit of a bare number under a field range: its last
// field, seconds without one.
func rangeUnit(rng int32) string {
	switch rng {
	case ivYear:
		return "year"
	case ivMonth, ivYear | ivMonth:
		return "month"
	case ivDay:
		return "day"
	case ivHour, ivDay | ivHour:
		return "hour"
	case ivMinute, ivHour | ivMinute, ivDay | ivHour | ivMinute:
		return "minute"
	}
	return "second"
}

// ParseIntervalIn reads an interval of type t as PostgreSQL does under
// IntervalStyle of st: as Parse, except that under sql_standard a leading
// minus sign applies to every field when no other field has a sign
// ('-1 2:03:04' is -1 days -02:03:04).
// An array of intervals, a row type and an array of them read their
// intervals so. Any other type reads as Parse reads it.
func ParseIntervalIn(s string, t Type, st TextStyle) (Value, error) {
	if st.Interval() == IntervalSQLStandard && (t.Kind == ArrayOf(Interval) || t.Kind == ArrayOf(Record)) {
		return parseArrayIn(s, t.ElemTypeMod(), st)
	}
	if st.Interval() == IntervalSQLStandard && t.Kind == Record && !t.IsAnonymousRecord() {
		return ParseRecordIn(s, t, st)
	}
	if st.Interval() != IntervalSQLStandard || t.Kind != Interval || !leadingSignOnly(s) {
		return Parse(s, t)
	}
	v, err := parseIntervalSigned(s, t.Mod, true)
	if err != nil {
		return Null, err
	}
	return Coerce(v, t, false)
}

// IntervalInputStyled reports whether IntervalStyle changes how s reads as
// an interval: PostgreSQL's format whose first field has a minus sign and
// no other field a sign, with other fields ('-1 day' reads the same).
func IntervalInputStyled(s string) bool { return leadingSignOnly(s) }

func leadingSignOnly(s string) bool {
	toks, ok := tokenizeInterval(strings.ToLower(trimSpace(s)))
	if !ok || len(toks) == 0 || toks[0].text[0] != '-' {
		return false
	}
	others := false // a field the sign changes: not the first alone
	for _, t := range toks[1:] {
		if t.text[0] == '-' || t.text[0] == '+' {
			return false
		}
		others = others || t.kind != 'w'
	}
	return others
}

// parseInterval reads an interval; mod's field range decides the unit of a
// bare number.
func parseInterval(in string, mod int32) (Value, error) {
	return parseIntervalSigned(in, mod, false)
}

// parseIntervalSigned is parseInterval; with leadingSign (sql_standard
// input of leadingSignOnly text) every field is read as negative, as
// PostgreSQL's DecodeInterval forces them.
func parseIntervalSigned(in string, mod int32, leadingSign bool) (Value, error) {
	s := strings.ToLower(trimSpace(in))
	bad := func() (Value, error) {
		return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type interval: %q", in)
	}
	overflow := func() (Value, error) {
		return Null, pgerr.New(pgerr.IntervalOverflow, "interval field value out of range: %q", in)
	}
	if s == "" {
		return bad()
	}
	var a ivAcc
	if s[0] == 'p' {
		if !parseISOInterval(s[1:], &a) {
			return bad()
		}
	} else {
		toks, ok := tokenizeInterval(s)
		if !ok || len(toks) == 0 {
			return bad()
		}
		ago := false
		if last := toks[len(toks)-1]; last.kind == 'w' && last.text == "ago" {
			ago = true
			toks = toks[:len(toks)-1]
		}
		if len(toks) == 0 {
			return bad()
		}
		if leadingSign {
			for i := 1; i < len(toks); i++ {
				if toks[i].kind != 'w' {
					toks[i].text = "-" + toks[i].text
				}
			}
		}
		for i := 0; i < len(toks); i++ {
			t := toks[i]
			switch t.kind {
			case 'w':
				return bad()
			case 't':
				if !parseIntervalTime(t.text, &a, intervalRange(mod) == ivMinute|ivSecond) {
					return bad()
				}
			case 'y':
				if !parseYearMonth(t.text, &a) {
					return bad()
				}
			case 'n':
				val, frac, ok, ovf := splitNumber(t.text)
				if ovf {
					return overflow()
				}
				if !ok {
					return bad()
				}
				unit := ""
				switch {
				case i+1 < len(toks) && toks[i+1].kind == 'w':
					unit = toks[i+1].text
					i++
				case i+1 < len(toks) && toks[i+1].kind == 't':
					unit = "day" // SQL's 'D H:M:S'
				case i+2 == len(toks) && toks[i+1].kind == 'n' && rangeUnit(intervalRange(mod)) == "hour":
					unit = "day" // SQL's 'D H' under a range ending in hours
				default:
					unit = rangeUnit(intervalRange(mod))
				}
				if !a.add(unit, val, frac) {
					return bad()
				}
			}
			if a.bad {
				return overflow()
			}
		}
		if ago {
			a.years, a.months, a.days, a.micros = -a.years, -a.months, -a.days, -a.micros
		}
	}
	if a.bad {
		return overflow()
	}
	// Years become months only now, as PostgreSQL's itmin2interval does.
	a.months += a.years * 12
	if a.months != int64(int32(a.months)) || a.days != int64(int32(a.days)) || a.micros == math.MinInt64 {
		return Null, errIntervalRange()
	}
	return NewInterval(Span{int32(a.months), int32(a.days), a.micros}), nil
}

// parseIntervalTime reads [+-]H:M[:S[.f]]; minutes and seconds must be
// below 60. Two fields are M:S when the second has a fraction, or under
// the range MINUTE TO SECOND (minSec), as PostgreSQL's DecodeTimeCommon
// reads them.
func parseIntervalTime(s string, a *ivAcc, minSec bool) bool {
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		s = s[1:]
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	if len(parts) == 2 && (minSec || strings.Contains(parts[1], ".")) {
		parts = []string{"0", parts[0], parts[1]}
	}
	h, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || strings.Contains(parts[0], ".") {
		return false
	}
	m, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || m > 59 {
		if err == nil {
			a.bad = true
		}
		return err == nil
	}
	var sec int64
	var frac float64
	if len(parts) == 3 {
		ip, fp, _ := strings.Cut(parts[2], ".")
		if ip == "" && fp == "" {
			return false
		}
		if ip != "" {
			if sec, err = strconv.ParseInt(ip, 10, 64); err != nil {
				return false
			}
		}
		if fp != "" {
			if frac, err = strconv.ParseFloat("0."+fp, 64); err != nil {
				return false
			}
		}
		if sec > 60 {
			a.bad = true
			return true
		}
	}
	if h > math.MaxInt64/usecsPerHour {
		a.bad = true
		return true
	}
	if !a.once(seenHour | seenMinute | seenSecond) {
		return false
	}
	us := h*usecsPerHour + m*usecsPerMinute + sec*usecsPerSec + int64(math.RoundToEven(frac*1e6))
	if us < 0 {
		a.bad = true
		return true
	}
	if neg {
		us = -us
	}
	a.addUsec(us)
	return true
}

// parseYearMonth reads SQL's [+-]Y-M.
func parseYearMonth(s string, a *ivAcc) bool {
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		s = s[1:]
	}
	ys, ms, ok := strings.Cut(s, "-")
	if !ok {
		return false
	}
	y, err1 := strconv.ParseInt(ys, 10, 32)
	m, err2 := strconv.ParseInt(ms, 10, 32)
	if err1 != nil || err2 != nil {
		return false
	}
	if m > 11 {
		a.bad = true
		return true
	}
	n := y*12 + m
	if neg {
		n = -n
	}
	a.addMonths(n)
	return true
}

// parseISOInterval reads the designators of ISO 8601's PnYnMnDTnHnMnS
// (after the P), each number optionally signed and fractional.
func parseISOInterval(s string, a *ivAcc) bool {
	if s == "" {
		return false
	}
	timePart := false
	for s != "" {
		if s[0] == 't' {
			if timePart {
				return false
			}
			timePart = true
			s = s[1:]
			continue
		}
		j := 0
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || (j == 0 && (s[j] == '-' || s[j] == '+'))) {
			j++
		}
		if j == 0 || j == len(s) {
			return false
		}
		val, frac, ok, ovf := splitNumber(s[:j])
		if ovf {
			a.bad = true
			return true
		}
		if !ok {
			return false
		}
		var unit string
		switch d := s[j]; {
		case !timePart && d == 'y':
			unit = "year"
		case !timePart && d == 'm':
			unit = "month"
		case !timePart && d == 'w':
			unit = "week"
		case !timePart && d == 'd':
			unit = "day"
		case timePart && d == 'h':
			unit = "hour"
		case timePart && d == 'm':
			unit = "minute"
		case timePart && d == 's':
			unit = "second"
		default:
			return false
		}
		if !a.add(unit, val, frac) {
			return false
		}
		s = s[j+1:]
	}
	return true
}
