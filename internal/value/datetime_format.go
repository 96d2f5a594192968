package value

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// PostgreSQL's date/time template patterns, for to_char of dates and
// timestamps and for to_date and to_timestamp. A pattern matches case
// sensitively, longest first; FM (fill mode: no padding) and TM may
// prefix it, TH or th (an ordinal suffix) follow it; text in double
// quotes, and any other character, is copied.
type dtKey struct {
	name string
	id   dtID
	num  bool // a number (FM strips its padding, TH applies)
}

type dtID uint8

const (
	dtADdots dtID = iota
	dtAMdots
	dtAD
	dtAM
	dtBCdots
	dtBC
	dtCC
	dtDAY
	dtDDD
	dtDD
	dtDY
	dtD
	dtFF1
	dtFF2
	dtFF3
	dtFF4
	dtFF5
	dtFF6
	dtFX
	dtHH24
	dtHH12
	dtHH
	dtIDDD
	dtIDay
	dtIW
	dtIYYY
	dtIYY
	dtIY
	dtI
	dtJ
	dtMI
	dtMM
	dtMONTH
	dtMON
	dtMS
	dtOF
	dtPMdots
	dtPM
	dtQ
	dtRM
	dtSSSSS
	dtSSSS
	dtSS
	dtTZH
	dtTZM
	dtTZ
	dtUS
	dtWW
	dtW
	dtYcommaYYY
	dtYYYY
	dtYYY
	dtYY
	dtY
)

// dtKeys is PostgreSQL's keyword table: within one first letter, longer
// patterns come first.
var dtKeys = func() []dtKey {
	up := []dtKey{
		{"A.D.", dtADdots, false}, {"A.M.", dtAMdots, false}, {"AD", dtAD, false}, {"AM", dtAM, false},
		{"B.C.", dtBCdots, false}, {"BC", dtBC, false}, {"CC", dtCC, true},
		{"DAY", dtDAY, false}, {"DDD", dtDDD, true}, {"DD", dtDD, true}, {"DY", dtDY, false},
		{"Day", dtDAY, false}, {"Dy", dtDY, false}, {"D", dtD, true},
		{"FF1", dtFF1, true}, {"FF2", dtFF2, true}, {"FF3", dtFF3, true}, {"FF4", dtFF4, true},
		{"FF5", dtFF5, true}, {"FF6", dtFF6, true}, {"FX", dtFX, false},
		{"HH24", dtHH24, true}, {"HH12", dtHH12, true}, {"HH", dtHH, true},
		{"IDDD", dtIDDD, true}, {"ID", dtIDay, true}, {"IW", dtIW, true}, {"IYYY", dtIYYY, true},
		{"IYY", dtIYY, true}, {"IY", dtIY, true}, {"I", dtI, true}, {"J", dtJ, true},
		{"MI", dtMI, true}, {"MM", dtMM, true}, {"MONTH", dtMONTH, false}, {"MON", dtMON, false},
		{"MS", dtMS, true}, {"Month", dtMONTH, false}, {"Mon", dtMON, false},
		{"OF", dtOF, false}, {"P.M.", dtPMdots, false}, {"PM", dtPM, false}, {"Q", dtQ, true},
		{"RM", dtRM, false}, {"SSSSS", dtSSSSS, true}, {"SSSS", dtSSSS, true}, {"SS", dtSS, true},
		{"TZH", dtTZH, false}, {"TZM", dtTZM, true}, {"TZ", dtTZ, false}, {"US", dtUS, true},
		{"WW", dtWW, true}, {"W", dtW, true},
		{"Y,YYY", dtYcommaYYY, true}, {"YYYY", dtYYYY, true}, {"YYY", dtYYY, true}, {"YY", dtYY, true}, {"Y", dtY, true},
	}
	all := up
	for _, k := range up {
		if strings.ToUpper(k.name) == k.name {
			l := k
			l.name = strings.ToLower(k.name)
			all = append(all, l)
		}
	}
	return all
}()

// dtNode is one piece of a parsed template: a pattern with its modifiers,
// or literal text. In standard mode each literal character is a node of
// its own, quoted text (matched exactly) or a separator.
type dtNode struct {
	key    *dtKey
	fm, th bool
	upperT bool // TH rather than th
	lit    string
	quoted bool // standard mode: a character of quoted text
}

func parseDTFormat(f string) []dtNode {
	nodes, _ := parseDTTemplate(f, false)
	return nodes
}

// dtStdSeparators are the characters a standard-mode template may have
// outside patterns and quoted text.
const dtStdSeparators = "-./,':; "

