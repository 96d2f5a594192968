package value

// PostgreSQL formats an interval's J, RM and ISO-week patterns with its
// date arithmetic applied to the interval's years, months and days as if
// they were a date, in C's 32-bit integers (division truncating toward
// zero); these are those routines.

func pgDate2J(year, month, day int32) int32 {
	if month > 2 {
		month++
		year += 4800
	} else {
		month += 13
		year += 4799
	}
	century := year / 100
	julian := year*365 - 32167
	julian += year/4 - century + century/4
	julian += 7834*month/256 + day
	return julian
}

func pgJ2Day(j int32) int32 {
	j = (j + 1) % 7
	if j < 0 {
		j += 7
	}
	return j
}

// pgIsoWeekYear is date2isoweek and date2isoyear at once.
func pgIsoWeekYear(year, mon, mday int32) (week, isoYear int32) {
	dayn := pgDate2J(year, mon, mday)
	day4 := pgDate2J(year, 1, 4)
	day0 := pgJ2Day(day4 - 1)
	isoYear = year
	if dayn < day4-day0 {
		day4 = pgDate2J(year-1, 1, 4)
		day0 = pgJ2Day(day4 - 1)
		isoYear--
	}
	week = (dayn-(day4-day0))/7 + 1
	if week >= 52 {
		day4 = pgDate2J(isoYear+1, 1, 4)
		day0 = pgJ2Day(day4 - 1)
		if dayn >= day4-day0 {
			week = (dayn-(day4-day0))/7 + 1
			isoYear++
		}
	}
	return week, isoYear
}

// pgIsoYearDay is date2isoyearday: the day's place from the ISO year's
// first Monday.
func pgIsoYearDay(year, mon, mday int32) int32 {
	_, iy := pgIsoWeekYear(year, mon, mday)
	day4 := pgDate2J(iy, 1, 4)
	day0 := pgJ2Day(day4 - 1)
	return pgDate2J(year, mon, mday) - (day4 - day0) + 1
}

var romanMonthsDesc = []string{"XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"}

// intervalRM is RM of an interval: nothing without years or months,
// December's numeral for whole positive years, January's for negative
// ones, counted back from December for negative months.
func intervalRM(year, mon int64) (string, bool) {
	switch {
	case mon == 0 && year == 0:
		return "", false
	case mon == 0 && year >= 0:
		return romanMonthsDesc[0], true
	case mon == 0:
		return romanMonthsDesc[11], true
	case mon < 0:
		return romanMonthsDesc[-(mon + 1)], true
	}
	return romanMonthsDesc[12-mon], true
}
