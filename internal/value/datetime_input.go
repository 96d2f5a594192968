package value

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Date and time input, as PostgreSQL reads it (its documentation's
// "Date/Time Input Interpretation"): the string is split into fields
// (numbers, words, dates with punctuation, times with colons, signed
// offsets), then each field is decoded in turn, words first looked up as
// zone abbreviations, then as month and day names, units and special
// values; numbers take the date part their position and length imply
// under DateStyle ISO, MDY. The same decoding serves date, timestamp,
// timestamptz (decodeDateTime) and time, timetz (decodeTimeOnly).

// The field types of the splitter.
const (
	ftNumber = iota
	ftString
	ftDate
	ftTime
	ftTZ
	ftSpecial
)

// The token types of words and the bits of the mask of fields already
// seen, numbered as PostgreSQL numbers them.
const (
	tkReserved = 0
	tkMonth    = 1
	tkYear     = 2
	tkDay      = 3
	tkTZ       = 5
	tkDTZ      = 6
	tkDynTZ    = 7
	tkIgnore   = 8
	tkAMPM     = 9
	tkHour     = 10
	tkMinute   = 11
	tkSecond   = 12
	tkMilli    = 13
	tkMicro    = 14
	tkDOY      = 15
	tkDOW      = 16
	tkUnits    = 17
	tkADBC     = 18
	tkISOTime  = 23
	tkDTZMod   = 28
	tkUnknown  = 31
)

func dtMask(t int) int { return 1 << t }

const (
	maskDate    = 1<<tkYear | 1<<tkMonth | 1<<tkDay
	maskAllSecs = 1<<tkSecond | 1<<tkMilli | 1<<tkMicro
	maskTime    = 1<<tkHour | 1<<tkMinute | maskAllSecs
)

// The values of reserved words and units.
const (
	dkDate = iota + 2
	dkTime
	dkTZ
	dkEarly = 9
	dkLate  = 10
	dkEpoch = 11
	dkNow   = 12
	dkYest  = 13
	dkToday = 14
	dkTomor = 15
	dkZulu  = 16
	dkSec   = 18
	dkMin   = 19
	dkHour  = 20
	dkDay   = 21
	dkMonth = 23
	dkYear  = 25
	dkJul   = 31
	dkDOW   = 32
	dkDOY   = 33
	dkISOY  = 36
	dkISODW = 37
)

// AM, PM and 24-hour clock; AD and BC.
const (
	merAM = iota
	merPM
	mer24
	eraAD = 0
	eraBC = 1
)

// Decoding failures, each with its error (dtFail).
const (
	dtBadFormat = iota + 1
	dtFieldOverflow
	dtMDFieldOverflow
	dtTZDispOverflow
	dtBadZone
)

// dateWords are the words of date/time input other than zone
// abbreviations.
var dateWords = map[string][2]int{
	"-infinity": {tkReserved, dkEarly},
	"ad":        {tkADBC, eraAD},
	"allballs":  {tkReserved, dkZulu},
	"am":        {tkAMPM, merAM},
	"apr":       {tkMonth, 4}, "april": {tkMonth, 4},
	"at":  {tkIgnore, 0},
	"aug": {tkMonth, 8}, "august": {tkMonth, 8},
	"bc":  {tkADBC, eraBC},
	"d":   {tkUnits, dkDay},
	"dec": {tkMonth, 12}, "december": {tkMonth, 12},
	"dow":   {tkUnits, dkDOW},
	"doy":   {tkUnits, dkDOY},
	"dst":   {tkDTZMod, 3600},
	"epoch": {tkReserved, dkEpoch},
	"feb":   {tkMonth, 2}, "february": {tkMonth, 2},
	"fri": {tkDOW, 5}, "friday": {tkDOW, 5},
	"h":        {tkUnits, dkHour},
	"infinity": {tkReserved, dkLate},
	"isodow":   {tkUnits, dkISODW},
	"isoyear":  {tkUnits, dkISOY},
	"j":        {tkUnits, dkJul}, "jd": {tkUnits, dkJul}, "julian": {tkUnits, dkJul},
	"jan": {tkMonth, 1}, "january": {tkMonth, 1},
	"jul": {tkMonth, 7}, "july": {tkMonth, 7},
	"jun": {tkMonth, 6}, "june": {tkMonth, 6},
	"m":   {tkUnits, dkMonth},
	"mar": {tkMonth, 3}, "march": {tkMonth, 3},
	"may": {tkMonth, 5},
	"mm":  {tkUnits, dkMin},
	"mon": {tkDOW, 1}, "monday": {tkDOW, 1},
	"nov": {tkMonth, 11}, "november": {tkMonth, 11},
	"now": {tkReserved, dkNow},
	"oct": {tkMonth, 10}, "october": {tkMonth, 10},
	"on":  {tkIgnore, 0},
	"pm":  {tkAMPM, merPM},
	"s":   {tkUnits, dkSec},
	"sat": {tkDOW, 6}, "saturday": {tkDOW, 6},
	"sep": {tkMonth, 9}, "sept": {tkMonth, 9}, "september": {tkMonth, 9},
	"sun": {tkDOW, 0}, "sunday": {tkDOW, 0},
	"t":   {tkISOTime, dkTime},
	"thu": {tkDOW, 4}, "thur": {tkDOW, 4}, "thurs": {tkDOW, 4}, "thursday": {tkDOW, 4},
	"today":    {tkReserved, dkToday},
	"tomorrow": {tkReserved, dkTomor},
	"tue":      {tkDOW, 2}, "tues": {tkDOW, 2}, "tuesday": {tkDOW, 2},
	"wed": {tkDOW, 3}, "wednesday": {tkDOW, 3}, "weds": {tkDOW, 3},
	"y":         {tkUnits, dkYear},
	"yesterday": {tkReserved, dkYest},
}

// zoneAbbrev is one time zone abbreviation: a fixed offset (east of UTC,
// daylight saving or not) or, when zone is set, whatever offset the tz
// database zone had under that abbreviation at the instant.
type zoneAbbrev struct {
	east int64
	dst  bool
	zone string
}

// lookupWord is PostgreSQL's DecodeSpecial: words are compared on their
// first ten characters.
func lookupWord(w string) (typ, val int) {
	if len(w) > 10 {
		w = w[:10]
	}
	if e, ok := dateWords[w]; ok {
		return e[0], e[1]
	}
	return tkUnknown, 0
}

// inputNow is the clock of the input words now, today, tomorrow and
// yesterday: microseconds since 2000-01-01 UTC.
var inputNow atomic.Pointer[func() int64]

// SetInputClock sets the clock that date/time input reads for now, today,
// tomorrow and yesterday (microseconds since 2000-01-01 UTC); nil
// restores the wall clock.
func SetInputClock(now func() int64) {
	if now == nil {
		inputNow.Store(nil)
		return
	}
	inputNow.Store(&now)
}

func currentInstant() int64 {
	if f := inputNow.Load(); f != nil {
		return (*f)()
	}
	return time.Now().UnixMicro() + unixEpochMicros
}

// dtFields is PostgreSQL's struct pg_tm with the fraction of a second.
type dtFields struct {
	year, mon, mday int64
	hour, min, sec  int64
	yday            int64
	fsec            int64 // microseconds
}

// secsOfDay is the seconds of tm's hour, minute and second as PostgreSQL's
// time2t and DetermineTimeZoneOffset count them: in a C int, so that an
// hour given by a unit label ("h 12190405") wraps around 2^32 as it does
// there.
func (tm *dtFields) secsOfDay() int64 {
	return int64(int32((tm.hour*60+tm.min)*60 + tm.sec))
}

// splitDateTime is PostgreSQL's ParseDateTime: it breaks s into fields,
// lower-cased, each with its type.
func splitDateTime(s string) (fields [25]string, types [25]int, nf int, fail int) {
	const maxFields, maxLen = 25, 128
	var (
		db   dtBuf
		ends [maxFields]int
	)
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isAlpha := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	lower := func(c byte) byte {
		if c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	i := 0
	at := func(k int) byte {
		if k < len(s) {
			return s[k]
		}
		return 0
	}
	for i < len(s) {
		start := db.n
		if nf >= maxFields {
			return fields, types, 0, dtBadFormat
		}
		var ft int
		c := s[i]
		switch {
		case isDigit(c):
			for isDigit(at(i)) {
				if !db.add(s[i]) {
					return fields, types, 0, dtBadFormat
				}
				i++
			}
			switch d := at(i); {
			case d == ':':
				ft = ftTime
				for d := at(i); isDigit(d) || d == ':' || d == '.'; d = at(i) {
					if !db.add(d) {
						return fields, types, 0, dtBadFormat
					}
					i++
				}
			case d == '-' || d == '/' || d == '.':
				if !db.add(d) {
					return fields, types, 0, dtBadFormat
				}
				i++
				if isDigit(at(i)) {
					ft = ftDate
					if d == '.' {
						ft = ftNumber
					}
					for isDigit(at(i)) {
						if !db.add(s[i]) {
							return fields, types, 0, dtBadFormat
						}
						i++
					}
					if at(i) == d {
						ft = ftDate
						for e := at(i); isDigit(e) || e == d; e = at(i) {
							if !db.add(e) {
								return fields, types, 0, dtBadFormat
							}
							i++
						}
					}
				} else {
					ft = ftDate
					for e := at(i); isDigit(e) || isAlpha(e) || e == d; e = at(i) {
						if !db.add(lower(e)) {
							return fields, types, 0, dtBadFormat
						}
						i++
					}
				}
			default:
				ft = ftNumber
			}
		case c == '.':
			ft = ftNumber
			for ok := true; ok; ok = isDigit(at(i)) {
				if !db.add(s[i]) {
					return fields, types, 0, dtBadFormat
				}
				i++
			}
		case isAlpha(c):
			ft = ftString
			for isAlpha(at(i)) {
				if !db.add(lower(s[i])) {
					return fields, types, 0, dtBadFormat
				}
				i++
			}
			isDate := false
			switch d := at(i); {
			case d == '-' || d == '/' || d == '.':
				isDate = true
			case d == '+' || isDigit(d):
				typ, _ := lookupWord(string(db.b[start:db.n]))
				isDate = typ == tkUnknown
			}
			if isDate {
				ft = ftDate
				for ok := true; ok; {
					if !db.add(lower(s[i])) {
						return fields, types, 0, dtBadFormat
					}
					i++
					e := at(i)
					ok = e == '+' || e == '-' || e == '/' || e == '_' || e == '.' || e == ':' || isDigit(e) || isAlpha(e)
				}
			}
		case isSpace(c):
			i++
			continue
		case c == '+' || c == '-':
			if !db.add(c) {
				return fields, types, 0, dtBadFormat
			}
			i++
			for isSpace(at(i)) {
				i++
			}
			switch d := at(i); {
			case isDigit(d):
				ft = ftTZ
				for e := at(i); isDigit(e) || e == ':' || e == '.' || e == '-'; e = at(i) {
					if !db.add(e) {
						return fields, types, 0, dtBadFormat
					}
					i++
				}
			case isAlpha(d):
				ft = ftSpecial
				for isAlpha(at(i)) {
					if !db.add(lower(s[i])) {
						return fields, types, 0, dtBadFormat
					}
					i++
				}
			default:
				return fields, types, 0, dtBadFormat
			}
		case isPunct(c):
			i++
			continue
		default:
			return fields, types, 0, dtBadFormat
		}
		db.used++ // the field's terminator
		ends[nf], types[nf] = db.n, ft
		nf++
	}
	// One string holds every field.
	all := string(db.b[:db.n])
	for k, st := 0, 0; k < nf; k++ {
		fields[k], st = all[st:ends[k]], ends[k]
	}
	return fields, types, nf, 0
}

// dtBuf is the work buffer of splitDateTime: the fields' characters, and
// the bytes PostgreSQL's buffer would hold (with a terminator per field),
// which must stay within 128.
type dtBuf struct {
	b       [128]byte
	n, used int
}

func (d *dtBuf) add(c byte) bool {
	if d.used+1 >= len(d.b)+1 {
		return false
	}
	d.b[d.n] = c
	d.n++
	d.used++
	return true
}

// isPunct is C's ispunct in the C locale.
func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// strtoint reads what C's strtol reads at the start of s (spaces, a sign,
// digits), as an int32: the value, the rest of s, and whether it
// overflowed. No digits read 0 and leave s whole.
func strtoint(s string) (v int64, rest string, overflow bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	st := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v <= math.MaxInt32+1 {
			v = v*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == st {
		return 0, s, false
	}
	if neg {
		v = -v
	}
	if v > math.MaxInt32 || v < math.MinInt32 {
		return 0, s[i:], true
	}
	return v, s[i:], false
}

// atoi is C's atoi: strtol's value cast to an int.
func atoi(s string) int64 {
	i, v := 0, int64(0)
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v < math.MaxInt64/10 {
			v = v*10 + int64(s[i]-'0')
		} else {
			v = math.MaxInt64
		}
		i++
	}
	return int64(int32(v))
}

// parseFraction reads ".ddd" to the end of s as a float (strtod); "."
// alone is 0.
func parseFraction(s string) (float64, int) {
	if len(s) == 1 {
		return 0, 0
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, dtBadFormat
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, dtBadFormat
	}
	return f, 0
}

func parseFractionalSecond(s string, fsec *int64) int {
	f, fail := parseFraction(s)
	if fail != 0 {
		return fail
	}
	*fsec = int64(math.RoundToEven(f * 1e6))
	return 0
}

// decodeTimezone reads a numeric zone, +h, +hh, +hhmm, +hh:mm or
// +hh:mm:ss, into seconds west of UTC.
func decodeTimezone(s string) (west int64, fail int) {
	if s == "" || s[0] != '+' && s[0] != '-' {
		return 0, dtBadFormat
	}
	hr, cp, of := strtoint(s[1:])
	if of {
		return 0, dtTZDispOverflow
	}
	var mn, sec int64
	switch {
	case cp != "" && cp[0] == ':':
		if mn, cp, of = strtoint(cp[1:]); of {
			return 0, dtTZDispOverflow
		}
		if cp != "" && cp[0] == ':' {
			if sec, cp, of = strtoint(cp[1:]); of {
				return 0, dtTZDispOverflow
			}
		}
	case cp == "" && len(s) > 3:
		mn, hr = hr%100, hr/100
	}
	if hr < 0 || hr > 15 || mn < 0 || mn >= 60 || sec < 0 || sec >= 60 {
		return 0, dtTZDispOverflow
	}
	tz := (hr*60+mn)*60 + sec
	if s[0] == '-' {
		tz = -tz
	}
	if cp != "" {
		return 0, dtBadFormat
	}
	return -tz, 0
}

// decodeNumberField reads a run of digits with an optional fraction:
// YYYYMMDD or YYMMDD when the date is incomplete, hhmmss or hhmm
// otherwise. It returns the mask of what it set.
func decodeNumberField(str string, fmask int, tm *dtFields, is2digits *bool) (tmask int, fail int) {
	if dot := strings.IndexByte(str, '.'); dot >= 0 {
		if dot+1 == len(str) {
			tm.fsec = 0
		} else {
			f, err := strconv.ParseFloat(str[dot:], 64)
			if err != nil && !isRangeErr(err) {
				return 0, dtBadFormat
			}
			if err != nil {
				return 0, dtBadFormat
			}
			tm.fsec = int64(math.RoundToEven(f * 1e6))
		}
		str = str[:dot]
	} else if fmask&maskDate != maskDate {
		if n := len(str); n >= 6 {
			tm.mday = atoi(str[n-2:])
			tm.mon = atoi(str[n-4 : n-2])
			tm.year = atoi(str[:n-4])
			if n-4 == 2 {
				*is2digits = true
			}
			return maskDate, 0
		}
	}
	if fmask&maskTime != maskTime {
		switch len(str) {
		case 6:
			tm.sec, tm.min, tm.hour = atoi(str[4:]), atoi(str[2:4]), atoi(str[:2])
			return maskTime, 0
		case 4:
			tm.sec, tm.min, tm.hour = 0, atoi(str[2:]), atoi(str[:2])
			return maskTime, 0
		}
	}
	return 0, dtBadFormat
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// decodeNumber reads one numeric field of a date, deciding from what was
// read so far (and DateStyle's MDY order) whether it is a year, a month,
// a day or a day of the year.
func decodeNumber(str string, haveTextMonth bool, fmask int, tm *dtFields, is2digits *bool, order DateOrder) (tmask int, fail int) {
	flen := len(str)
	val, cp, of := strtoint(str)
	if of {
		return 0, dtFieldOverflow
	}
	if len(cp) == len(str) {
		return 0, dtBadFormat
	}
	if cp != "" && cp[0] == '.' {
		if len(str)-len(cp) > 2 {
			return decodeNumberField(str, fmask|maskDate, tm, is2digits)
		}
		if f := parseFractionalSecond(cp, &tm.fsec); f != 0 {
			return 0, f
		}
	} else if cp != "" {
		return 0, dtBadFormat
	}
	if flen == 3 && fmask&maskDate == dtMask(tkYear) && val >= 1 && val <= 366 {
		tm.yday = val
		return dtMask(tkDOY) | dtMask(tkMonth) | dtMask(tkDay), 0
	}
	switch fmask & maskDate {
	case 0:
		switch {
		case flen >= 3 || order == OrderYMD:
			tmask, tm.year = dtMask(tkYear), val
		case order == OrderDMY:
			tmask, tm.mday = dtMask(tkDay), val
		default:
			tmask, tm.mon = dtMask(tkMonth), val
		}
	case dtMask(tkYear):
		tmask, tm.mon = dtMask(tkMonth), val
	case dtMask(tkMonth):
		if haveTextMonth && (flen >= 3 || order == OrderYMD) {
			tmask, tm.year = dtMask(tkYear), val
		} else {
			tmask, tm.mday = dtMask(tkDay), val
		}
	case dtMask(tkYear) | dtMask(tkMonth):
		if haveTextMonth && flen >= 3 && *is2digits {
			tmask = dtMask(tkDay)
			tm.mday, tm.year = tm.year, val
			*is2digits = false
		} else {
			tmask, tm.mday = dtMask(tkDay), val
		}
	case dtMask(tkDay):
		tmask, tm.mon = dtMask(tkMonth), val
	case dtMask(tkMonth) | dtMask(tkDay):
		tmask, tm.year = dtMask(tkYear), val
	case maskDate:
		return decodeNumberField(str, fmask, tm, is2digits)
	default:
		return 0, dtBadFormat
	}
	if tmask == dtMask(tkYear) {
		*is2digits = flen <= 2
	}
	return tmask, 0
}

// decodeDate reads a date field with punctuation (2024-05-17,
// 17/May/2024, 2024.05.17): month names first, then the numbers.
func decodeDate(str string, fmask int, is2digits *bool, tm *dtFields, order DateOrder) (tmask int, fail int) {
	const maxFields = 25
	var fieldsArr [maxFields]string
	fields := fieldsArr[:0]
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isAlnum := func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	i := 0
	for i < len(str) && len(fields) < maxFields {
		for i < len(str) && !isAlnum(str[i]) {
			i++
		}
		if i == len(str) {
			return 0, dtBadFormat
		}
		st := i
		if isDigit(str[i]) {
			for i < len(str) && isDigit(str[i]) {
				i++
			}
		} else {
			for i < len(str) && isAlnum(str[i]) && !isDigit(str[i]) {
				i++
			}
		}
		fields = append(fields, str[st:i])
		if i < len(str) {
			i++ // the delimiter, or whatever character ends the run
		}
	}
	haveTextMonth := false
	var done [maxFields]bool
	for k, f := range fields {
		if f == "" || isDigit(f[0]) {
			continue
		}
		typ, val := lookupWord(f)
		if typ == tkIgnore {
			done[k] = true
			continue
		}
		if typ != tkMonth {
			return 0, dtBadFormat
		}
		tm.mon = int64(val)
		haveTextMonth = true
		if fmask&dtMask(typ) != 0 {
			return 0, dtBadFormat
		}
		fmask |= dtMask(typ)
		tmask |= dtMask(typ)
		done[k] = true
	}
	for k, f := range fields {
		if done[k] {
			continue
		}
		if f == "" {
			return 0, dtBadFormat
		}
		dmask, fail := decodeNumber(f, haveTextMonth, fmask, tm, is2digits, order)
		if fail != 0 {
			return 0, fail
		}
		if fmask&dmask != 0 {
			return 0, dtBadFormat
		}
		fmask |= dmask
		tmask |= dmask
	}
	if fmask&^(dtMask(tkDOY)|dtMask(tkTZ)) != maskDate {
		return 0, dtBadFormat
	}
	return tmask, 0
}

// decodeTime reads hh:mm[:ss[.fff]] (or mm:ss.fff).
func decodeTime(str string, tm *dtFields) (tmask int, fail int) {
	h, cp, of := strtoint(str)
	if of {
		return 0, dtFieldOverflow
	}
	if cp == "" || cp[0] != ':' {
		return 0, dtBadFormat
	}
	m, cp, of := strtoint(cp[1:])
	if of {
		return 0, dtFieldOverflow
	}
	tm.hour, tm.min = h, m
	switch {
	case cp == "":
		tm.sec, tm.fsec = 0, 0
	case cp[0] == '.':
		if f := parseFractionalSecond(cp, &tm.fsec); f != 0 {
			return 0, f
		}
		tm.sec, tm.min, tm.hour = tm.min, tm.hour, 0
	case cp[0] == ':':
		s, rest, of := strtoint(cp[1:])
		if of {
			return 0, dtFieldOverflow
		}
		tm.sec = s
		switch {
		case rest == "":
			tm.fsec = 0
		case rest[0] == '.':
			if f := parseFractionalSecond(rest, &tm.fsec); f != 0 {
				return 0, f
			}
		default:
			return 0, dtBadFormat
		}
	default:
		return 0, dtBadFormat
	}
	if tm.hour < 0 || tm.min < 0 || tm.min > 59 || tm.sec < 0 || tm.sec > 60 || tm.fsec < 0 || tm.fsec > usecsPerSec {
		return 0, dtFieldOverflow
	}
	return maskTime, 0
}

func timeOverflows(h, m, s, fsec int64) bool {
	if h < 0 || h > 24 || m < 0 || m >= 60 || s < 0 || s > 60 || fsec < 0 || fsec > usecsPerSec {
		return true
	}
	return ((h*60+m)*60+s)*usecsPerSec+fsec > usecsPerDay
}

// julianToDate is PostgreSQL's j2date: the proleptic Gregorian date of a
// Julian day number.
func julianToDate(j int64) (y, m, d int64) {
	return civilFromDays(j - 2451545)
}

// validateDate applies the era and two-digit years, resolves a day of the
// year, and checks the month and day.
func validateDate(fmask int, isJulian, is2digits, bc bool, tm *dtFields) int {
	if fmask&dtMask(tkYear) != 0 {
		switch {
		case isJulian:
		case bc:
			if tm.year <= 0 {
				return dtFieldOverflow
			}
			tm.year = -(tm.year - 1)
		case is2digits:
			if tm.year < 0 {
				return dtFieldOverflow
			}
			if tm.year < 70 {
				tm.year += 2000
			} else if tm.year < 100 {
				tm.year += 1900
			}
		default:
			if tm.year <= 0 {
				return dtFieldOverflow
			}
		}
	}
	if fmask&dtMask(tkDOY) != 0 {
		tm.year, tm.mon, tm.mday = civilFromDays(daysFromCivil(tm.year, 1, 1) + tm.yday - 1)
	}
	if fmask&dtMask(tkMonth) != 0 && (tm.mon < 1 || tm.mon > 12) {
		return dtMDFieldOverflow
	}
	if fmask&dtMask(tkDay) != 0 && (tm.mday < 1 || tm.mday > 31) {
		return dtMDFieldOverflow
	}
	if fmask&maskDate == maskDate && tm.mday > daysInMonth(tm.year, tm.mon) {
		return dtFieldOverflow
	}
	return 0
}

// dtDecoder holds what decoding needs besides the fields: the zone
// found, and a zone name that the tz database does not know.
type dtDecoder struct {
	namedTz   *Zone
	posix     *posixZone
	abbrevTz  *time.Location
	abbrev    string
	badZone   string
	zoneFound bool
	// session is the zone of a timestamptz written without one; nil
	// for UTC.
	session *Zone
	// order is DateStyle's field order, in which an ambiguous date
	// reads (01/02/03).
	order DateOrder
}

// lookupAbbrev is PostgreSQL's DecodeTimezoneAbbrev over the Default set.
func lookupAbbrev(w string) (typ int, east int64, loc *time.Location) {
	if len(w) > 10 {
		w = w[:10]
	}
	a, ok := zoneAbbrevTable[w]
	if !ok {
		return tkUnknown, 0, nil
	}
	if a.zone != "" {
		if loc, ok := loadZone(a.zone); ok {
			return tkDynTZ, 0, loc
		}
		return tkUnknown, 0, nil
	}
	if a.dst {
		return tkDTZ, a.east, nil
	}
	return tkTZ, a.east, nil
}

// Zone names are looked up without regard to case, as PostgreSQL does:
// zoneNames maps the lower-case names of the tz database's files to
// their names.
var (
	zoneNamesOnce sync.Once
	zoneNames     map[string]string
)

func zoneDir() string {
	if d := os.Getenv("ZONEINFO"); d != "" {
		return d
	}
	return "/usr/share/zoneinfo"
}

// loadZone finds a tz database zone by name, in any case.
func loadZone(name string) (*time.Location, bool) {
	zoneMu.RLock()
	loc := zoneCache[name]
	zoneMu.RUnlock()
	if loc != nil {
		return loc, true
	}
	zoneNamesOnce.Do(func() {
		zoneNames = map[string]string{}
		root := zoneDir()
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err == nil {
				zoneNames[strings.ToLower(rel)] = rel
			}
			return nil
		})
	})
	canon, ok := zoneNames[strings.ToLower(name)]
	if !ok {
		canon = name
	}
	if canon == "" || strings.EqualFold(canon, "local") || strings.HasPrefix(canon, "/") {
		return nil, false
	}
	l, err := time.LoadLocation(canon)
	if err != nil {
		return nil, false
	}
	zoneMu.Lock()
	zoneCache[name] = l
	zoneMu.Unlock()
	return l, true
}

// setNamedZone resolves a zone name of the input: a tz database zone or a
// POSIX zone without daylight rules ('UTC+3'). Unknown names fail.
func (dd *dtDecoder) setNamedZone(name string) int {
	if loc, ok := loadZone(name); ok {
		dd.namedTz = &Zone{loc: loc}
		return 0
	}
	if z, ok := parsePosixZone(strings.ToUpper(name)); ok {
		dd.posix = &z
		return 0
	}
	dd.badZone = name
	return dtBadZone
}

// fixedOffset reports whether z has one offset for all time, and which
// (seconds east of UTC).
func (z Zone) fixedOffset() (int64, bool) {
	if z.loc == nil {
		return z.east, true
	}
	start, end := time.Unix(0, 0).In(z.loc).ZoneBounds()
	if start.IsZero() && end.IsZero() {
		_, off := time.Unix(0, 0).In(z.loc).Zone()
		return int64(off), true
	}
	return 0, false
}

// localSeconds is the wall-clock time of tm, in seconds since 2000-01-01
// (the fraction left out, as PostgreSQL leaves it out), and whether it is
// within the range in which zone offsets are looked up.
func (tm *dtFields) localMicros() (int64, bool) {
	if !validJulian(tm.year, tm.mon) {
		return 0, false
	}
	days := daysFromCivil(tm.year, tm.mon, tm.mday)
	// Past year 6000 the calendar and the zones' rules repeat every 400
	// years (146097 days): move into years 5600 to 6000, within int64.
	const cycle = 146097
	if far := int64(10 * cycle); days > far {
		days = far - cycle + (days-far)%cycle
	}
	return days*usecsPerDay + tm.secsOfDay()*usecsPerSec, true
}

// zoneWestAt is PostgreSQL's DetermineTimeZoneOffset: the zone's offset
// (seconds west of UTC) for the wall-clock time tm.
func zoneWestAt(tm *dtFields, z Zone) int64 {
	local, ok := tm.localMicros()
	if !ok {
		return 0
	}
	return -z.offsetOfLocal(local)
}

// abbrevWestAt is PostgreSQL's DetermineTimeZoneAbbrevOffset: the offset
// the zone had under the abbreviation closest to the instant tm
// (seconds west of UTC), or the zone's offset at tm when it never used
// the abbreviation.
func abbrevWestAt(tm *dtFields, abbrev string, loc *time.Location) int64 {
	z := Zone{loc: loc}
	local, ok := tm.localMicros()
	if !ok {
		local = unixEpochMicros
	}
	west := -z.offsetOfLocal(local)
	if !ok {
		west = 0
	}
	at := time.UnixMicro(local + west*usecsPerSec - unixEpochMicros).In(loc)
	// The most recent use of the abbreviation at or before the instant,
	// else the first after it.
	for t, n := at, 0; n < 1000; n++ {
		name, off := t.Zone()
		if strings.EqualFold(name, abbrev) {
			return -int64(off)
		}
		start, _ := t.ZoneBounds()
		if start.IsZero() {
			break
		}
		t = start.Add(-time.Second)
	}
	for t, n := at, 0; n < 1000; n++ {
		name, off := t.Zone()
		if strings.EqualFold(name, abbrev) {
			return -int64(off)
		}
		_, end := t.ZoneBounds()
		if end.IsZero() {
			break
		}
		t = end
	}
	return west
}

// validJulian is PostgreSQL's IS_VALID_JULIAN: the year and month are
// within the range of its Julian day arithmetic.
func validJulian(y, m int64) bool {
	return (y > -4713 || y == -4713 && m >= 11) && (y < 5874898 || y == 5874898 && m < 6)
}

// now is the current instant as fields of the wall clock of the zone a
// timestamptz without one is read in (UTC when none): 'today' is that
// zone's date, as in PostgreSQL.
func (dd *dtDecoder) now() dtFields {
	if dd.session == nil || dd.session.IsUTC() {
		return sessionNow()
	}
	us := currentInstant()
	return fieldsOfMicros(us + dd.session.offsetAt(us)*usecsPerSec)
}

// sessionNow is the current instant as fields of the session's zone
// (UTC).
func sessionNow() dtFields { return fieldsOfMicros(currentInstant()) }

// fieldsOfMicros is the date and time of day of us, microseconds since
// 2000-01-01.
func fieldsOfMicros(us int64) dtFields {
	days := floorDiv(us, usecsPerDay)
	tod := us - days*usecsPerDay
	var tm dtFields
	tm.year, tm.mon, tm.mday = civilFromDays(days)
	tm.hour, tm.min, tm.sec = tod/3600e6, tod/60e6%60, tod/1e6%60
	tm.fsec = tod % 1e6
	return tm
}

// decodeDateTime is PostgreSQL's DecodeDateTime: it decodes the fields of
// a date, timestamp or timestamptz into tm and the zone (seconds west of
// UTC), and returns the kind of value read (dkDate, or dkEpoch, dkLate,
// dkEarly for the special values).
func (dd *dtDecoder) decodeDateTime(fields []string, ftype []int, tm *dtFields) (dtype int, west int64, fail int) {
	fmask, ptype := 0, 0
	haveTextMonth, isJulian, is2digits, bc := false, false, false, false
	mer := mer24
	dtype = dkDate
	for i, field := range fields {
		var tmask int
		switch ftype[i] {
		case ftDate:
			switch {
			case ptype == dkJul:
				val, cp, of := strtoint(field)
				if of || val < 0 {
					return 0, 0, dtFieldOverflow
				}
				tm.year, tm.mon, tm.mday = julianToDate(val)
				isJulian = true
				w, f := decodeTimezone(cp)
				if f != 0 {
					return 0, 0, f
				}
				west = w
				tmask = maskDate | maskTime | dtMask(tkTZ)
				ptype = 0
			case ptype != 0 || fmask&(dtMask(tkMonth)|dtMask(tkDay)) == dtMask(tkMonth)|dtMask(tkDay):
				if field[0] >= '0' && field[0] <= '9' || ptype != 0 {
					if ptype != 0 {
						if ptype != dkTime {
							return 0, 0, dtBadFormat
						}
						ptype = 0
					}
					if fmask&maskTime == maskTime {
						return 0, 0, dtBadFormat
					}
					cp := strings.IndexByte(field, '-')
					if cp < 0 {
						return 0, 0, dtBadFormat
					}
					w, f := decodeTimezone(field[cp:])
					if f != 0 {
						return 0, 0, f
					}
					west = w
					m, f := decodeNumberField(field[:cp], fmask, tm, &is2digits)
					if f != 0 {
						return 0, 0, f
					}
					tmask = m | dtMask(tkTZ)
				} else {
					if f := dd.setNamedZone(field); f != 0 {
						return 0, 0, f
					}
					tmask = dtMask(tkTZ)
				}
			default:
				m, f := decodeDate(field, fmask, &is2digits, tm, dd.order)
				if f != 0 {
					return 0, 0, f
				}
				tmask = m
			}
		case ftTime:
			if ptype != 0 {
				if ptype != dkTime {
					return 0, 0, dtBadFormat
				}
				ptype = 0
			}
			m, f := decodeTime(field, tm)
			if f != 0 {
				return 0, 0, f
			}
			tmask = m
			if timeOverflows(tm.hour, tm.min, tm.sec, tm.fsec) {
				return 0, 0, dtFieldOverflow
			}
		case ftTZ:
			w, f := decodeTimezone(field)
			if f != 0 {
				return 0, 0, f
			}
			west, tmask = w, dtMask(tkTZ)
		case ftNumber:
			if ptype != 0 {
				val, cp, of := strtoint(field)
				if of {
					return 0, 0, dtFieldOverflow
				}
				if cp != "" && cp[0] == '.' {
					if ptype != dkJul && ptype != dkTime && ptype != dkSec {
						return 0, 0, dtBadFormat
					}
				} else if cp != "" {
					return 0, 0, dtBadFormat
				}
				var f int
				tmask, f = decodeUnit(ptype, val, cp, field, fmask, tm, &west, &isJulian, &is2digits)
				if f != 0 {
					return 0, 0, f
				}
				ptype = 0
				dtype = dkDate
				break
			}
			flen := len(field)
			dot := strings.IndexByte(field, '.')
			var f int
			switch {
			case dot >= 0 && fmask&maskDate == 0:
				tmask, f = decodeDate(field, fmask, &is2digits, tm, dd.order)
			case dot >= 0 && dot > 2:
				tmask, f = decodeNumberField(field, fmask, tm, &is2digits)
			case flen >= 6 && (fmask&maskDate == 0 || fmask&maskTime == 0):
				tmask, f = decodeNumberField(field, fmask, tm, &is2digits)
			default:
				tmask, f = decodeNumber(field, haveTextMonth, fmask, tm, &is2digits, dd.order)
			}
			if f != 0 {
				return 0, 0, f
			}
		case ftString, ftSpecial:
			typ, val64, loc := lookupAbbrev(field)
			val := int(val64)
			if typ == tkUnknown {
				typ, val = lookupWord(field)
			}
			if typ == tkIgnore {
				continue
			}
			tmask = dtMask(typ)
			switch typ {
			case tkReserved:
				switch val {
				case dkNow:
					tmask = maskDate | maskTime | dtMask(tkTZ)
					dtype = dkDate
					*tm = sessionNow()
					west = 0
				case dkYest, dkToday, dkTomor:
					tmask = maskDate
					dtype = dkDate
					cur := dd.now()
					d := daysFromCivil(cur.year, cur.mon, cur.mday) + int64(val-dkToday)
					tm.year, tm.mon, tm.mday = civilFromDays(d)
				case dkZulu:
					tmask = maskTime | dtMask(tkTZ)
					dtype = dkDate
					tm.hour, tm.min, tm.sec = 0, 0, 0
					west = 0
				default:
					dtype = val
				}
			case tkMonth:
				if fmask&dtMask(tkMonth) != 0 && !haveTextMonth && fmask&dtMask(tkDay) == 0 && tm.mon >= 1 && tm.mon <= 31 {
					tm.mday = tm.mon
					tmask = dtMask(tkDay)
				}
				haveTextMonth = true
				tm.mon = int64(val)
			case tkDTZMod:
				tmask |= dtMask(tkDTZ)
				west -= int64(val)
			case tkDTZ:
				tmask |= dtMask(tkTZ)
				west = -int64(val)
			case tkTZ:
				west = -int64(val)
			case tkDynTZ:
				tmask |= dtMask(tkTZ)
				dd.abbrevTz, dd.abbrev = loc, field
			case tkAMPM:
				mer = val
			case tkADBC:
				bc = val == eraBC
			case tkDOW:
			case tkUnits:
				tmask = 0
				ptype = val
			case tkISOTime:
				tmask = 0
				if fmask&maskDate != maskDate {
					return 0, 0, dtBadFormat
				}
				if i >= len(fields)-1 || ftype[i+1] != ftNumber && ftype[i+1] != ftTime && ftype[i+1] != ftDate {
					return 0, 0, dtBadFormat
				}
				ptype = val
			case tkUnknown:
				if f := dd.setNamedZone(field); f != 0 {
					if f == dtBadZone {
						f = dtBadFormat
					}
					return 0, 0, f
				}
				tmask = dtMask(tkTZ)
			default:
				return 0, 0, dtBadFormat
			}
		default:
			return 0, 0, dtBadFormat
		}
		if tmask&fmask != 0 {
			return 0, 0, dtBadFormat
		}
		fmask |= tmask
	}
	if f := validateDate(fmask, isJulian, is2digits, bc, tm); f != 0 {
		return 0, 0, f
	}
	if f := applyMeridian(mer, tm); f != 0 {
		return 0, 0, f
	}
	if dtype == dkDate {
		if fmask&maskDate != maskDate {
			return 0, 0, dtBadFormat
		}
		if dd.namedTz != nil {
			if fmask&dtMask(tkDTZMod) != 0 {
				return 0, 0, dtBadFormat
			}
			west = zoneWestAt(tm, *dd.namedTz)
		}
		if dd.posix != nil {
			if fmask&dtMask(tkDTZMod) != 0 {
				return 0, 0, dtBadFormat
			}
			west = 0
			if local, ok := tm.localMicros(); ok {
				west = dd.posix.westAt(local)
			}
		}
		if dd.abbrevTz != nil {
			if fmask&dtMask(tkDTZMod) != 0 {
				return 0, 0, dtBadFormat
			}
			west = abbrevWestAt(tm, dd.abbrev, dd.abbrevTz)
		}
		if fmask&dtMask(tkTZ) == 0 {
			if fmask&dtMask(tkDTZMod) != 0 {
				return 0, 0, dtBadFormat
			}
			west = 0 // the session's zone, UTC unless set
			if dd.session != nil {
				west = zoneWestAt(tm, *dd.session)
			}
		}
	}
	return dtype, west, 0
}

// decodeUnit reads a number after a unit word (y2001m02d04, j2451187,
// t101010).
func decodeUnit(ptype int, val int64, cp, field string, fmask int, tm *dtFields, west *int64, isJulian, is2digits *bool) (tmask int, fail int) {
	switch ptype {
	case dkYear:
		tm.year, tmask = val, dtMask(tkYear)
	case dkMonth:
		if fmask&dtMask(tkMonth) != 0 && fmask&dtMask(tkHour) != 0 {
			tm.min, tmask = val, dtMask(tkMinute)
		} else {
			tm.mon, tmask = val, dtMask(tkMonth)
		}
	case dkDay:
		tm.mday, tmask = val, dtMask(tkDay)
	case dkHour:
		tm.hour, tmask = val, dtMask(tkHour)
	case dkMin:
		tm.min, tmask = val, dtMask(tkMinute)
	case dkSec:
		tm.sec, tmask = val, dtMask(tkSecond)
		if cp != "" && cp[0] == '.' {
			if f := parseFractionalSecond(cp, &tm.fsec); f != 0 {
				return 0, f
			}
			tmask = maskAllSecs
		}
	case dkTZ:
		w, f := decodeTimezone(field)
		if f != 0 {
			return 0, f
		}
		*west, tmask = w, dtMask(tkTZ)
	case dkJul:
		if val < 0 {
			return 0, dtFieldOverflow
		}
		tmask = maskDate
		tm.year, tm.mon, tm.mday = julianToDate(val)
		*isJulian = true
		if cp != "" && cp[0] == '.' {
			f, fail := parseFraction(cp)
			if fail != 0 {
				return 0, fail
			}
			us := int64(f * float64(usecsPerDay))
			tm.hour, us = us/3600e6, us%3600e6
			tm.min, us = us/60e6, us%60e6
			tm.sec, tm.fsec = us/1e6, us%1e6
			tmask |= maskTime
		}
	case dkTime:
		m, f := decodeNumberField(field, fmask|maskDate, tm, is2digits)
		if f != 0 {
			return 0, f
		}
		if m != maskTime {
			return 0, dtBadFormat
		}
		tmask = m
	default:
		return 0, dtBadFormat
	}
	return tmask, 0
}

// applyMeridian applies AM or PM to the hour.
func applyMeridian(mer int, tm *dtFields) int {
	if mer != mer24 && tm.hour > 12 {
		return dtFieldOverflow
	}
	if mer == merAM && tm.hour == 12 {
		tm.hour = 0
	} else if mer == merPM && tm.hour != 12 {
		tm.hour += 12
	}
	return 0
}

// decodeTimeOnly is PostgreSQL's DecodeTimeOnly: it decodes the fields of
// a time or timetz into tm and the zone (seconds west of UTC).
func (dd *dtDecoder) decodeTimeOnly(fields []string, ftype []int, tm *dtFields) (west int64, fail int) {
	fmask, ptype := 0, 0
	isJulian, is2digits, bc := false, false, false
	mer := mer24
	nf := len(fields)
	for i, field := range fields {
		var tmask int
		switch ftype[i] {
		case ftDate:
			if i == 0 && nf >= 2 && (ftype[nf-1] == ftDate || ftype[1] == ftTime) {
				m, f := decodeDate(field, fmask, &is2digits, tm, dd.order)
				if f != 0 {
					return 0, f
				}
				tmask = m
			} else if field[0] >= '0' && field[0] <= '9' {
				if fmask&maskTime == maskTime {
					return 0, dtBadFormat
				}
				cp := strings.IndexByte(field, '-')
				if cp < 0 {
					return 0, dtBadFormat
				}
				w, f := decodeTimezone(field[cp:])
				if f != 0 {
					return 0, f
				}
				west = w
				m, f := decodeNumberField(field[:cp], fmask|maskDate, tm, &is2digits)
				if f != 0 {
					return 0, f
				}
				ftype[i] = ftTime
				if m == maskDate {
					ftype[i] = ftDate
				}
				tmask = m | dtMask(tkTZ)
			} else {
				if f := dd.setNamedZone(field); f != 0 {
					return 0, f
				}
				ftype[i] = ftTZ
				tmask = dtMask(tkTZ)
			}
		case ftTime:
			m, f := decodeTime(field, tm)
			if f != 0 {
				return 0, f
			}
			tmask = m
		case ftTZ:
			w, f := decodeTimezone(field)
			if f != 0 {
				return 0, f
			}
			west, tmask = w, dtMask(tkTZ)
		case ftNumber:
			if ptype != 0 {
				val, cp, of := strtoint(field)
				if of {
					return 0, dtFieldOverflow
				}
				if cp != "" && cp[0] == '.' {
					if ptype != dkJul && ptype != dkTime && ptype != dkSec {
						return 0, dtBadFormat
					}
				} else if cp != "" {
					return 0, dtBadFormat
				}
				var f int
				tmask, f = decodeUnit(ptype, val, cp, field, fmask, tm, &west, &isJulian, &is2digits)
				if f != 0 {
					return 0, f
				}
				if ptype == dkTime {
					ftype[i] = ftTime
				}
				ptype = 0
				break
			}
			flen := len(field)
			dot := strings.IndexByte(field, '.')
			var f int
			switch {
			case dot >= 0 && i == 0 && nf >= 2 && ftype[nf-1] == ftDate:
				tmask, f = decodeDate(field, fmask, &is2digits, tm, dd.order)
			case dot >= 0 && dot > 2:
				tmask, f = decodeNumberField(field, fmask|maskDate, tm, &is2digits)
				ftype[i] = ftTime
			case dot >= 0:
				return 0, dtBadFormat
			case flen > 4:
				tmask, f = decodeNumberField(field, fmask|maskDate, tm, &is2digits)
				ftype[i] = ftTime
			default:
				tmask, f = decodeNumber(field, false, fmask|maskDate, tm, &is2digits, dd.order)
			}
			if f != 0 {
				return 0, f
			}
		case ftString, ftSpecial:
			typ, val64, loc := lookupAbbrev(field)
			val := int(val64)
			if typ == tkUnknown {
				typ, val = lookupWord(field)
			}
			if typ == tkIgnore {
				continue
			}
			tmask = dtMask(typ)
			switch typ {
			case tkReserved:
				switch val {
				case dkNow:
					tmask = maskTime
					cur := sessionNow()
					tm.hour, tm.min, tm.sec, tm.fsec = cur.hour, cur.min, cur.sec, cur.fsec
				case dkZulu:
					tmask = maskTime | dtMask(tkTZ)
					tm.hour, tm.min, tm.sec = 0, 0, 0
				default:
					return 0, dtBadFormat
				}
			case tkDTZMod:
				tmask |= dtMask(tkDTZ)
				west -= int64(val)
			case tkDTZ:
				tmask |= dtMask(tkTZ)
				west = -int64(val)
				ftype[i] = ftTZ
			case tkTZ:
				west = -int64(val)
				ftype[i] = ftTZ
			case tkDynTZ:
				tmask |= dtMask(tkTZ)
				dd.abbrevTz, dd.abbrev = loc, field
				ftype[i] = ftTZ
			case tkAMPM:
				mer = val
			case tkADBC:
				bc = val == eraBC
			case tkUnits:
				tmask = 0
				ptype = val
			case tkISOTime:
				tmask = 0
				if i >= nf-1 || ftype[i+1] != ftNumber && ftype[i+1] != ftTime && ftype[i+1] != ftDate {
					return 0, dtBadFormat
				}
				ptype = val
			case tkUnknown:
				if f := dd.setNamedZone(field); f != 0 {
					if f == dtBadZone {
						f = dtBadFormat
					}
					return 0, f
				}
				tmask = dtMask(tkTZ)
			default:
				return 0, dtBadFormat
			}
		default:
			return 0, dtBadFormat
		}
		if tmask&fmask != 0 {
			return 0, dtBadFormat
		}
		fmask |= tmask
	}
	if f := validateDate(fmask, isJulian, is2digits, bc, tm); f != 0 {
		return 0, f
	}
	if f := applyMeridian(mer, tm); f != 0 {
		return 0, f
	}
	if timeOverflows(tm.hour, tm.min, tm.sec, tm.fsec) {
		return 0, dtFieldOverflow
	}
	if fmask&maskTime != maskTime {
		return 0, dtBadFormat
	}
	if dd.namedTz != nil {
		if fmask&dtMask(tkDTZMod) != 0 {
			return 0, dtBadFormat
		}
		if east, ok := dd.namedTz.fixedOffset(); ok {
			west = -east
		} else {
			if fmask&maskDate != maskDate {
				return 0, dtBadFormat
			}
			west = zoneWestAt(tm, *dd.namedTz)
		}
	}
	if dd.posix != nil {
		if fmask&dtMask(tkDTZMod) != 0 {
			return 0, dtBadFormat
		}
		if !dd.posix.dst {
			west = dd.posix.stdWest
		} else {
			if fmask&maskDate != maskDate {
				return 0, dtBadFormat
			}
			west = 0
			if local, ok := tm.localMicros(); ok {
				west = dd.posix.westAt(local)
			}
		}
	}
	if dd.abbrevTz != nil {
		if fmask&dtMask(tkDTZMod) != 0 {
			return 0, dtBadFormat
		}
		tt := *tm
		if fmask&maskDate == 0 {
			cur := sessionNow()
			tt.year, tt.mon, tt.mday = cur.year, cur.mon, cur.mday
		} else if fmask&maskDate != maskDate {
			return 0, dtBadFormat
		}
		west = abbrevWestAt(&tt, dd.abbrev, dd.abbrevTz)
	}
	if fmask&dtMask(tkTZ) == 0 {
		if fmask&dtMask(tkDTZMod) != 0 {
			return 0, dtBadFormat
		}
		if d := fmask & maskDate; d != 0 && d != maskDate {
			return 0, dtBadFormat // the session's zone needs a whole date
		}
		west = 0 // the session's zone, UTC
		if dd.session != nil {
			// Its offset on the date given, or today's (timetz_in).
			tt := *tm
			if fmask&maskDate == 0 {
				l, _ := dd.session.local(currentInstant())
				tt.year, tt.mon, tt.mday = civilFromDays(floorDiv(l, usecsPerDay))
			}
			west = zoneWestAt(&tt, *dd.session)
		}
	}
	return west, 0
}

// dtError is PostgreSQL's DateTimeParseError for the type named typ.
func (dd *dtDecoder) dtError(fail int, typ, s string) error {
	switch fail {
	case dtFieldOverflow:
		return pgerr.New(pgerr.DatetimeOverflow, "date/time field value out of range: \"%s\"", s)
	case dtMDFieldOverflow:
		return pgerr.New(pgerr.DatetimeOverflow, "date/time field value out of range: \"%s\"", s).
			WithHint(`Perhaps you need a different "datestyle" setting.`)
	case dtTZDispOverflow:
		return pgerr.New("22009", "time zone displacement out of range: \"%s\"", s)
	case dtBadZone:
		return pgerr.New(pgerr.InvalidParameter, "time zone \"%s\" not recognized", dd.badZone)
	}
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, s)
}

