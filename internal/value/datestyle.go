package value

import "strings"

// DateStyle is the output format of PostgreSQL's DateStyle setting: how
// date, timestamp and timestamptz values print. The zero value is the
// default, ISO.
type DateStyle uint8

// The date output formats, as 2024-03-05 14:07:09 prints in each.
const (
	DateISO      DateStyle = iota // 2024-03-05 14:07:09-05
	DateSQL                       // 03/05/2024 14:07:09 EST
	DatePostgres                  // Tue Mar 05 14:07:09 2024 EST
	DateGerman                    // 05.03.2024 14:07:09 EST
)

// DateOrder is the field order of DateStyle: how an ambiguous date such
// as 01/02/03 reads, and whether the SQL and Postgres formats print the
// day before the month. The zero value is the default, MDY.
type DateOrder uint8

// The date field orders.
const (
	OrderMDY DateOrder = iota
	OrderDMY
	OrderYMD
)

var (
	dateStyleNames = [...]string{"ISO", "SQL", "Postgres", "German"}
	dateOrderNames = [...]string{"MDY", "DMY", "YMD"}
)

// String returns the format's name as SHOW DateStyle spells it.
func (d DateStyle) String() string { return dateStyleNames[d] }

// String returns the order's name as SHOW DateStyle spells it.
func (o DateOrder) String() string { return dateOrderNames[o] }

// ParseDateStyle reads SHOW DateStyle's canonical text ("SQL, DMY").
func ParseDateStyle(s string) (DateStyle, DateOrder, bool) {
	f, o, ok := strings.Cut(s, ", ")
	if !ok {
		return DateISO, OrderMDY, false
	}
	var d DateStyle
	var ord DateOrder
	found := 0
	for i, n := range dateStyleNames {
		if n == f {
			d, found = DateStyle(i), found+1
		}
	}
	for i, n := range dateOrderNames {
		if n == o {
			ord, found = DateOrder(i), found+1
		}
	}
	return d, ord, found == 2
}

// styledScalar reports whether st writes values of kind k other than as
// the defaults do: dates and timestamps outside ISO, bytea in escape,
// floats and geometric values under extra_float_digits 0 or less.
func (st TextStyle) styledScalar(k Kind) bool {
	switch k {
	case Float4, Float8, Point, LSeg, Path, Box, Polygon, Line, Circle:
		return st.FloatRounded()
	case Date, Timestamp, TimestampTZ:
		return st.Date() != DateISO
	case Bytea:
		return st.ByteaEscape()
	}
	return false
}

// appendStyledScalar writes a date, timestamp, timestamptz, bytea, float
// or geometric value as
// st says (styledScalar), a timestamptz as z's wall-clock time.
func appendStyledScalar(buf []byte, v Value, st TextStyle, z Zone) []byte {
	switch v.kind {
	case Date:
		return appendDateStyle(buf, v.n, st)
	case Timestamp:
		return appendTimestampStyle(buf, v.n, st, false, z)
	case TimestampTZ:
		return appendTimestampStyle(buf, v.n, st, true, z)
	case Bytea:
		return appendByteaEscape(buf, v.Str())
	case Float4:
		return appendFloatDigits(buf, v.Float(), 32, st.FloatDigits())
	case Float8:
		return appendFloatDigits(buf, v.Float(), 64, st.FloatDigits())
	case Point, LSeg, Path, Box, Polygon, Line, Circle:
		return appendGeometric(buf, v, st.FloatDigits())
	}
	return appendScalarText(buf, v)
}

