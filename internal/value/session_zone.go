package value

import (
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The session's time zone (PostgreSQL's TimeZone setting) in the
// operations that depend on it: a timestamptz is an instant, kept in UTC,
// and the zone says which wall-clock time it is when it is printed, read
// without an offset, converted to or from timestamp, date and time, cut
// into fields, or moved by days and months. Each function here is the
// zone-free one when the zone is UTC (the zero Zone).

// UTC is the zone of a session that sets none.
var UTC = Zone{}

// IsUTC reports whether z is UTC at every instant.
func (z Zone) IsUTC() bool { return z.loc == nil && z.east == 0 }

// SessionZone resolves the value of the TimeZone setting, as SHOW prints
// it: a tz database zone in any case (Europe/Paris), a fixed offset as
// SET TIME ZONE writes a number ('<+02>-02') or a POSIX zone without
// daylight rules ('UTC+3', three hours west). ok is false for another
// name, PostgreSQL's POSIX zones with daylight rules among them.
func SessionZone(name string) (Zone, bool) {
	if loc, ok := loadZone(name); ok {
		z := Zone{loc: loc}
		if off, fixed := z.fixedOffset(); fixed && off == 0 {
			// UTC by any name: the zone-free operations.
			return Zone{abbr: z.abbrevAt(0)}, true
		}
		return z, true
	}
	if z, ok := parsePosixZone(strings.ToUpper(name)); ok && !z.dst {
		return Zone{east: -z.stdWest, abbr: posixStdName(name)}, true
	}
	return Zone{}, false
}