// parseDate reads a date as PostgreSQL's date_in; a time of day and a
// zone, if present, are read and ignored.
func parseDate(s string) (Value, error) {
	if v, ok := parseISODate(s); ok {
		return v, nil
	}
	return parseDateGeneral(s)
}

// parseDateGeneral is parseDate's general path.
func parseDateGeneral(s string) (Value, error) { return parseDateOrder(s, OrderMDY) }

// parseDateOrder is parseDate reading an ambiguous date in order.
func parseDateOrder(s string, order DateOrder) (Value, error) {
	dd := dtDecoder{order: order}
	var tm dtFields
	fa, ta, nf, fail := splitDateTime(s)
	fields, types := fa[:nf], ta[:nf]
	dtype := 0
	if fail == 0 {
		dtype, _, fail = dd.decodeDateTime(fields, types, &tm)
	}
	if fail != 0 {
		return Null, dd.dtError(fail, "date", s)
	}
	switch dtype {
	case dkDate:
	case dkEpoch:
		tm.year, tm.mon, tm.mday = 1970, 1, 1
	case dkLate:
		return NewDate(DatePosInfinity), nil
	case dkEarly:
		return NewDate(DateNegInfinity), nil
	default:
		return Null, dd.dtError(dtBadFormat, "date", s)
	}
	outOfRange := func() error { return pgerr.New(pgerr.DatetimeOverflow, "date out of range: \"%s\"", s) }
	if !validJulian(tm.year, tm.mon) {
		return Null, outOfRange()
	}
	days := daysFromCivil(tm.year, tm.mon, tm.mday)
	if !validDate(days) {
		return Null, outOfRange()
	}
	return NewDate(days), nil
}

