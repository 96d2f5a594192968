package value

import (
	"errors"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// FuzzParseDateTimeTemplate reads random texts by random templates in
// every mode: no panic, every error with a SQLSTATE, and every value
// found prints and reads back as itself.
func FuzzParseDateTimeTemplate(f *testing.F) {
	for _, c := range [][2]string{
		{"2020-01-02", "YYYY-MM-DD"}, {"10:11:12.5 +05:30", "HH24:MI:SS.FF3 TZH:TZM"}, {" 2020 - 1", "FXYYYY-FMMM"},
		{"1,999 xii", "Y,YYY RM"}, {"12 PM", "HH12 AM"}, {"2020 05 3", "IYYY IW ID"}, {"2459000", "J"},
		{"Friday", "Day"}, {"31st", "DDth"}, {"", ""}, {"x", `"x"YYYY`}, {"21 05", "CC YY"}, {"400", "DDD"},
	} {
		f.Add(c[0], c[1], uint8(0))
		f.Add(c[0], c[1], uint8(1))
		f.Add(c[0], c[1], uint8(2))
	}
	check := func(t *testing.T, what string, v Value, err error) {
		if err != nil {
			var pe *pgerr.Error
			if !errors.As(err, &pe) || len(pe.Code) != 5 || pe.Code == pgerr.Internal {
				t.Fatalf("%s: error without SQLSTATE: %v", what, err)
			}
			return
		}
		out := string(AppendText(nil, v))
		back, err := Parse(out, Type{v.Kind(), -1})
		if err != nil || Compare(back, v) != 0 {
			t.Fatalf("%s = %q, which reads back as %v, %v", what, out, back, err)
		}
	}
	f.Fuzz(func(t *testing.T, s, template string, mode uint8) {
		switch mode % 3 {
		case 0:
			v, err := ParseDateTime(s, template, Date)
			check(t, "to_date("+s+", "+template+")", v, err)
		case 1:
			v, err := ParseDateTime(s, template, TimestampTZ)
			check(t, "to_timestamp("+s+", "+template+")", v, err)
		default:
			v, _, _, err := ParseDateTimeStd(s, template)
			check(t, ".datetime("+template+") of "+s, v, err)
		}
	})
}
