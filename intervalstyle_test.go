package deltaview_test

import (
	"bytes"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestPrintIntervalStyle: Result.Print writes intervals in the style the
// session had when the statement ran.
func TestPrintIntervalStyle(t *testing.T) {
	s := deltaview.Open().Session()
	defer s.Close()
	var out bytes.Buffer
	err := s.Run(`SELECT interval '1 day 2 hours' AS a;
SET IntervalStyle = iso_8601;
SELECT interval '1 day 2 hours' AS a, ARRAY[interval '-1 sec'] AS b;
RESET IntervalStyle;
SELECT interval '1 day 2 hours' AS a`, func(r *deltaview.Result) error {
		return r.Print(&out, deltaview.PrintOptions{Format: "csv"})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "a\n1 day 02:00:00\n\na,b\nP1DT2H,{PT-1S}\n\na\n1 day 02:00:00\n\n"
	if out.String() != want {
		t.Errorf("printed\n%q\nwant\n%q", out.String(), want)
	}
}
