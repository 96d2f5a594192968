package value

import (
	"strconv"
	"strings"
)

// The interval output styles (IntervalStyle), each as a TextStyle with
// the other settings at their defaults.
const (
	IntervalPostgres        TextStyle = iota // 1 year 2 mons -3 days +04:05:06
	IntervalPostgresVerbose                  // @ 1 year 2 mons -3 days 4 hours 5 mins 6 secs
	IntervalSQLStandard                      // +1-2 -3 +4:05:06
	IntervalISO8601                          // P1Y2M-3DT4H5M6S
)

var intervalStyleNames = [...]string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"}

// String returns the style's name as the setting spells it.
func (st TextStyle) String() string { return intervalStyleNames[st.Interval()] }

// ParseIntervalStyle reads a style's name, in any case.
func ParseIntervalStyle(s string) (TextStyle, bool) {
	for i, n := range intervalStyleNames {
		if strings.EqualFold(s, n) {
			return TextStyle(i), true
		}
	}
	return IntervalPostgres, false
}

// itm is an interval split into the fields PostgreSQL's output writes
// (interval2itm): years and months from the months, the days, and the
// time in hours, minutes, seconds and microseconds, each field of the
// time carrying the time's sign.
type itm struct {
	year, mon, mday  int64
	hour, min, sec   int64
	usec             int64
	anyNeg, anyPos   bool
	yearMon, dayTime bool
}

func splitSpan(s Span) itm {
	t := s.Micros
	f := itm{
		year: int64(s.Months / monthsPerYear), mon: int64(s.Months % monthsPerYear), mday: int64(s.Days),
		hour: t / usecsPerHour,
	}
	t -= f.hour * usecsPerHour
	f.min = t / usecsPerMinute
	t -= f.min * usecsPerMinute
	f.sec = t / usecsPerSec
	f.usec = t - f.sec*usecsPerSec
	for _, n := range [...]int64{f.year, f.mon, f.mday, f.hour, f.min, f.sec, f.usec} {
		f.anyNeg = f.anyNeg || n < 0
		f.anyPos = f.anyPos || n > 0
	}
	f.yearMon = f.year != 0 || f.mon != 0
	f.dayTime = f.mday != 0 || f.hour != 0 || f.min != 0 || f.sec != 0 || f.usec != 0
	return f
}

func abs64(n int64) uint64 {
	if n < 0 {
		return uint64(-n)
	}
	return uint64(n)
}

// appendSeconds writes |sec| (two digits at least with pad) and the
// fraction |usec| without trailing zeros (AppendSeconds).
func appendSeconds(buf []byte, sec, usec int64, pad bool) []byte {
	if pad {
		buf = append2(buf, abs64(sec))
	} else {
		buf = strconv.AppendUint(buf, abs64(sec), 10)
	}
	if usec == 0 {
		return buf
	}
	frac := abs64(usec)
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
	return append(buf, f[:n]...)
}

// AppendIntervalStyle writes an interval's text output in style st, as
// PostgreSQL's EncodeInterval does.
func AppendIntervalStyle(buf []byte, s Span, st TextStyle) []byte {
	switch st.Interval() {
	case IntervalISO8601:
		return appendIntervalISO(buf, splitSpan(s))
	case IntervalSQLStandard:
		return appendIntervalSQL(buf, splitSpan(s))
	case IntervalPostgresVerbose:
		return appendIntervalVerbose(buf, splitSpan(s))
	}
	return appendInterval(buf, s)
}

// appendIntervalISO writes the ISO 8601 "format with designators":
// P1Y2M3DT4H5M6.5S, each field with its own sign, PT0S for zero.
func appendIntervalISO(buf []byte, f itm) []byte {
	if !f.anyNeg && !f.anyPos {
		return append(buf, "PT0S"...)
	}
	part := func(n int64, unit byte) {
		if n != 0 {
			buf = strconv.AppendInt(buf, n, 10)
			buf = append(buf, unit)
		}
	}
	buf = append(buf, 'P')
	part(f.year, 'Y')
	part(f.mon, 'M')
	part(f.mday, 'D')
	if f.hour != 0 || f.min != 0 || f.sec != 0 || f.usec != 0 {
		buf = append(buf, 'T')
	}
	part(f.hour, 'H')
	part(f.min, 'M')
	if f.sec != 0 || f.usec != 0 {
		if f.sec < 0 || f.usec < 0 {
			buf = append(buf, '-')
		}
		buf = appendSeconds(buf, f.sec, f.usec, false)
		buf = append(buf, 'S')
	}
	return buf
}