// parseISODate reads the form COPY and the typed API mostly meet,
// YYYY-MM-DD with a valid day of years 1 to 9999, without the general
// decoder's splitting and allocation; anything else is left to it.
func parseISODate(s string) (Value, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Null, false
	}
	var f [3]int64
	for i, r := range [3][2]int{{0, 4}, {5, 7}, {8, 10}} {
		for j := r[0]; j < r[1]; j++ {
			c := s[j]
			if c < '0' || c > '9' {
				return Null, false
			}
			f[i] = f[i]*10 + int64(c-'0')
		}
	}
	y, m, d := f[0], f[1], f[2]
	if y < 1 || m < 1 || m > 12 || d < 1 || d > 31 {
		return Null, false
	}
	days := daysFromCivil(y, m, d)
	if y2, m2, d2 := civilFromDays(days); y2 != y || m2 != m || d2 != d {
		return Null, false
	}
	return NewDate(days), true
}

// parseTimestamp reads a timestamp or timestamptz as PostgreSQL's
// timestamp_in and timestamptz_in: a timestamptz converts the zone read
// (the session's, UTC, when none) to UTC; a timestamp reads and ignores
// it.
func parseTimestamp(s string, k Kind) (Value, error) { return parseTimestampIn(s, k, nil, OrderMDY) }

