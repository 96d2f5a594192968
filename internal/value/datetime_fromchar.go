package value

import (
	"math"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Reading text by a date/time template, as PostgreSQL's to_date,
// to_timestamp and jsonpath's .datetime(template) do (its DCH_from_char
// and do_to_timestamp): the template's patterns fill fields, which then
// make a date, time or timestamp.
//
// Without FX, white space is skipped at the start and around patterns, a
// separator or space of the template matches one separator or space of
// the text or none, and any other character of the template skips one of
// the text. With FX each character of the template takes one of the
// text. Standard mode (.datetime) is FX where separators and quoted text
// must be in the text as written, and the text must end with the
// template (but for white space). In every mode a number takes its
// field's width, unless FM precedes it or the next pattern takes no
// digits, and then as many digits as there are.

// ParseDateTime is to_date(s, format) (kind Date) and to_timestamp(s,
// format) (kind TimestampTZ; the session's zone is UTC).
func ParseDateTime(s, format string, k Kind) (Value, error) {
	return parseDateTime(s, format, k, nil)
}

// ParseDateTimeZone is to_timestamp(s, format) in the session's zone z: a
// text without TZH or TZM is z's wall clock, as PostgreSQL's
// do_to_timestamp reads it.
func ParseDateTimeZone(s, format string, z Zone) (Value, error) {
	return parseDateTime(s, format, TimestampTZ, &z)
}

func parseDateTime(s, format string, k Kind, z *Zone) (Value, error) {
	nodes, _ := parseDTTemplate(format, dtReading)
	var f fromChar
	if format != "" {
		if err := f.read(nodes, s, false); err != nil {
			return Null, err
		}
	}
	tm, fsec, east, hasTz, err := f.fields(s)
	if err != nil {
		return Null, err
	}
	if k == TimestampTZ && !hasTz && z != nil && !z.IsUTC() {
		tm.fsec = fsec
		east = int(-zoneWestAt(&tm, *z))
	}
	if k == Date {
		days := daysFromCivil(tm.year, tm.mon, tm.mday)
		if !validJulian(tm.year, tm.mon) || !validDate(days) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "date out of range: \"%s\"", s)
		}
		return NewDate(days), nil
	}
	us, ok := tmToMicros(tm, fsec, east)
	if !ok {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	}
	return NewTimestamp(k, roundToPrecision(us, f.ff)), nil
}

// ParseDateTimeStd reads s by template as jsonpath's .datetime(template)
// does, in standard mode. The result's kind follows from the patterns the
// template has: a date, a time, a timetz, a timestamp or a timestamptz
// (a zone needs a time: 22007). east is the zone's offset east of UTC in
// seconds for a timetz or timestamptz. A template that is not valid in
// standard mode is an error of the template (bad is false); an error of
// the text has bad true, as jsonpath's silent mode suppresses those only.
func ParseDateTimeStd(s, template string) (v Value, east int, bad bool, err error) {
	nodes, err := parseDTTemplate(template, dtStandard)
	if err != nil {
		return Null, 0, false, err
	}
	var f fromChar
	// An empty template reads nothing (and so finds no date or time).
	if template != "" {
		if err := f.read(nodes, s, true); err != nil {
			return Null, 0, true, err
		}
	}
	v, east, err = f.result(nodes, s)
	return v, east, err != nil, err
}

// fromChar are the fields a template reads, as PostgreSQL's TmFromChar
// holds them: zero is "not given".
type fromChar struct {
	mode                         byte // 'G' Gregorian, 'I' ISO week date, 0 neither yet
	hh, pm, mi, ss, ssss         int64
	d, dd, ddd, mm, ms, year, bc int64
	ww, w, cc, j, us, yysz       int64
	clock12                      bool
	tzsign, tzh, tzm, ff         int64
}

// dtDateMode is the date convention of a pattern: Gregorian, ISO week
// date, or none.
func dtDateMode(id dtID) byte {
	switch id {
	case dtDDD, dtDD, dtD, dtMM, dtMONTH, dtMON, dtRM, dtWW, dtW, dtYcommaYYY, dtYYYY, dtYYY, dtYY, dtY:
		return 'G'
	case dtIDDD, dtIDay, dtIW, dtIYYY, dtIYY, dtIY, dtI:
		return 'I'
	}
	return 0
}

func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isSeparatorChar is ASCII punctuation: printable, not a letter or digit.
func isSeparatorChar(c byte) bool { return c > 0x20 && c < 0x7f && !isAlnum(c) }

