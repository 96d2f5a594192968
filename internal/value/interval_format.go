package value

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// FormatInterval is to_char(interval, format), as PostgreSQL formats an
// interval: its fields as interval2tm splits them (years and months of
// the months, days, then hours, minutes, seconds and microseconds of the
// time, each truncated toward zero and so of the interval's sign; hours
// are not folded into days), DDD the whole length in 30-day months and
// days, numbers padded as C's %0*d pads them (the sign counts in the
// width). Patterns tied to calendar dates (AD, day and month names,
// D, ID, TZ, OF) are 22007, as in PostgreSQL; J and the ISO-week ones
// apply PostgreSQL's date arithmetic to the years, months and days as it
// does, RM the month's numeral (counted back from December for negative
// months).
func FormatInterval(v Value, format string) (Value, error) {
	s := v.Span()
	year, mon := int64(s.Months/12), int64(s.Months%12)
	mday := int64(s.Days)
	t := s.Micros
	hour := t / usecsPerHour
	t -= hour * usecsPerHour
	min := t / usecsPerMinute
	t -= min * usecsPerMinute
	sec := t / usecsPerSec
	fsec := t - sec*usecsPerSec
	yday := (year*12+mon)*daysPerMonth + mday
	var b strings.Builder
	for _, n := range parseDTFormat(format) {
		if n.key == nil {
			b.WriteString(n.lit)
			continue
		}
		var out string
		// width is the digits of a value that is not negative; one more
		// for a negative one, whose sign C's %0*d counts.
		pad := func(x int64, width int) {
			if n.fm {
				width = 0
			} else if x < 0 {
				width++
			}
			out = fmt.Sprintf("%0*d", width, x)
		}
		switch n.key.id {
		case dtAM, dtPM:
			out = caseLike(n.key.name, map[bool]string{false: "AM", true: "PM"}[hour%24 >= 12])
		case dtAMdots, dtPMdots:
			out = caseLike(n.key.name, map[bool]string{false: "A.M.", true: "P.M."}[hour%24 >= 12])
		case dtAD, dtBC, dtADdots, dtBCdots, dtDAY, dtDY, dtMONTH, dtMON,
			dtD, dtIDay, dtTZ, dtTZH, dtTZM, dtOF:
			return Null, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid format specification for an interval value").
				WithHint("Intervals are not tied to specific calendar dates.")
		case dtJ:
			out = strconv.FormatInt(int64(pgDate2J(int32(year), int32(mon), int32(mday))), 10)
		case dtRM:
			if r, ok := intervalRM(year, mon); ok {
				if n.key.name == "rm" {
					r = strings.ToLower(r)
				}
				out = r
				if !n.fm {
					out = fmt.Sprintf("%-4s", r)
				}
			}
		case dtIW:
			w, _ := pgIsoWeekYear(int32(year), int32(mon), int32(mday))
			out = fmt.Sprintf("%0*d", map[bool]int{false: 2}[n.fm], w)
		case dtIDDD:
			out = fmt.Sprintf("%0*d", map[bool]int{false: 3}[n.fm], pgIsoYearDay(int32(year), int32(mon), int32(mday)))
		case dtIYYY, dtIYY, dtIY, dtI:
			// The width follows the interval's years, the value the ISO year.
			_, iy := pgIsoWeekYear(int32(year), int32(mon), int32(mday))
			x, width := int64(iy), 4
			switch n.key.id {
			case dtIYY:
				x, width = x%1000, 3
			case dtIY:
				x, width = x%100, 2
			case dtI:
				x, width = x%10, 1
			}
			if year < 0 {
				width++
			}
			if n.fm {
				width = 0
			}
			out = fmt.Sprintf("%0*d", width, x)
		case dtCC:
			c := year / 100
			if c <= 99 && c >= -99 {
				pad(c, 2)
			} else {
				out = strconv.FormatInt(c, 10)
			}
		case dtDDD:
			pad(yday, 3)
		case dtDD:
			// The one field whose width does not grow with a sign.
			pad(mday, 2)
			if !n.fm && mday < 0 {
				out = fmt.Sprintf("%02d", mday)
			}
		case dtFF1, dtFF2, dtFF3, dtFF4, dtFF5, dtFF6:
			digits := int(n.key.id-dtFF1) + 1
			x := fsec
			for i := digits; i < 6; i++ {
				x /= 10
			}
			out = fmt.Sprintf("%0*d", digits, x)
		case dtFX:
		case dtHH24:
			pad(hour, 2)
		case dtHH12, dtHH:
			h := hour % 12
			if h == 0 {
				h = 12
			}
			pad(h, 2)
		case dtMI:
			pad(min, 2)
		case dtMM:
			pad(mon, 2)
		case dtMS:
			out = fmt.Sprintf("%03d", fsec/1000)
		case dtQ:
			if mon != 0 {
				out = strconv.FormatInt((mon-1)/3+1, 10)
			}
		case dtSSSSS, dtSSSS:
			out = strconv.FormatInt(hour*3600+min*60+sec, 10)
		case dtSS:
			pad(sec, 2)
		case dtUS:
			out = fmt.Sprintf("%06d", fsec)
		case dtWW:
			pad((yday-1)/7+1, 2)
		case dtW:
			out = strconv.FormatInt((mday-1)/7+1, 10)
		case dtYcommaYYY:
			out = fmt.Sprintf("%d,%03d", year/1000, year-year/1000*1000)
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
			suf := ordinal(out)
			if n.upperT {
				suf = strings.ToUpper(suf)
			}
			out += suf
		}
		b.WriteString(out)
	}
	return NewText(Text, b.String()), nil
}