// parseDTTemplate parses template f; std is the standard mode of
// jsonpath's .datetime(template), where text outside patterns and double
// quotes must be one of dtStdSeparators (22007 otherwise).
func parseDTTemplate(f string, std bool) ([]dtNode, error) {
	var nodes []dtNode
	lit := func(s string) {
		if std {
			for _, r := range s {
				nodes = append(nodes, dtNode{lit: string(r), quoted: true})
			}
			return
		}
		if n := len(nodes); n > 0 && nodes[n-1].key == nil {
			nodes[n-1].lit += s
			return
		}
		nodes = append(nodes, dtNode{lit: s})
	}
	for i := 0; i < len(f); {
		fm := false
		for {
			switch {
			case strings.HasPrefix(f[i:], "FM"), strings.HasPrefix(f[i:], "fm"):
				fm = true
				i += 2
				continue
			case strings.HasPrefix(f[i:], "TM"), strings.HasPrefix(f[i:], "tm"):
				i += 2
				continue
			}
			break
		}
		var key *dtKey
		for j := range dtKeys {
			if strings.HasPrefix(f[i:], dtKeys[j].name) {
				key = &dtKeys[j]
				break
			}
		}
		if key != nil {
			i += len(key.name)
			n := dtNode{key: key, fm: fm}
			switch {
			case strings.HasPrefix(f[i:], "TH"):
				n.th, n.upperT = true, true
				i += 2
			case strings.HasPrefix(f[i:], "th"):
				n.th = true
				i += 2
			}
			nodes = append(nodes, n)
			continue
		}
		if i >= len(f) {
			break
		}
		if c := f[i]; std && c != '"' {
			_, size := decodeRune(f[i:])
			if !strings.Contains(dtStdSeparators, f[i:i+size]) {
				return nil, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid datetime format separator: \"%s\"", f[i:i+size])
			}
			nodes = append(nodes, dtNode{lit: f[i : i+1]})
			i++
			continue
		}
		switch c := f[i]; {
		case c == '"':
			j := i + 1
			var b strings.Builder
			for j < len(f) && f[j] != '"' {
				if f[j] == '\\' && j+1 < len(f) {
					j++
				}
				b.WriteByte(f[j])
				j++
			}
			lit(b.String())
			i = j + 1
		case c == '\\' && i+1 < len(f) && f[i+1] == '"':
			lit(`"`)
			i += 2
		default:
			_, size := decodeRune(f[i:])
			lit(f[i : i+size])
			i += size
		}
	}
	return nodes, nil
}

func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August",
		"September", "October", "November", "December"}
	dayNames   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	romanMonth = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}
)

// ordinal is the English ordinal suffix of the number s ends with.
func ordinal(s string) string {
	n := len(s)
	if n == 0 || s[n-1] < '0' || s[n-1] > '9' {
		return ""
	}
	last := s[n-1]
	if n > 1 && s[n-2] == '1' {
		return "th"
	}
	switch last {
	case '1':
		return "st"
	case '2':
		return "nd"
	case '3':
		return "rd"
	}
	return "th"
}

// caseLike gives name the case of the pattern: all upper, all lower, or
// capitalized.
func caseLike(pattern, name string) string {
	switch {
	case pattern == strings.ToUpper(pattern):
		return strings.ToUpper(name)
	case pattern == strings.ToLower(pattern):
		return strings.ToLower(name)
	}
	return name
}

func padNum(n int64, width int, fm bool) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	if !fm {
		for len(s) < width {
			s = "0" + s
		}
	}
	if neg {
		s = "-" + s
	}
	return s
}