// appendDateStyle writes a date in st's format (EncodeDateOnly).
func appendDateStyle(buf []byte, days int64, st TextStyle) []byte {
	switch days {
	case DateNegInfinity:
		return append(buf, "-infinity"...)
	case DatePosInfinity:
		return append(buf, "infinity"...)
	}
	y, m, d := civilFromDays(days)
	buf = appendDateFields(buf, y, m, d, st)
	if y <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

// appendDateFields writes a date's fields, without the era, in st's
// format: 03/05/2024, 05.03.2024, 03-05-2024.
func appendDateFields(buf []byte, y, m, d int64, st TextStyle) []byte {
	if y <= 0 {
		y = 1 - y
	}
	sep := byte('-')
	first, second := m, d
	switch st.Date() {
	case DateISO:
		return appendYMD(buf, y, m, d)
	case DateSQL:
		sep = '/'
	case DateGerman:
		sep = '.'
		first, second = d, m
	}
	if st.Date() != DateGerman && st.Order() == OrderDMY {
		first, second = d, m
	}
	buf = appendPadded(buf, first, 2)
	buf = append(buf, sep)
	buf = appendPadded(buf, second, 2)
	buf = append(buf, sep)
	return appendPadded(buf, y, 4)
}

var (
	weekdayAbbrevs = [...]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	monthAbbrevs   = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// appendTimestampStyle writes a timestamp, or with tz a timestamptz as
// z's wall-clock time and zone abbreviation, in st's format
// (EncodeDateTime).
func appendTimestampStyle(buf []byte, us int64, st TextStyle, tz bool, z Zone) []byte {
	if !tsIsFinite(us) {
		return appendTimestamp(buf, us, false)
	}
	if st.Date() == DateISO {
		if tz {
			return appendTimestampTZ(buf, us, z)
		}
		return appendTimestamp(buf, us, false)
	}
	local := us
	if tz {
		if l, _ := z.local(us); validTimestamp(l) {
			local = l
		}
	}
	days := floorDiv(local, usecsPerDay)
	tod := local - days*usecsPerDay
	y, m, d := civilFromDays(days)
	if st.Date() == DatePostgres {
		buf = append(buf, weekdayAbbrevs[floorMod(days+6, 7)]...) // 2000-01-01 was a Saturday
		buf = append(buf, ' ')
		if st.Order() == OrderDMY {
			buf = appendPadded(buf, d, 2)
			buf = append(buf, ' ')
			buf = append(buf, monthAbbrevs[m-1]...)
		} else {
			buf = append(buf, monthAbbrevs[m-1]...)
			buf = append(buf, ' ')
			buf = appendPadded(buf, d, 2)
		}
		buf = append(buf, ' ')
		buf = appendClock(buf, tod)
		buf = append(buf, ' ')
		yy := y
		if yy <= 0 {
			yy = 1 - yy
		}
		buf = appendPadded(buf, yy, 4)
	} else {
		buf = appendDateFields(buf, y, m, d, st)
		buf = append(buf, ' ')
		buf = appendClock(buf, tod)
	}
	if tz {
		buf = append(buf, ' ')
		buf = append(buf, z.abbrevOut(us)...)
	}
	if y <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

// appendClock writes a time of day in microseconds as hh:mm:ss and the
// fraction without trailing zeros.
func appendClock(buf []byte, tod int64) []byte {
	secs := tod / usecsPerSec
	buf = appendPadded(buf, secs/3600, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs/60%60, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs%60, 2)
	if frac := tod % usecsPerSec; frac != 0 {
		buf = append(buf, '.')
		width := 6
		for frac%10 == 0 {
			frac /= 10
			width--
		}
		buf = appendPadded(buf, frac, width)
	}
	return buf
}

// abbrevOut is the zone's abbreviation at the instant us as a
// timestamptz prints it outside DateStyle ISO: the tz database's (EST,
// LMT), a POSIX zone's standard name (UTC for 'UTC+3', none for
// '+05:30'), UTC for the default zone.
func (z Zone) abbrevOut(us int64) string {
	if z.loc != nil {
		return z.abbrevAt(us)
	}
	if z.east == 0 && z.abbr == "" {
		return "UTC"
	}
	return z.abbr
}

// appendByteaEscape writes bytea's escape output format (bytea_output =
// escape): printable ASCII as itself, a backslash doubled, any other byte
// as a backslash and three octal digits.
func appendByteaEscape(buf []byte, b string) []byte {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\\':
			buf = append(buf, '\\', '\\')
		case c < 0x20 || c > 0x7e:
			buf = append(buf, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// DateInputKind reports whether the text input of kind k reads dates
// whose fields DateStyle's order may reorder: date, timestamp and
// timestamptz, their ranges and multiranges, and arrays of them.
func DateInputKind(k Kind) bool {
	if k.IsArray() {
		k = k.Elem()
	}
	switch k {
	case Date, Timestamp, TimestampTZ, DateRange, TSRange, TSTZRange, DateMultirange, TSMultirange, TSTZMultirange:
		return true
	}
	return false
}

// ParseStyled reads s as a value of type t as ParseZone does in z, an
// ambiguous date (01/02/03) in the field order st carries.
func ParseStyled(s string, t Type, st TextStyle, z Zone) (Value, error) {
	order := st.Order()
	if order == OrderMDY || !DateInputKind(t.Kind) {
		return ParseZone(s, t, z)
	}
	var v Value
	var err error
	switch t.Kind {
	case Date:
		if v, ok := parseISODate(s); ok {
			return v, nil
		}
		v, err = parseDateOrder(s, order)
	case Timestamp:
		v, err = parseTimestampIn(s, Timestamp, nil, order)
	case TimestampTZ:
		var session *Zone
		if !z.IsUTC() {
			session = &z
		}
		v, err = parseTimestampIn(s, TimestampTZ, session, order)
	case DateRange, TSRange, TSTZRange:
		return parseRangeWith(s, t, func(text string, sub Type) (Value, error) { return ParseStyled(text, sub, st, z) })
	case DateMultirange, TSMultirange, TSTZMultirange:
		return parseMultirangeWith(s, t, func(r string, rt Type) (Value, error) { return ParseStyled(r, rt, st, z) })
	default:
		var session *Zone
		if !z.IsUTC() {
			session = &z
		}
		return parseArrayZone(s, t.ElemTypeMod(), st, session)
	}
	if err != nil {
		return Null, err
	}
	return Coerce(v, t, true)
}
