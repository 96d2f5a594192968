package value

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestOracleIntervalParse(t *testing.T) {
	var cases []oracleCase
	for _, s := range []string{
		"90 days", "1 year 2 mons", "3 hours", "1 day", "-1 day", "1 mon", "1 month", "2 years", "0", "00:00:00", "",
		"1.5 days", "1.5 months", "1.5 years", "1.25 hours", "0.5 seconds", "1.000001 seconds", "-1.5 days", "1 week",
		"1.5 weeks", "@ 1 hour ago", "1 day ago", "1 year -2 mons 3 days -04:05:06", "-1 days +02:00:00",
		"1 day -02:00:00", "1 2:03:04", "1-2", "-1-2", "10:30", "-10:30", "100:00:00", "1:60", "1:00:60",
		"P1Y2M3DT4H5M6S", "P1D", "PT1.5S", "P1W", "P-1D", "PT", "P", "1 decade", "2 centuries", "1 millennium",
		"1 ms", "1 us", "1000 milliseconds", "1 microsecond", "2147483647 days", "2147483648 days", "-2147483648 days",
		"178956970 years", "178956971 years", "2147483647 months", "2562047788 hours", "3000000000 seconds",
		"1 fortnight", "abc", "1 day 1 day", "1d 2h", "5 min", "5 minutes 30 seconds", "1.5", "-1.5", "+3 days",
		"1 year 1 mon 1 day 01:01:01.000001", "12 mons", "13 months", "-13 months", "30 days", "25 hours",
		"0.1 mons", "1e3 days", "2024-01-01", "1-2-3", "1 day 2 hours 3 minutes 4.5 seconds", "  7 days  ", "1 DAY", "1 Hour", "P0.5Y",
	} {
		cases = append(cases, parseCase(s, "interval"))
	}
	runOracle(t, cases)
}

func ivCase(sql string, f func() (Value, error)) oracleCase { return oracleCase{sql: sql, eval: f} }