// FormatDateTime is to_char(v, format) for a date, timestamp or
// timestamptz (in UTC). An infinite value formats as NULL, as in
// PostgreSQL.
func FormatDateTime(v Value, format string) (Value, error) {
	us := v.n
	if v.kind == Date {
		if !dateIsFinite(v.n) {
			return Null, nil
		}
		us = v.n * usecsPerDay
	} else if !tsIsFinite(us) {
		return Null, nil
	}
	f := splitTimestamp(us)
	// PostgreSQL's years: 1 BC is year 1 with the BC indicator.
	bc := f.y <= 0
	year := f.y
	if bc {
		year = 1 - f.y
	}
	iy, iw := f.isoWeek()
	if iy <= 0 {
		iy = 1 - iy
	}
	doy := f.days - daysFromCivil(f.y, 1, 1) + 1
	dow := floorDiv(f.days+julianOffset+1, 7)
	dow = f.days + julianOffset + 1 - dow*7
	isodow := dow
	if isodow == 0 {
		isodow = 7
	}
	var b strings.Builder
	for _, n := range parseDTFormat(format) {
		if n.key == nil {
			b.WriteString(n.lit)
			continue
		}
		name := n.key.name
		var s string
		pad := func(x int64, w int) { s = padNum(x, w, n.fm) }
		text := func(word string, width int) {
			s = caseLike(name, word)
			if !n.fm {
				for len(s) < width {
					s += " "
				}
			}
		}
		switch n.key.id {
		case dtAD, dtBC:
			s = map[bool]string{false: "AD", true: "BC"}[bc]
			s = caseLike(name, s)
		case dtADdots, dtBCdots:
			s = map[bool]string{false: "A.D.", true: "B.C."}[bc]
			s = caseLike(name, s)
		case dtAM, dtPM:
			s = map[bool]string{false: "AM", true: "PM"}[f.h >= 12]
			s = caseLike(name, s)
		case dtAMdots, dtPMdots:
			s = map[bool]string{false: "A.M.", true: "P.M."}[f.h >= 12]
			s = caseLike(name, s)
		case dtCC:
			c := (f.y + 99) / 100
			if f.y <= 0 {
				c = f.y/100 - 1
			}
			pad(c, 2)
		case dtDAY:
			text(dayNames[dow], 9)
		case dtDY:
			text(dayNames[dow][:3], 0)
		case dtDDD:
			pad(doy, 3)
		case dtDD:
			pad(f.d, 2)
		case dtD:
			pad(dow+1, 0)
		case dtFF1, dtFF2, dtFF3, dtFF4, dtFF5, dtFF6:
			digits := int(n.key.id-dtFF1) + 1
			x := f.us
			for i := digits; i < 6; i++ {
				x /= 10
			}
			s = padNum(x, digits, false)
		case dtFX:
			s = ""
		case dtHH24:
			pad(f.h, 2)
		case dtHH12, dtHH:
			h := f.h % 12
			if h == 0 {
				h = 12
			}
			pad(h, 2)
		case dtIDDD:
			// Days since the ISO year's first Monday.
			jan4 := daysFromCivil(isoYearAstro(f), 1, 4)
			jd := floorDiv(jan4+julianOffset+1, 7)
			wd := jan4 + julianOffset + 1 - jd*7 // 0 = Sunday
			if wd == 0 {
				wd = 7
			}
			pad(f.days-(jan4-(wd-1))+1, 3)
		case dtIDay:
			pad(isodow, 0)
		case dtIW:
			pad(iw, 2)
		case dtIYYY:
			pad(iy, 4)
		case dtIYY:
			pad(iy%1000, 3)
		case dtIY:
			pad(iy%100, 2)
		case dtI:
			pad(iy%10, 1)
		case dtJ:
			pad(f.days+julianOffset, 0)
		case dtMI:
			pad(f.mi, 2)
		case dtMM:
			pad(f.m, 2)
		case dtMONTH:
			text(monthNames[f.m-1], 9)
		case dtMON:
			text(monthNames[f.m-1][:3], 0)
		case dtMS:
			pad(f.us/1000, 3)
		case dtOF, dtTZH:
			s = "+00"
		case dtTZM:
			pad(0, 2)
		case dtTZ:
			if v.kind == TimestampTZ {
				s = caseLike(name, "UTC")
			}
		case dtQ:
			pad((f.m-1)/3+1, 0)
		case dtRM:
			text(romanMonth[f.m-1], 4)
		case dtSSSSS, dtSSSS:
			pad((f.h*60+f.mi)*60+f.s, 0)
		case dtSS:
			pad(f.s, 2)
		case dtUS:
			pad(f.us, 6)
		case dtWW:
			pad((doy-1)/7+1, 2)
		case dtW:
			pad((f.d-1)/7+1, 0)
		case dtYcommaYYY:
			s = strconv.FormatInt(year/1000, 10) + "," + padNum(year%1000, 3, false)
		case dtYYYY:
			pad(year, 4)
		case dtYYY:
			pad(year%1000, 3)
		case dtYY:
			pad(year%100, 2)
		case dtY:
			pad(year%10, 1)
		}
		if n.th && n.key.num {
			suf := ordinal(s)
			if n.upperT {
				suf = strings.ToUpper(suf)
			}
			s += suf
		}
		b.WriteString(s)
	}
	return NewText(Text, b.String()), nil
}

func isoYearAstro(f tsFields) int64 {
	y, _ := f.isoWeek()
	return y
}

