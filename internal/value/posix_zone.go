package value

import "strings"

// posixZone is a zone written in POSIX's TZ syntax, as PostgreSQL's zone
// names accept it when no tz database file has the name: a standard name
// and offset (west of UTC, as in POSIX: 'UTC+3' is three hours behind),
// optionally a daylight saving name and offset (an hour less than the
// standard one when left out). Daylight saving time follows the rules of
// the tz database's posixrules zone (the United States').
type posixZone struct {
	stdWest, dstWest int64
	dst              bool
}

// IsPosixZone reports whether name is a zone in POSIX's TZ syntax, with
// or without a daylight saving name and its rules (',M3.2.0,M11.1.0'),
// as PostgreSQL's TimeZone accepts it.
func IsPosixZone(name string) bool {
	zone, rules, withRules := strings.Cut(name, ",")
	z, ok := parsePosixZone(strings.ToUpper(zone))
	if !ok || !withRules {
		return ok
	}
	start, end, two := strings.Cut(rules, ",")
	return z.dst && two && isPosixRule(start) && isPosixRule(end)
}

// isPosixRule reports whether s is a daylight saving rule of POSIX's TZ
// syntax: Jn, n or Mm.w.d, optionally followed by /time.
func isPosixRule(s string) bool {
	date, at, timed := strings.Cut(s, "/")
	digits := func(s string) bool {
		return s != "" && strings.Trim(s, "0123456789") == ""
	}
	ok := false
	switch {
	case strings.HasPrefix(date, "J"):
		ok = digits(date[1:])
	case strings.HasPrefix(date, "M"):
		parts := strings.Split(date[1:], ".")
		ok = len(parts) == 3 && digits(parts[0]) && digits(parts[1]) && digits(parts[2])
	default:
		ok = digits(date)
	}
	if timed {
		at = strings.TrimLeft(at, "+-")
		ok = ok && at != "" && strings.Trim(at, "0123456789:") == ""
	}
	return ok
}

// parsePosixZone reads s (PostgreSQL's tzparse without rules, which date
// input cannot write).
func parsePosixZone(s string) (posixZone, bool) {
	var z posixZone
	name := func(i int) (int, bool) {
		if i < len(s) && s[i] == '<' {
			for j := i + 1; j < len(s); j++ {
				if s[j] == '>' {
					return j + 1, j > i+1
				}
			}
			return 0, false
		}
		j := i
		for j < len(s) && (s[j] < '0' || s[j] > '9') && s[j] != ',' && s[j] != '-' && s[j] != '+' {
			j++
		}
		return j, true
	}
	num := func(i int, hi int64) (int64, int, bool) {
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return 0, 0, false
		}
		var n int64
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			n = n*10 + int64(s[i]-'0')
			if n > hi {
				return 0, 0, false
			}
			i++
		}
		return n, i, true
	}
	offset := func(i int) (int64, int, bool) {
		neg := false
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			neg = s[i] == '-'
			i++
		}
		h, i, ok := num(i, 167)
		if !ok {
			return 0, 0, false
		}
		secs := h * 3600
		if i < len(s) && s[i] == ':' {
			m, j, ok := num(i+1, 59)
			if !ok {
				return 0, 0, false
			}
			secs, i = secs+m*60, j
			if i < len(s) && s[i] == ':' {
				sec, j, ok := num(i+1, 60)
				if !ok {
					return 0, 0, false
				}
				secs, i = secs+sec, j
			}
		}
		if neg {
			secs = -secs
		}
		return secs, i, true
	}
	if len(s) > 255 {
		return z, false
	}
	i, ok := name(0)
	if !ok || i >= len(s) {
		return z, false
	}
	if z.stdWest, i, ok = offset(i); !ok {
		return z, false
	}
	if i == len(s) {
		return z, true
	}
	st := i
	if i, ok = name(i); !ok || i == st {
		return z, false
	}
	z.dst, z.dstWest = true, z.stdWest-3600
	if i < len(s) {
		if z.dstWest, i, ok = offset(i); !ok || i != len(s) {
			return z, false
		}
	}
	return z, true
}

// westAt is the zone's offset, seconds west of UTC, for the wall-clock
// time local (microseconds since 2000-01-01). A zone without rules keeps
// daylight saving time by the United States' rules of today in every
// year, as PostgreSQL's zone library does since it stopped reading the tz
// database's posixrules file: from the second Sunday of March at 02:00
// standard time to the first Sunday of November at 02:00 daylight time. A
// wall-clock time that occurs twice or never is read as standard time,
// as PostgreSQL resolves those times.
func (z posixZone) westAt(local int64) int64 {
	if !z.dst {
		return z.stdWest
	}
	day := floorDiv(local, usecsPerDay)
	y, _, _ := civilFromDays(day)
	start := nthSunday(y, 3, 2)*usecsPerDay + 3*usecsPerHour // the hour from 02:00 never occurs
	end := nthSunday(y, 11, 1)*usecsPerDay + usecsPerHour    // the hour from 01:00 occurs twice
	if local >= start && local < end {
		return z.dstWest
	}
	return z.stdWest
}

// nthSunday is the day (since 2000-01-01) of the nth Sunday of month m of
// year y.
func nthSunday(y, m, n int64) int64 {
	first := daysFromCivil(y, m, 1)
	// 2000-01-01 was a Saturday: day d is a Sunday when d ≡ 1 (mod 7).
	return first + floorMod(1-first, 7) + (n-1)*7
}