// parseTimestampZone reads a timestamptz whose text has no zone as z's
// wall-clock time.
func parseTimestampZone(s string, z Zone) (Value, error) {
	return parseTimestampIn(s, TimestampTZ, &z, OrderMDY)
}

func parseTimestampIn(s string, k Kind, session *Zone, order DateOrder) (Value, error) {
	typ := "timestamp"
	if k == TimestampTZ {
		typ = "timestamp with time zone"
	}
	dd := dtDecoder{session: session, order: order}
	var tm dtFields
	fa, ta, nf, fail := splitDateTime(s)
	fields, types := fa[:nf], ta[:nf]
	dtype, west := 0, int64(0)
	if fail == 0 {
		dtype, west, fail = dd.decodeDateTime(fields, types, &tm)
	}
	if fail != 0 {
		return Null, dd.dtError(fail, typ, s)
	}
	switch dtype {
	case dkDate:
	case dkEpoch:
		return NewTimestamp(k, unixEpochMicros), nil
	case dkLate:
		return NewTimestamp(k, TimestampPosInfinity), nil
	case dkEarly:
		return NewTimestamp(k, TimestampNegInfinity), nil
	default:
		return Null, dd.dtError(dtBadFormat, typ, s)
	}
	outOfRange := func() error { return pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range: \"%s\"", s) }
	if !validJulian(tm.year, tm.mon) {
		return Null, outOfRange()
	}
	days := daysFromCivil(tm.year, tm.mon, tm.mday)
	tod := tm.secsOfDay()*usecsPerSec + tm.fsec
	us := days*usecsPerDay + tod
	if (us-tod)/usecsPerDay != days || us < 0 && days > 0 || us > 0 && days < -1 {
		return Null, outOfRange()
	}
	if k == TimestampTZ {
		us += west * usecsPerSec
	}
	if !validTimestamp(us) {
		return Null, outOfRange()
	}
	return NewTimestamp(k, us), nil
}