// dtParse accumulates the fields to_date and to_timestamp read.
type dtParse struct {
	year, month, day, doy    int64
	hasYear, bc, pm, hasAmPm bool
	yearDigits               int
	hour, min, sec, us       int64
	julian                   int64
	hasJulian                bool
	hour12                   bool
}

// ParseDateTime is to_date(s, format) (kind Date) and to_timestamp(s,
// format) (kind TimestampTZ), read as PostgreSQL reads them without FX: a
// number takes as many digits as it has (its width when the next pattern
// follows without a separator), a name matches case-insensitively,
// separators and spaces in the text match any separator or space, a
// literal skips as many characters as it has.
func ParseDateTime(s, format string, k Kind) (Value, error) {
	nodes := parseDTFormat(format)
	p := dtParse{month: 1, day: 1}
	i := 0
	bad := func(what, key string) error {
		return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value %q for %q", what, key).
			WithDetail("Value must be an integer.")
	}
	for ni, n := range nodes {
		if n.key == nil {
			for _, c := range n.lit {
				if i >= len(s) {
					break
				}
				if c == ' ' {
					for i < len(s) && isSpace(s[i]) {
						i++
					}
					continue
				}
				// A separator in the template skips spaces before a
				// separator of the text.
				for i < len(s) && isSpace(s[i]) {
					i++
				}
				if i < len(s) {
					_, size := decodeRune(s[i:])
					i += size
				}
			}
			continue
		}
		for i < len(s) && isSpace(s[i]) && n.key.id != dtFX {
			i++
		}
		if n.key.num {
			width := numWidth(n.key.id)
			next := ni+1 < len(nodes) && nodes[ni+1].key != nil && nodes[ni+1].key.num
			j := i
			if j < len(s) && (s[j] == '-' || s[j] == '+') && (n.key.id == dtYYYY || n.key.id == dtJ) {
				j++
			}
			for j < len(s) && s[j] >= '0' && s[j] <= '9' && (!next || j-i < width) {
				j++
			}
			if j == i {
				end := i
				for end < len(s) && !isSpace(s[end]) && end-i < width {
					end++
				}
				return Null, bad(s[i:end], n.key.name)
			}
			x, err := strconv.ParseInt(s[i:j], 10, 64)
			if err != nil {
				return Null, pgerr.New(pgerr.DatetimeOverflow, "value for %q in source string is out of range", n.key.name)
			}
			digits := j - i
			i = j
			if n.th && i+2 <= len(s) {
				i += 2
			}
			if err := p.set(n.key.id, x, digits); err != nil {
				return Null, err
			}
			continue
		}
		rest := s[i:]
		match := func(words []string, abbrev bool) (int, bool) {
			for idx, w := range words {
				if abbrev {
					w = w[:3]
				}
				if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) {
					i += len(w)
					return idx, true
				}
			}
			return 0, false
		}
		switch n.key.id {
		case dtMONTH, dtMON:
			m, ok := match(monthNames, n.key.id == dtMON)
			if !ok {
				return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value %q for %q", firstWord(rest), n.key.name).
					WithDetail("The given value did not match any of the allowed values for this field.")
			}
			p.month = int64(m) + 1
		case dtDAY, dtDY:
			if _, ok := match(dayNames, n.key.id == dtDY); !ok {
				return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value %q for %q", firstWord(rest), n.key.name).
					WithDetail("The given value did not match any of the allowed values for this field.")
			}
		case dtRM:
			// Longest numerals first.
			best := -1
			for idx, r := range romanMonth {
				if len(rest) >= len(r) && strings.EqualFold(rest[:len(r)], r) && (best < 0 || len(r) > len(romanMonth[best])) {
					best = idx
				}
			}
			if best < 0 {
				return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value %q for %q", firstWord(rest), n.key.name)
			}
			i += len(romanMonth[best])
			p.month = int64(best) + 1
		case dtAM, dtPM, dtAMdots, dtPMdots:
			words := []string{"AM", "PM"}
			if n.key.id == dtAMdots || n.key.id == dtPMdots {
				words = []string{"A.M.", "P.M."}
			}
			idx, ok := match(words, false)
			if !ok {
				return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value %q for %q", firstWord(rest), n.key.name).
					WithDetail("The given value did not match any of the allowed values for this field.")
			}
			p.hasAmPm, p.pm = true, idx == 1
		case dtAD, dtBC, dtADdots, dtBCdots:
			words := []string{"AD", "BC"}
			if n.key.id == dtADdots || n.key.id == dtBCdots {
				words = []string{"A.D.", "B.C."}
			}
			idx, ok := match(words, false)
			if !ok {
				return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value %q for %q", firstWord(rest), n.key.name).
					WithDetail("The given value did not match any of the allowed values for this field.")
			}
			p.bc = idx == 1
		case dtTZ, dtOF, dtTZH:
			return Null, pgerr.New(pgerr.FeatureNotSupported, "formatting field %q is only supported in to_char", n.key.name)
		}
	}
	return p.result(s, k)
}

