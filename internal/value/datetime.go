package value

import "math"

// Dates are days since 2000-01-01 and timestamps microseconds since
// 2000-01-01 00:00:00, both in the proleptic Gregorian calendar, as in
// PostgreSQL. Years are astronomical internally (0 is 1 BC).

const (
	usecsPerSec = int64(1000000)
	usecsPerDay = 86400 * usecsPerSec

	// unixToPG is the number of days from 1970-01-01 to 2000-01-01.
	unixToPG = 10957

	// PostgreSQL's ranges: dates from 4714-11-24 BC (Julian day 0) up to,
	// not including, Julian day 2147483494; timestamps from 4714-11-24 BC
	// up to, not including, 294277-01-01.
	minDate      = -2451545
	endDate      = 2147483494 - 2451545
	minTimestamp = int64(-211813488000000000)
	endTimestamp = int64(9223371331200000000)

	// The infinite dates and timestamps.
	DateNegInfinity      = math.MinInt32
	DatePosInfinity      = math.MaxInt32
	TimestampNegInfinity = math.MinInt64
	TimestampPosInfinity = math.MaxInt64
)

// daysFromCivil returns the days since 2000-01-01 of a proleptic Gregorian
// date with astronomical year y (H. Hinnant's algorithm).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468 - unixToPG
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(days int64) (y, m, d int64) {
	z := days + unixToPG + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func dateIsFinite(days int64) bool { return days != DateNegInfinity && days != DatePosInfinity }

func tsIsFinite(us int64) bool { return us != TimestampNegInfinity && us != TimestampPosInfinity }

func validDate(days int64) bool { return days >= minDate && days < endDate }

func validTimestamp(us int64) bool { return us >= minTimestamp && us < endTimestamp }