func formatErr(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, format, args...)
}

// setInt sets a field, refusing a second, different value.
func setInt(dest *int64, x int64, n *dtNode) error {
	if *dest != 0 && *dest != x {
		return formatErr("conflicting values for \"%s\" field in formatting string", n.key.name).
			WithDetail("This value contradicts a previous setting for the same field type.")
	}
	*dest = x
	return nil
}

// nextIsSeparator tells whether the pattern after nodes[i] cannot take
// digits, so that nodes[i]'s number may take as many digits as it has.
func nextIsSeparator(nodes []dtNode, i int) bool {
	if nodes[i].key != nil && nodes[i].th {
		return true
	}
	if i+1 >= len(nodes) {
		return true
	}
	next := nodes[i+1]
	if next.key != nil {
		return !next.key.num
	}
	return !(len(next.lit) == 1 && next.lit[0] >= '0' && next.lit[0] <= '9')
}

// strtol reads a C long at the start of s as strtol(3) does (leading white
// space, a sign, decimal digits); n is the bytes used, 0 for none; rng
// reports an overflow.
func strtol(s string) (x int64, n int, rng bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var u uint64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if u <= (math.MaxUint64-9)/10 {
			u = u*10 + uint64(s[i]-'0')
		} else {
			rng = true
		}
		i++
	}
	if i == start {
		return 0, 0, false
	}
	switch {
	case neg && u > 1<<63:
		rng = true
	case !neg && u > math.MaxInt64:
		rng = true
	case neg:
		x = -int64(u)
	default:
		x = int64(u)
	}
	return x, i, rng
}

// readInt reads the number of node i at s[*pos:] into dest (nil: read and
// drop), taking width characters unless the node has FM or the next cannot
// take digits; it returns the characters used, leading space included.
func readInt(dest *int64, s string, pos *int, width int, nodes []dtNode, i int) (int, error) {
	n := &nodes[i]
	init := *pos
	p := init
	for p < len(s) && isCSpace(s[p]) {
		p++
	}
	rest := s[p:]
	cp := rest
	if len(cp) > width {
		cp = cp[:width]
	}
	var x int64
	var rng bool
	if n.fm || nextIsSeparator(nodes, i) {
		var used int
		x, used, rng = strtol(s[init:])
		p = init + used
	} else {
		if len(rest) < width {
			return 0, formatErr("source string too short for \"%s\" formatting field", n.key.name).
				WithDetail("Field requires %d characters, but only %d remain.", width, len(rest)).
				WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
		}
		var used int
		x, used, rng = strtol(cp)
		if used > 0 && used < width {
			return 0, formatErr("invalid value \"%s\" for \"%s\"", cp, n.key.name).
				WithDetail("Field requires %d characters, but only %d could be parsed.", width, used).
				WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
		}
		p += used
	}
	if p == init {
		return 0, formatErr("invalid value \"%s\" for \"%s\"", cp, n.key.name).WithDetail("Value must be an integer.")
	}
	if rng || x < math.MinInt32 || x > math.MaxInt32 {
		return 0, pgerr.New(pgerr.DatetimeOverflow, "value for \"%s\" in source string is out of range", n.key.name).
			WithDetail("Value must be in the range %d to %d.", math.MinInt32, math.MaxInt32)
	}
	if dest != nil {
		if err := setInt(dest, x, n); err != nil {
			return 0, err
		}
	}
	*pos = p
	return p - init, nil
}

// seqSearch finds the first of words that s starts with, ignoring ASCII
// case.
func seqSearch(s string, words []string, n *dtNode) (int, int, error) {
	for idx, w := range words {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) {
			return idx, len(w), nil
		}
	}
	word := s
	if k := strings.IndexAny(s, " \t\n\r\f"); k >= 0 {
		word = s[:k]
	}
	return 0, 0, formatErr("invalid value \"%s\" for \"%s\"", word, n.key.name).
		WithDetail("The given value did not match any of the allowed values for this field.")
}

var (
	dtMonthAbbrevs = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	dtDayAbbrevs   = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	dtRomanDesc    = []string{"xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i"}
)