func firstWord(s string) string {
	for j := 0; j < len(s); j++ {
		if isSpace(s[j]) {
			return s[:j]
		}
	}
	return s
}

func numWidth(id dtID) int {
	switch id {
	case dtYYYY, dtIYYY, dtSSSS, dtSSSSS:
		return 4
	case dtDDD, dtIDDD, dtYYY, dtIYY, dtMS, dtFF3:
		return 3
	case dtUS, dtFF6:
		return 6
	case dtFF1, dtD, dtIDay, dtQ, dtW, dtY, dtI:
		return 1
	case dtFF4:
		return 4
	case dtFF5:
		return 5
	case dtJ:
		return 7
	}
	return 2
}

func (p *dtParse) set(id dtID, x int64, digits int) error {
	switch id {
	case dtYYYY, dtYYY, dtYY, dtY, dtIYYY, dtIYY, dtIY, dtI, dtYcommaYYY:
		p.year, p.hasYear, p.yearDigits = x, true, digits
	case dtCC:
		if !p.hasYear {
			p.year, p.hasYear, p.yearDigits = (x-1)*100+1, true, 4
		}
	case dtMM:
		p.month = x
	case dtDD:
		p.day = x
	case dtDDD, dtIDDD:
		p.doy = x
	case dtHH24:
		p.hour = x
	case dtHH12, dtHH:
		p.hour, p.hour12 = x, true
	case dtMI:
		p.min = x
	case dtSS:
		p.sec = x
	case dtMS, dtFF3:
		p.us += scaleFraction(x, digits, 3) * 1000
	case dtUS, dtFF6, dtFF1, dtFF2, dtFF4, dtFF5:
		p.us += scaleFraction(x, digits, 6)
	case dtSSSS, dtSSSSS:
		p.hour, p.min, p.sec = x/3600, x/60%60, x%60
	case dtJ:
		p.julian, p.hasJulian = x, true
	}
	return nil
}

// scaleFraction reads digits digits of a fraction as a count of units of
// 10^-width: "5" of MS is 500 ms, as PostgreSQL reads it.
func scaleFraction(x int64, digits, width int) int64 {
	for ; digits < width; digits++ {
		x *= 10
	}
	for ; digits > width; digits-- {
		x /= 10
	}
	return x
}

func (p *dtParse) result(s string, k Kind) (Value, error) {
	year := p.year
	if !p.hasYear {
		year = 1
	}
	// Two- and three-digit years pick the year nearest 2020, as
	// PostgreSQL's adjust_partial_year_to_2020 does.
	switch {
	case p.yearDigits == 2 && year < 70:
		year += 2000
	case p.yearDigits == 2 && year < 100:
		year += 1900
	case p.yearDigits == 3 && year < 520:
		year += 2000
	case p.yearDigits == 3 && year < 1000:
		year += 1000
	case p.yearDigits == 1:
		year += 2000
	}
	if p.bc {
		year = -year + 1
	} else if p.hasYear && year <= 0 && p.yearDigits > 0 && year == 0 {
		return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "cannot calculate day of year without year information")
	}
	hour := p.hour
	if p.hour12 || p.hasAmPm {
		if hour < 1 || hour > 12 {
			return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "hour \"%d\" is invalid for the 12-hour clock", hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if hour == 12 {
			hour = 0
		}
		if p.pm {
			hour += 12
		}
	}
	var days int64
	switch {
	case p.hasJulian:
		days = p.julian - julianOffset
	case p.doy > 0:
		if p.doy > 366 || (p.doy == 366 && !isLeap(year)) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "date/time field value out of range: %q", s)
		}
		days = daysFromCivil(year, 1, 1) + p.doy - 1
	default:
		if p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysInMonth(year, p.month) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "date/time field value out of range: %q", s)
		}
		days = daysFromCivil(year, p.month, p.day)
	}
	if k == Date {
		if !validDate(days) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "date out of range: %q", s)
		}
		return NewDate(days), nil
	}
	if hour > 24 || p.min > 59 || p.sec > 60 {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "date/time field value out of range: %q", s)
	}
	us := days*usecsPerDay + ((hour*60+p.min)*60+p.sec)*usecsPerSec + p.us
	if !validTimestamp(us) {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range: %q", s)
	}
	return NewTimestamp(k, us), nil
}
