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
// or literal text. For reading, each literal character is a node of its
// own, of kind dtChar, dtSeparator or dtSpace.
type dtNode struct {
	key    *dtKey
	fm, th bool
	tm     bool // TM: a day's or month's name is not padded
	upperT bool // TH rather than th
	lit    string
	kind   byte
}

// The kinds of a literal character read by to_date, to_timestamp and
// .datetime(template): text (quoted, or a letter or digit), a separator
// (other ASCII punctuation) or white space.
const (
	dtChar      = 'c'
	dtSeparator = 's'
	dtSpace     = ' '
)

func parseDTFormat(f string) []dtNode {
	nodes, _ := parseDTTemplate(f, dtFormatting)
	return nodes
}

// The modes of parseDTTemplate: formatting (to_char: literal text kept
// whole), reading (to_date, to_timestamp) and standard reading
// (.datetime(template)).
const (
	dtFormatting = iota
	dtReading
	dtStandard
)

// dtStdSeparators are the characters a standard-mode template may have
// outside patterns and quoted text.
const dtStdSeparators = "-./,':; "

// parseDTTemplate parses template f. In standard mode text outside
// patterns and double quotes must be one of dtStdSeparators (22007
// otherwise).
func parseDTTemplate(f string, mode int) ([]dtNode, error) {
	std := mode == dtStandard
	var nodes []dtNode
	lit := func(s string) {
		if mode != dtFormatting {
			for _, r := range s {
				nodes = append(nodes, dtNode{lit: string(r), kind: dtChar})
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
		// One prefix at most, as PostgreSQL reads them: in FMTMMonth
		// the TM is text.
		fm, tm := false, false
		switch {
		case strings.HasPrefix(f[i:], "FM"), strings.HasPrefix(f[i:], "fm"):
			fm = true
			i += 2
		case strings.HasPrefix(f[i:], "TM"), strings.HasPrefix(f[i:], "tm"):
			tm = true
			i += 2
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
			n := dtNode{key: key, fm: fm, tm: tm}
			switch {
			case strings.HasPrefix(f[i:], "TH"):
				n.th, n.upperT = true, true
				i += 2
			case strings.HasPrefix(f[i:], "th"):
				n.th = true
				i += 2
			case strings.HasPrefix(f[i:], "SP"):
				i += 2 // PostgreSQL accepts and ignores SP (spell mode)
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
			kind := byte(dtSeparator)
			if c == ' ' {
				kind = dtSpace
			}
			nodes = append(nodes, dtNode{lit: f[i : i+1], kind: kind})
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
		case c == '\\' && i+1 < len(f) && f[i+1] == '"' && mode == dtReading:
			nodes = append(nodes, dtNode{lit: `"`, kind: dtSeparator})
			i += 2
		case c == '\\' && i+1 < len(f) && f[i+1] == '"':
			lit(`"`)
			i += 2
		case mode == dtReading:
			_, size := decodeRune(f[i:])
			kind := byte(dtChar)
			switch {
			case c > 0x20 && c < 0x7f && !isAlnum(c):
				kind = dtSeparator
			case isCSpace(c):
				kind = dtSpace
			}
			nodes = append(nodes, dtNode{lit: f[i : i+size], kind: kind})
			i += size
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
	return formatDateTime(v, format, 0, "UTC")
}

// formatDateTime is FormatDateTime of the wall-clock time v of a zone
// whose offset is east (seconds) and abbreviation abbrev.
func formatDateTime(v Value, format string, east int64, abbrev string) (Value, error) {
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
			// TM writes the (localized) name as it is, unpadded, as
			// PostgreSQL's DCH_to_char copies it.
			if !n.fm && !(n.tm && n.key.id != dtRM) {
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
		case dtOF:
			s = string(appendOffset(nil, east))
		case dtTZH:
			s = "+"
			if east < 0 {
				s = "-"
			}
			s += padNum(abs64i(east)/3600, 2, false)
		case dtTZM:
			pad(abs64i(east)/60%60, 2)
		case dtTZ:
			if v.kind == TimestampTZ {
				s = caseLike(name, abbrev)
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

func abs64i(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