// read matches s against the template, filling f; std is standard mode.
func (f *fromChar) read(nodes []dtNode, s string, std bool) error {
	pos := 0
	i := 0
	fx := std
	extra := 0 // characters skipped beyond those the template gives
	skipSpace := func() {
		for pos < len(s) && isCSpace(s[pos]) {
			pos++
			extra++
		}
	}
	for ; i < len(nodes) && pos < len(s); i++ {
		n := &nodes[i]
		if !fx && (n.key == nil && i == 0 || n.key != nil && n.key.id != dtFX) {
			skipSpace()
		}
		if n.key == nil {
			_, size := decodeRune(s[pos:])
			switch {
			case n.kind != dtChar && std:
				if pos >= len(s) || s[pos] != n.lit[0] {
					return formatErr("unmatched format separator \"%s\"", n.lit)
				}
				pos++
			case n.kind != dtChar && !fx:
				extra--
				if pos < len(s) && (isCSpace(s[pos]) || isSeparatorChar(s[pos])) {
					pos++
					extra++
				}
			case n.kind != dtChar:
				pos += size
			case !fx:
				if extra > 0 {
					extra--
				} else {
					pos += size
				}
			default:
				if std && (pos >= len(s) || s[pos:pos+size] != n.lit) {
					return formatErr("unmatched format character \"%s\"", n.lit)
				}
				pos += size
			}
			continue
		}
		if m := dtDateMode(n.key.id); m != 0 {
			if f.mode == 0 {
				f.mode = m
			} else if f.mode != m {
				return formatErr("invalid combination of date conventions").
					WithHint("Do not mix Gregorian and ISO week date conventions in a formatting template.")
			}
		}
		num := func(dest *int64, width int) (int, error) { return readInt(dest, s, &pos, width, nodes, i) }
		var err error
		skipTH := true
		switch id := n.key.id; id {
		case dtFX:
			fx = true
			skipTH = false
		case dtAM, dtPM, dtAMdots, dtPMdots:
			words := []string{"am", "pm", "AM", "PM"}
			if id == dtAMdots || id == dtPMdots {
				words = []string{"a.m.", "p.m.", "A.M.", "P.M."}
			}
			var idx, l int
			if idx, l, err = seqSearch(s[pos:], words, n); err == nil {
				pos += l
				err = setInt(&f.pm, int64(idx%2), n)
				f.clock12 = true
			}
			skipTH = false
		case dtAD, dtBC, dtADdots, dtBCdots:
			words := []string{"ad", "bc", "AD", "BC"}
			if id == dtADdots || id == dtBCdots {
				words = []string{"a.d.", "b.c.", "A.D.", "B.C."}
			}
			var idx, l int
			if idx, l, err = seqSearch(s[pos:], words, n); err == nil {
				pos += l
				err = setInt(&f.bc, int64(idx%2), n)
			}
			skipTH = false
		case dtMONTH, dtMON:
			words := monthNames
			if id == dtMON {
				words = dtMonthAbbrevs
			}
			var idx, l int
			if idx, l, err = seqSearch(s[pos:], words, n); err == nil {
				pos += l
				err = setInt(&f.mm, int64(idx)+1, n)
			}
			skipTH = false
		case dtDAY, dtDY:
			words := dayNames
			if id == dtDY {
				words = dtDayAbbrevs
			}
			var idx, l int
			if idx, l, err = seqSearch(s[pos:], words, n); err == nil {
				pos += l
				err = setInt(&f.d, int64(idx), n)
				f.d++
			}
			skipTH = false
		case dtRM:
			var idx, l int
			if idx, l, err = seqSearch(s[pos:], dtRomanDesc, n); err == nil {
				pos += l
				err = setInt(&f.mm, int64(12-idx), n)
			}
			skipTH = false
		case dtHH, dtHH12:
			_, err = num(&f.hh, 2)
			f.clock12 = true
		case dtHH24:
			_, err = num(&f.hh, 2)
		case dtMI:
			_, err = num(&f.mi, 2)
		case dtSS:
			_, err = num(&f.ss, 2)
		case dtMS:
			var l int
			// "5" is 500 ms, "05" 50 ms: the characters used count.
			if l, err = num(&f.ms, 3); err == nil && l < 3 {
				f.ms = wrap32(f.ms * int64(math.Pow10(3-l)))
			}
		case dtFF1, dtFF2, dtFF3, dtFF4, dtFF5, dtFF6, dtUS:
			width := 6
			if id != dtUS {
				f.ff = int64(id-dtFF1) + 1
				width = int(f.ff)
			}
			var l int
			if l, err = num(&f.us, width); err == nil && l < 6 {
				f.us = wrap32(f.us * int64(math.Pow10(6-l)))
			}
		case dtSSSS, dtSSSSS:
			_, err = num(&f.ssss, len(n.key.name))
		case dtTZ, dtOF:
			return pgerr.New(pgerr.FeatureNotSupported, "formatting field \"%s\" is only supported in to_char", n.key.name)
		case dtTZH:
			// A minus taken as a separator is the zone's sign.
			f.tzsign = 1
			if pos < len(s) && (s[pos] == '+' || s[pos] == '-' || s[pos] == ' ') {
				if s[pos] == '-' {
					f.tzsign = -1
				}
				pos++
			} else if extra > 0 && pos > 0 && s[pos-1] == '-' {
				f.tzsign = -1
			}
			_, err = num(&f.tzh, 2)
			skipTH = false
		case dtTZM:
			if f.tzsign == 0 {
				f.tzsign = 1
			}
			_, err = num(&f.tzm, 2)
			skipTH = false
		case dtMM:
			_, err = num(&f.mm, 2)
		case dtDDD:
			_, err = num(&f.ddd, 3)
		case dtIDDD:
			_, err = num(&f.ddd, 3)
		case dtDD:
			_, err = num(&f.dd, 2)
		case dtD:
			_, err = num(&f.d, 1)
		case dtIDay:
			if _, err = num(&f.d, 1); err == nil {
				if f.d++; f.d > 7 {
					f.d = 1
				}
			}
		case dtWW, dtIW:
			_, err = num(&f.ww, 2)
		case dtQ:
			_, err = num(nil, 1)
		case dtCC:
			_, err = num(&f.cc, 2)
		case dtYcommaYYY:
			err = f.readYcommaYYY(s, &pos, n)
		case dtYYYY, dtIYYY:
			_, err = num(&f.year, 4)
			f.yysz = 4
		case dtYYY, dtIYY, dtYY, dtIY, dtY, dtI:
			width := map[dtID]int{dtYYY: 3, dtIYY: 3, dtYY: 2, dtIY: 2, dtY: 1, dtI: 1}[id]
			var l int
			if l, err = num(&f.year, width); err == nil {
				if l < 4 {
					f.year = adjustPartialYear(f.year)
				}
				f.yysz = int64(width)
			}
		case dtW:
			_, err = num(&f.w, 1)
		case dtJ:
			_, err = num(&f.j, 1)
		}
		if err != nil {
			return err
		}
		if skipTH && n.th {
			for k := 0; k < 2 && pos < len(s); k++ {
				_, size := decodeRune(s[pos:])
				pos += size
			}
		}
		if !fx {
			extra = 0
			skipSpace()
		}
	}
	if !std {
		return nil
	}
	if i < len(nodes) {
		return formatErr("input string is too short for datetime format")
	}
	for pos < len(s) && isCSpace(s[pos]) {
		pos++
	}
	if pos < len(s) {
		return formatErr("trailing characters remain in input string after datetime format")
	}
	return nil
}

