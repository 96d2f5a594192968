package value

import "testing"

func TestParseIntervalInSQLStandard(t *testing.T) {
	for _, c := range []struct{ in, std, pg string }{
		{"-1 2:03:04", "-1 days -02:03:04", "-1 days +02:03:04"},
		{"-1 day 2 hours", "-1 days -02:00:00", "-1 days +02:00:00"},
		{"-1 day 2 hours 3 minutes", "-1 days -02:03:00", "-1 days +02:03:00"},
		{"-1-2 3", "-1 years -2 mons -00:00:03", "-1 years -2 mons +00:00:03"},
		{"-1 2:03:04 ago", "1 day 02:03:04", "1 day -02:03:04"},
		{"-1 +2:03:04", "-1 days +02:03:04", "-1 days +02:03:04"},
		{"1 -2:03:04", "1 day -02:03:04", "1 day -02:03:04"},
		{"P-1DT2H", "-1 days +02:00:00", "-1 days +02:00:00"},
		{"-1 year 2 mons", "-1 years -2 mons", "-10 mons"},
	} {
		for _, st := range []TextStyle{IntervalSQLStandard, IntervalPostgres} {
			v, err := ParseIntervalIn(c.in, IntervalType, st)
			if err != nil {
				t.Fatalf("%q: %v", c.in, err)
			}
			want := c.pg
			if st == IntervalSQLStandard {
				want = c.std
			}
			if got := v.String(); got != want {
				t.Errorf("%q under %s: %s, want %s", c.in, st, got, want)
			}
		}
	}
}