// appendIntervalSQL writes the SQL standard's form: year-month
// ("1-2") or day-time ("3 4:05:06") with one leading sign; an interval
// with both, or with fields of both signs, gets every part with its
// sign ("+1-2 -3 +4:05:06").
func appendIntervalSQL(buf []byte, f itm) []byte {
	standard := !(f.anyNeg && f.anyPos) && !(f.yearMon && f.dayTime)
	if f.anyNeg && standard {
		buf = append(buf, '-')
		f.year, f.mon, f.mday, f.hour, f.min, f.sec, f.usec = -f.year, -f.mon, -f.mday, -f.hour, -f.min, -f.sec, -f.usec
	}
	sign := func(neg bool) byte {
		if neg {
			return '-'
		}
		return '+'
	}
	hms := func(hour int64) {
		buf = strconv.AppendInt(buf, hour, 10)
		buf = append(buf, ':')
		buf = append2(buf, abs64(f.min))
		buf = append(buf, ':')
		buf = appendSeconds(buf, f.sec, f.usec, true)
	}
	switch {
	case !f.anyNeg && !f.anyPos:
		return append(buf, '0')
	case !standard:
		buf = append(buf, sign(f.year < 0 || f.mon < 0))
		buf = strconv.AppendUint(buf, abs64(f.year), 10)
		buf = append(buf, '-')
		buf = strconv.AppendUint(buf, abs64(f.mon), 10)
		buf = append(buf, ' ', sign(f.mday < 0))
		buf = strconv.AppendUint(buf, abs64(f.mday), 10)
		buf = append(buf, ' ', sign(f.hour < 0 || f.min < 0 || f.sec < 0 || f.usec < 0))
		buf = strconv.AppendUint(buf, abs64(f.hour), 10)
		buf = append(buf, ':')
		buf = append2(buf, abs64(f.min))
		buf = append(buf, ':')
		return appendSeconds(buf, f.sec, f.usec, true)
	case f.yearMon:
		buf = strconv.AppendInt(buf, f.year, 10)
		buf = append(buf, '-')
		return strconv.AppendInt(buf, f.mon, 10)
	case f.mday != 0:
		buf = strconv.AppendInt(buf, f.mday, 10)
		buf = append(buf, ' ')
	}
	hms(f.hour)
	return buf
}

// appendIntervalVerbose writes "@ 1 year 2 mons 3 days 4 hours 5 mins
// 6.5 secs", the fields after the first in the first's sign, and " ago"
// when the first nonzero field is negative.
func appendIntervalVerbose(buf []byte, f itm) []byte {
	buf = append(buf, '@')
	zero, before := true, false
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if zero {
			before = n < 0
			if n < 0 {
				n = -n
			}
		} else if before {
			n = -n
		}
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, n, 10)
		buf = append(buf, ' ')
		buf = append(buf, unit...)
		if n != 1 {
			buf = append(buf, 's')
		}
		zero = false
	}
	part(f.year, "year")
	part(f.mon, "mon")
	part(f.mday, "day")
	part(f.hour, "hour")
	part(f.min, "min")
	if f.sec != 0 || f.usec != 0 {
		buf = append(buf, ' ')
		if f.sec < 0 || f.sec == 0 && f.usec < 0 {
			if zero {
				before = true
			} else if !before {
				buf = append(buf, '-')
			}
		} else if before {
			buf = append(buf, '-')
		}
		buf = appendSeconds(buf, f.sec, f.usec, false)
		buf = append(buf, " sec"...)
		if abs64(f.sec) != 1 || f.usec != 0 {
			buf = append(buf, 's')
		}
		zero = false
	}
	if zero {
		buf = append(buf, " 0"...)
	}
	if before {
		buf = append(buf, " ago"...)
	}
	return buf
}