// readYcommaYYY reads Y,YYY as sscanf's "%d,%03d" does.
func (f *fromChar) readYcommaYYY(s string, pos *int, n *dtNode) error {
	bad := formatErr("invalid input string for \"Y,YYY\"")
	mill, used, rng := strtol(s[*pos:])
	if used == 0 || rng || mill < math.MinInt32 || mill > math.MaxInt32 {
		return bad
	}
	p := *pos + used
	if p >= len(s) || s[p] != ',' {
		return bad
	}
	p++
	q := p
	for q < len(s) && isCSpace(s[q]) {
		q++
	}
	r := q
	if r < len(s) && (s[r] == '+' || s[r] == '-') {
		r++
	}
	for r < len(s) && r-q < 3 && s[r] >= '0' && s[r] <= '9' {
		r++
	}
	years, err := strconv.ParseInt(s[q:r], 10, 64)
	if err != nil {
		return bad
	}
	y := wrap32(mill*1000 + years)
	if err := setInt(&f.year, y, n); err != nil {
		return err
	}
	f.yysz = 4
	*pos = r
	return nil
}

// wrap32 is x in C's 32-bit int arithmetic, which PostgreSQL 15 uses for
// these fields without checking for overflow (an out-of-range result is
// then caught as an invalid date or time).
func wrap32(x int64) int64 { return int64(int32(x)) }

// adjustPartialYear takes a year of fewer than four digits to the one
// nearest 2020, as PostgreSQL's adjust_partial_year_to_2020.
func adjustPartialYear(y int64) int64 {
	switch {
	case y < 70:
		return y + 2000
	case y < 100:
		return y + 1900
	case y < 520:
		return y + 2000
	case y < 1000:
		return y + 1000
	}
	return y
}