func TestOracleIntervalArith(t *testing.T) {
	var cases []oracleCase
	iv := func(s string) Value { return mustParse(t, s, IntervalType) }
	ts := func(s string) Value { return mustParse(t, s, TimestampType) }
	d := func(s string) Value { return mustParse(t, s, DateType) }
	f8 := func(f float64) Value { return NewFloat(Float8, f) }
	for _, c := range []struct{ date, span string }{
		{"2024-01-31", "1 month"}, {"2023-01-31", "1 month"}, {"2024-02-29", "1 year"}, {"2024-03-31", "-1 month"},
		{"1998-12-01", "-90 days"}, {"2024-01-31", "1 month 1 day"}, {"2024-12-31", "2 mons -1 day 03:00"},
		{"0001-01-01", "-1 day"}, {"2000-02-28", "1 day 25:00"}, {"infinity", "1 day"}, {"1999-12-31", "-1 year -1 mons"},
		{"5874897-12-31", "1 day"}, {"294276-12-31", "1 day"}, {"2024-05-31", "-3 months"},
	} {
		dd, sp := c.date, c.span
		cases = append(cases,
			ivCase(fmt.Sprintf("date '%s' + interval '%s'", dd, sp), func() (Value, error) { return Add(d(dd), iv(sp)) }),
			ivCase(fmt.Sprintf("date '%s' - interval '%s'", dd, sp), func() (Value, error) { return Sub(d(dd), iv(sp)) }),
			ivCase(fmt.Sprintf("interval '%s' + date '%s'", sp, dd), func() (Value, error) { return Add(iv(sp), d(dd)) }),
			ivCase(fmt.Sprintf("timestamp '%s' + interval '%s'", dd, sp), func() (Value, error) {
				x, err := Parse(dd, TimestampType)
				if err != nil {
					return x, err
				}
				return Add(x, iv(sp))
			}),
		)
	}
	spans := []string{"1 day", "-1 day", "1 mon", "30 days", "1 year 2 mons 3 days 04:05:06.5", "-1 days +02:00:00", "00:00:00",
		"24:00:00", "1.5 months", "178956970 years 7 mons", "-178956970 years -8 mons", "2147483647 days", "1 us"}
	for _, a := range spans {
		for _, b := range spans {
			a, b := a, b
			cases = append(cases,
				ivCase(fmt.Sprintf("interval '%s' + interval '%s'", a, b), func() (Value, error) { return Add(iv(a), iv(b)) }),
				ivCase(fmt.Sprintf("interval '%s' - interval '%s'", a, b), func() (Value, error) { return Sub(iv(a), iv(b)) }),
				ivCase(fmt.Sprintf("(interval '%s' < interval '%s')::int - (interval '%s' > interval '%s')::int", a, b, a, b),
					func() (Value, error) { return NewInt(Int4, int64(-Compare(iv(a), iv(b)))), nil }),
			)
		}
		for _, f := range []float64{2, 0.5, -1, 1.0 / 3, 0, 1e10, 3.7} {
			a, f := a, f
			cases = append(cases,
				ivCase(fmt.Sprintf("interval '%s' * %v::float8", a, f), func() (Value, error) { return Mul(iv(a), f8(f)) }),
				ivCase(fmt.Sprintf("interval '%s' / %v::float8", a, f), func() (Value, error) { return Div(iv(a), f8(f)) }),
			)
		}
		cases = append(cases, ivCase(fmt.Sprintf("- interval '%s'", a), func() (Value, error) { return Neg(iv(a)) }))
	}
	for _, p := range [][2]string{
		{"2024-03-01 00:00", "2024-02-28 12:00"}, {"2024-01-01", "2024-03-01 01:02:03.5"}, {"2000-01-01", "1999-01-01"},
		{"294276-12-31", "4713-01-01 BC"}, {"infinity", "2000-01-01"},
	} {
		a, b := p[0], p[1]
		cases = append(cases, ivCase(fmt.Sprintf("timestamp '%s' - timestamp '%s'", a, b), func() (Value, error) { return Sub(ts(a), ts(b)) }))
	}
	runOracle(t, cases)
}

// TestOracleIntervalRandom compares random interval arithmetic and
// comparisons with PostgreSQL.
func TestOracleIntervalRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(uint64(len(t.Name())), 17))
	span := func() Span {
		pick := func(n int64) int64 { return r.Int64N(2*n+1) - n }
		s := Span{Months: int32(pick(30)), Days: int32(pick(40)), Micros: pick(3 * usecsPerDay)}
		if r.IntN(4) == 0 {
			s.Micros = s.Micros / usecsPerSec * usecsPerSec
		}
		return s
	}
	var cases []oracleCase
	for i := 0; i < 300; i++ {
		a, b := NewInterval(span()), NewInterval(span())
		as, bs := a.String(), b.String()
		days := r.Int64N(20000) - 10000
		dt := NewDate(days)
		ds := dt.String()
		cases = append(cases,
			ivCase(fmt.Sprintf("interval '%s'", as), func() (Value, error) { return Parse(as, IntervalType) }),
			ivCase(fmt.Sprintf("interval '%s' + interval '%s'", as, bs), func() (Value, error) { return Add(a, b) }),
			ivCase(fmt.Sprintf("(interval '%s' < interval '%s')::int - (interval '%s' > interval '%s')::int", as, bs, as, bs),
				func() (Value, error) { return NewInt(Int4, int64(-Compare(a, b))), nil }),
			ivCase(fmt.Sprintf("date '%s' + interval '%s'", ds, as), func() (Value, error) { return Add(dt, a) }),
			ivCase(fmt.Sprintf("date '%s' - interval '%s'", ds, bs), func() (Value, error) { return Sub(dt, b) }),
			ivCase(fmt.Sprintf("interval '%s' * 1.5::float8", as), func() (Value, error) { return Mul(a, NewFloat(Float8, 1.5)) }),
		)
	}
	runOracle(t, cases)
}