// posixStdName is the standard time's name of a POSIX zone: UTC in
// 'UTC+3', +05 in '<+05>-5', none in '+05:30'.
func posixStdName(s string) string {
	if strings.HasPrefix(s, "<") {
		if i := strings.IndexByte(s, '>'); i > 0 {
			return s[1:i]
		}
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return s[:i]
}

// ZoneName is the canonical tz database name of a zone name written in
// any case (europe/paris is Europe/Paris); ok is false when the database
// has no such file.
func ZoneName(name string) (string, bool) {
	if _, ok := loadZone(name); !ok {
		return "", false
	}
	if c, ok := zoneNames[strings.ToLower(name)]; ok {
		return c, true
	}
	return name, true
}

// OffsetAt is the zone's offset east of UTC, in seconds, at the instant
// us (microseconds since 2000-01-01 UTC).
func (z Zone) OffsetAt(us int64) int64 { return z.offsetAt(us) }

// abbrevAt is the zone's abbreviation at the instant us, as to_char's TZ
// writes it: the tz database's, or the offset (+05:30) for a fixed zone.
func (z Zone) abbrevAt(us int64) string {
	if z.loc == nil {
		return string(appendOffset(nil, z.east))
	}
	name, _ := time.UnixMicro(us - unixEpochMicros).In(z.loc).Zone()
	return name
}

// appendOffset writes an offset east of UTC as PostgreSQL prints it
// after a timestamptz: +01, +05:30, -00:09:21 (a local mean time).
func appendOffset(buf []byte, east int64) []byte {
	sign := byte('+')
	if east < 0 {
		sign, east = '-', -east
	}
	buf = append(buf, sign)
	buf = appendPadded(buf, east/3600, 2)
	if m, s := east/60%60, east%60; m != 0 || s != 0 {
		buf = append(buf, ':')
		buf = appendPadded(buf, m, 2)
		if s != 0 {
			buf = append(buf, ':')
			buf = appendPadded(buf, s, 2)
		}
	}
	return buf
}

// local is the wall-clock time in z of the instant us, and z's offset
// then (seconds east); an infinite us stays.
func (z Zone) local(us int64) (int64, int64) {
	if !tsIsFinite(us) || z.IsUTC() {
		return us, 0
	}
	off := z.offsetAt(us)
	return us + off*usecsPerSec, off
}

// instant is the instant of the wall-clock time local in z, as
// PostgreSQL's DetermineTimeZoneOffset reads it (in a spring-forward gap
// with the offset before the change, in a fall-back overlap the one
// after).
func (z Zone) instant(local int64) (int64, error) {
	if !tsIsFinite(local) || z.IsUTC() {
		return local, nil
	}
	us := local - z.offsetOfLocal(local)*usecsPerSec
	if !validTimestamp(us) {
		return 0, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	}
	return us, nil
}

// appendTimestampTZ writes a timestamptz as z's wall-clock time and
// offset: 2026-12-05 11:00:00+01.
func appendTimestampTZ(buf []byte, us int64, z Zone) []byte {
	if z.IsUTC() || !tsIsFinite(us) {
		return appendTimestamp(buf, us, true)
	}
	local, off := z.local(us)
	if !validTimestamp(local) {
		local, off = us, 0
	}
	buf = appendTimestamp(buf, local, false)
	bc := len(buf) >= 3 && string(buf[len(buf)-3:]) == " BC"
	if bc {
		buf = buf[:len(buf)-3]
	}
	buf = appendOffset(buf, off)
	if bc {
		buf = append(buf, " BC"...)
	}
	return buf
}

// ParseZone reads s as a value of type t as Parse does, a timestamptz
// (alone or in an array or range) without an offset as z's wall-clock
// time.
func ParseZone(s string, t Type, z Zone) (Value, error) {
	switch {
	case t.Kind == TimeTZ && !z.IsUTC():
		v, err := parseTimeIn(s, TimeTZ, &z)
		if err != nil {
			return Null, err
		}
		return Coerce(v, t, false)
	case z.IsUTC() || !zonedInput(t.Kind):
		return Parse(s, t)
	case t.Kind == TSTZRange:
		return parseRangeZone(s, t, &z)
	case t.Kind == TSTZMultirange:
		return parseMultirangeZone(s, t, &z)
	case t.Kind.IsArray():
		return parseArrayZone(s, t.ElemTypeMod(), IntervalPostgres, &z)
	}
	v, err := parseTimestampZone(s, z)
	if err != nil {
		return Null, err
	}
	return Coerce(v, t, true)
}

// zonedInput reports whether the text input of a value of kind k reads
// timestamptz values: timestamptz, its ranges and multiranges, and arrays
// of them.
func zonedInput(k Kind) bool {
	if k.IsArray() {
		k = k.Elem()
	}
	return k == TimestampTZ || k == TSTZRange || k == TSTZMultirange
}

// zonedOutput reports whether the text output of a value of kind k may
// write timestamptz values: zonedInput's kinds, records and arrays of
// records.
func zonedOutput(k Kind) bool {
	return zonedInput(k) || k == Record || k == ArrayOf(Record)
}

// CastZone is Cast(v, to, explicit) when the conversion depends on the
// session's zone z: a timestamptz to timestamp, date, time, timetz or
// text is z's wall-clock time; a timestamp or date to timestamptz is read
// as z's wall-clock time; text to timestamptz reads in z; a time to timetz
// takes z's offset on the current date.
func CastZone(v Value, to Type, explicit bool, z Zone) (Value, error) {
	if v.IsNull() || z.IsUTC() {
		return Cast(v, to, explicit)
	}
	from := v.kind
	switch {
	case from == TimestampTZ && to.Kind == TimeTZ:
		if !tsIsFinite(v.n) {
			return Null, nil
		}
		local, off := z.local(v.n)
		tod := local - floorDiv(local, usecsPerDay)*usecsPerDay
		return Coerce(NewTimeTZ(tod, int32(-off)), to, explicit)
	case from == Time && to.Kind == TimeTZ:
		// The zone's offset at this time of the current date in z, as
		// PostgreSQL's time_timetz.
		l, _ := z.local(currentInstant())
		west := -z.offsetOfLocal(floorDiv(l, usecsPerDay)*usecsPerDay + v.n)
		return Coerce(NewTimeTZ(v.n, int32(west)), to, explicit)
	case from == TimestampTZ && to.Kind.IsString():
		t := NewText(Text, string(appendTimestampTZ(nil, v.n, z)))
		return Cast(t, to, explicit)
	case from == TimestampTZ && to.Kind != TimestampTZ:
		local, _ := z.local(v.n)
		if !validTimestamp(local) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
		}
		return Cast(NewTimestamp(Timestamp, local), to, explicit)
	case (from == Timestamp || from == Date) && to.Kind == TimestampTZ:
		ts, err := Cast(v, TimestampType, explicit)
		if err != nil {
			return Null, err
		}
		us, err := z.instant(ts.n)
		if err != nil {
			return Null, err
		}
		return Coerce(NewTimestamp(TimestampTZ, us), to, explicit)
	case (from.IsString() || from == Unknown) && (zonedInput(to.Kind) || to.Kind == TimeTZ):
		return ParseZone(v.Str(), to, z)
	case from != TimestampTZ && zonedOutput(from) && to.Kind.IsString():
		return Cast(NewText(Text, string(AppendTextZone(nil, v, IntervalPostgres, z))), to, explicit)
	}
	return Cast(v, to, explicit)
}