// isoWeekJulian is the Julian day of the first day of ISO week week of
// ISO year year.
func isoWeekJulian(year, week int64) int64 {
	day4 := daysFromCivil(year, 1, 4) + julianOffset
	day0 := floorMod(day4, 7) // j2day(day4 - 1): 0 is Sunday
	return (week-1)*7 + (day4 - day0)
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// fields turns what was read into the fields of a date and time of day,
// the fraction of a second and the zone given (east of UTC; hasTz false
// for none), as PostgreSQL's do_to_timestamp does.
func (f *fromChar) fields(s string) (tm dtFields, fsec int64, east int, hasTz bool, err error) {
	overflow := func() error {
		return pgerr.New(pgerr.DatetimeOverflow, "date/time field value out of range: \"%s\"", s)
	}
	tm.mon, tm.mday = 1, 1
	if f.ssss != 0 {
		tm.hour, tm.min, tm.sec = f.ssss/3600, f.ssss%3600/60, f.ssss%60
	}
	if f.ss != 0 {
		tm.sec = f.ss
	}
	if f.mi != 0 {
		tm.min = f.mi
	}
	if f.hh != 0 {
		tm.hour = f.hh
	}
	if f.clock12 {
		if tm.hour < 1 || tm.hour > 12 {
			return tm, 0, 0, false, formatErr("hour \"%d\" is invalid for the 12-hour clock", tm.hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if f.pm != 0 && tm.hour < 12 {
			tm.hour += 12
		} else if f.pm == 0 && tm.hour == 12 {
			tm.hour = 0
		}
	}
	fmask := 0
	switch {
	case f.year != 0:
		if f.cc != 0 && f.yysz <= 2 {
			cc := f.cc
			if f.bc != 0 {
				cc = -cc
			}
			tm.year = f.year % 100
			switch {
			case tm.year == 0:
				tm.year = cc * 100
				if cc < 0 {
					tm.year++
				}
			case cc >= 0:
				tm.year += (cc - 1) * 100
			default:
				tm.year = (cc+1)*100 - tm.year + 1
			}
			tm.year = wrap32(tm.year)
		} else {
			tm.year = f.year
			if f.bc != 0 {
				tm.year = -tm.year
			}
			if tm.year < 0 {
				tm.year++
			}
		}
		fmask |= dtMask(tkYear)
	case f.cc != 0:
		cc := f.cc
		if f.bc != 0 {
			cc = -cc
		}
		if cc >= 0 {
			tm.year = (cc-1)*100 + 1
		} else {
			tm.year = cc*100 + 1
		}
		tm.year = wrap32(tm.year)
		fmask |= dtMask(tkYear)
	}
	if f.j != 0 {
		tm.year, tm.mon, tm.mday = julianToDate(f.j)
		fmask |= maskDate
	}
	ddd, dd := f.ddd, f.dd
	if f.ww != 0 {
		if f.mode == 'I' {
			j := isoWeekJulian(tm.year, f.ww)
			if f.d != 0 {
				if f.d > 1 {
					j += f.d - 2
				} else {
					j += 6
				}
			}
			tm.year, tm.mon, tm.mday = julianToDate(j)
			fmask |= maskDate
		} else {
			ddd = wrap32((f.ww-1)*7 + 1)
		}
	}
	if f.w != 0 {
		dd = wrap32((f.w-1)*7 + 1)
	}
	if dd != 0 {
		tm.mday = dd
		fmask |= dtMask(tkDay)
	}
	if f.mm != 0 {
		tm.mon = f.mm
		fmask |= dtMask(tkMonth)
	}
	if ddd != 0 && (tm.mon <= 1 || tm.mday <= 1) {
		if tm.year == 0 && f.bc == 0 {
			return tm, 0, 0, false, formatErr("cannot calculate day of year without year information")
		}
		if f.mode == 'I' {
			j0 := isoWeekJulian(tm.year, 1) - 1
			tm.year, tm.mon, tm.mday = julianToDate(j0 + ddd)
			fmask |= maskDate
		} else {
			var cum [13]int64
			for m := int64(1); m <= 12; m++ {
				cum[m] = cum[m-1] + daysInMonth(tm.year, m)
			}
			m := int64(1)
			for ; m <= 12 && ddd > cum[m]; m++ {
			}
			if tm.mon <= 1 {
				tm.mon = m
			}
			if tm.mday <= 1 {
				tm.mday = ddd - cum[m-1]
			}
			fmask |= dtMask(tkMonth) | dtMask(tkDay)
		}
	}
	fsec = wrap32(wrap32(f.ms*1000) + f.us)
	if fmask != 0 && validateDate(fmask, true, false, false, &tm) != 0 {
		return tm, 0, 0, false, overflow()
	}
	if tm.hour < 0 || tm.hour >= 24 || tm.min < 0 || tm.min >= 60 || tm.sec < 0 || tm.sec >= 60 || fsec < 0 || fsec >= usecsPerSec {
		return tm, 0, 0, false, overflow()
	}
	if f.tzsign != 0 {
		if f.tzh < 0 || f.tzh > 15 || f.tzm < 0 || f.tzm >= 60 {
			return tm, 0, 0, false, pgerr.New("22009", "time zone displacement out of range: \"%s\"", s)
		}
		east = int((f.tzh*60 + f.tzm) * 60)
		if f.tzsign < 0 {
			east = -east
		}
		hasTz = true
	}
	return tm, fsec, east, hasTz, nil
}

// tmToMicros is a timestamp's microseconds from its fields, less the
// zone's offset; ok is false out of range.
func tmToMicros(tm dtFields, fsec int64, east int) (int64, bool) {
	if !validJulian(tm.year, tm.mon) {
		return 0, false
	}
	days := daysFromCivil(tm.year, tm.mon, tm.mday)
	if days > math.MaxInt64/usecsPerDay-1 || days < math.MinInt64/usecsPerDay+1 {
		return 0, false
	}
	tod := ((tm.hour*60+tm.min)*60+tm.sec)*usecsPerSec + fsec
	us := days*usecsPerDay + tod - int64(east)*usecsPerSec
	return us, validTimestamp(us)
}

// result is the datetime that the fields make, its kind following from
// the template's patterns, as PostgreSQL's parse_datetime makes it.
func (f *fromChar) result(nodes []dtNode, s string) (Value, int, error) {
	tm, fsec, east, _, err := f.fields(s)
	if err != nil {
		return Null, 0, err
	}
	dated, timed, zoned := false, false, false
	for _, n := range nodes {
		if n.key == nil {
			continue
		}
		switch n.key.id {
		case dtFX, dtIW: // PostgreSQL 15 counts IW as neither
		case dtAM, dtPM, dtAMdots, dtPMdots, dtHH, dtHH12, dtHH24, dtMI, dtSS, dtMS, dtUS,
			dtFF1, dtFF2, dtFF3, dtFF4, dtFF5, dtFF6, dtSSSS, dtSSSSS:
			timed = true
		case dtTZ, dtOF, dtTZH, dtTZM:
			zoned = true
		default:
			dated = true
		}
	}
	tod := ((tm.hour*60+tm.min)*60+tm.sec)*usecsPerSec + fsec
	switch {
	case dated && timed:
		us, ok := tmToMicros(tm, fsec, east)
		if !ok {
			return Null, 0, timestampRange(zoned)
		}
		us = roundToPrecision(us, f.ff)
		if zoned {
			return NewTimestamp(TimestampTZ, us), east, nil
		}
		return NewTimestamp(Timestamp, us), 0, nil
	case dated && zoned:
		return Null, 0, formatErr("datetime format is zoned but not timed")
	case dated:
		days := daysFromCivil(tm.year, tm.mon, tm.mday)
		if !validJulian(tm.year, tm.mon) || !validDate(days) {
			return Null, 0, pgerr.New(pgerr.DatetimeOverflow, "date out of range: \"%s\"", s)
		}
		return NewDate(days), 0, nil
	case timed:
		tod = roundToPrecision(tod, f.ff)
		if zoned {
			return NewTimeTZ(tod, int32(-east)), east, nil
		}
		return NewTime(tod), 0, nil
	}
	return Null, 0, formatErr("datetime format is not dated and not timed")
}

func timestampRange(zoned bool) error {
	if zoned {
		return pgerr.New(pgerr.DatetimeOverflow, "timestamptz out of range")
	}
	return pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
}

// roundToPrecision rounds microseconds to p fraction digits (1 to 5; 0
// and 6 leave them), as a typmod does.
func roundToPrecision(us, p int64) int64 {
	if p <= 0 || p >= 6 {
		return us
	}
	scale := int64(math.Pow10(int(6 - p)))
	if us >= 0 {
		return (us + scale/2) / scale * scale
	}
	return -((-us + scale/2) / scale * scale)
}