// parseTime reads a time or timetz as PostgreSQL's time_in and timetz_in:
// a date and a zone may come with the time; time ignores both, a timetz
// without a zone takes the session's (UTC).
func parseTime(s string, k Kind) (Value, error) { return parseTimeIn(s, k, nil) }

// parseTimeIn is parseTime with a timetz without a zone in session's
// (nil: UTC).
func parseTimeIn(s string, k Kind, session *Zone) (Value, error) {
	typ := "time"
	if k == TimeTZ {
		typ = "time with time zone"
	}
	dd := dtDecoder{session: session}
	var tm dtFields
	fa, ta, nf, fail := splitDateTime(s)
	fields, types := fa[:nf], ta[:nf]
	west := int64(0)
	if fail == 0 {
		west, fail = dd.decodeTimeOnly(fields, types, &tm)
	}
	if fail != 0 {
		return Null, dd.dtError(fail, typ, s)
	}
	tod := ((tm.hour*60+tm.min)*60+tm.sec)*usecsPerSec + tm.fsec
	if k == TimeTZ {
		if west <= -maxZone || west >= maxZone {
			// A POSIX zone name may be up to a week off UTC; a timetz
			// holds zones within 16 hours (PostgreSQL keeps any).
			return Null, dd.dtError(dtTZDispOverflow, typ, s)
		}
		return NewTimeTZ(tod, int32(west)), nil
	}
	return NewTime(tod), nil
}