// ZoneCast reports whether a cast from one kind to another depends on
// the session's zone (CastZone).
func ZoneCast(from, to Kind) bool {
	switch {
	case from == TimestampTZ:
		return to == Timestamp || to == Date || to == Time || to == TimeTZ || to.IsString()
	case to == TimestampTZ:
		return from == Timestamp || from == Date || from.IsString() || from == Unknown
	case from == Time:
		return to == TimeTZ
	case to.IsString():
		return zonedOutput(from)
	case from.IsString() || from == Unknown:
		return zonedInput(to) || to == TimeTZ // a timetz without a zone takes the session's
	}
	return false
}

// AddZone is a timestamptz plus (or, with sub, minus) an interval in z:
// as PostgreSQL's timestamptz_pl_interval, the months and days move z's
// wall-clock time on the calendar (a day across a change to summer time
// is 23 hours), the microseconds the instant.
func AddZone(v Value, iv Value, sub bool, z Zone) (Value, error) {
	s := iv.Span()
	if sub {
		s = Span{Months: -s.Months, Days: -s.Days, Micros: -s.Micros}
	}
	if z.IsUTC() || s.Months == 0 && s.Days == 0 || !tsIsFinite(v.n) {
		us, err := addSpanToTimestamp(v.n, s)
		if err != nil {
			return Null, err
		}
		return NewTimestamp(TimestampTZ, us), nil
	}
	local, _ := z.local(v.n)
	moved, err := addSpanToTimestamp(local, Span{Months: s.Months, Days: s.Days})
	if err != nil {
		return Null, err
	}
	us, err := z.instant(moved)
	if err != nil {
		return Null, err
	}
	us, err = addSpanToTimestamp(us, Span{Micros: s.Micros})
	if err != nil {
		return Null, err
	}
	return NewTimestamp(TimestampTZ, us), nil
}

// ExtractZone is Extract (or, with part, DatePart) of a timestamptz in
// z: the fields of its wall-clock time, timezone* the offset.
func ExtractZone(field string, v Value, part bool, z Zone) (Value, error) {
	f := Extract
	if part {
		f = DatePart
	}
	if v.kind != TimestampTZ || z.IsUTC() || !tsIsFinite(v.n) {
		return f(field, v)
	}
	u, err := unit(field, TimestampTZ)
	if err != nil {
		return Null, err
	}
	local, off := z.local(v.n)
	var n int64
	switch u {
	case "epoch":
		return f(field, v)
	case "timezone":
		n = off
	case "timezone_h", "timezone_hour":
		n = off / 3600
	case "timezone_m", "timezone_minute":
		n = off / 60 % 60
	default:
		if !validTimestamp(local) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
		}
		return f(field, NewTimestamp(TimestampTZ, local))
	}
	if part {
		return NewFloat(Float8, float64(n)), nil
	}
	return NewNumeric(apd.New(n, 0)), nil
}

// FormatZone is to_char of a timestamptz in z: its wall-clock time, TZ
// the zone's abbreviation, OF, TZH and TZM its offset.
func FormatZone(v Value, format string, z Zone) (Value, error) {
	if v.kind != TimestampTZ || z.IsUTC() || !tsIsFinite(v.n) {
		return FormatDateTime(v, format)
	}
	local, off := z.local(v.n)
	return formatDateTime(NewTimestamp(TimestampTZ, local), format, off, z.abbrevAt(v.n))
}

// AgeZone is age(a, b) of two timestamptz in z: the difference of their
// wall-clock times on the calendar.
func AgeZone(a, b Value, z Zone) (Value, error) {
	if z.IsUTC() {
		return Age(a, b)
	}
	if a.n == TimestampNegInfinity || b.n == TimestampNegInfinity {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	}
	// +infinity is split as its number of microseconds in z, as Age does
	// in UTC.
	local := func(us int64) tsFields { return splitShifted(us, z.offsetAt(us)) }
	return ageOfFields(local(a.n), local(b.n), a.n < b.n)
}

// zoneOffsetText is the offset east as SHOW writes a numeric TimeZone:
// '<+02>-02', '<-05:30>+05:30'.
func zoneOffsetText(east int64) string {
	o := string(appendOffset(nil, east))
	w := []byte(o) // the same offset west, as POSIX writes it
	if w[0] == '+' {
		w[0] = '-'
	} else {
		w[0] = '+'
	}
	return "<" + o + ">" + string(w)
}

// NumericZoneName is the TimeZone that SET TIME ZONE of a number of hours
// east (or an interval) sets, as PostgreSQL names it; ok is false when it
// is out of PostgreSQL's range.
func NumericZoneName(hours float64) (string, bool) {
	secs := int64(hours * 3600)
	if secs < -168*3600 || secs > 168*3600 {
		return "", false
	}
	return zoneOffsetText(secs), true
}
