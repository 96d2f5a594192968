package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// Time columns take typed values and text through transactions, and
// views maintain them.
func TestTimeColumns(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE slots (id int PRIMARY KEY, at time, local timetz);
		CREATE MATERIALIZED VIEW latest AS SELECT max(at) AS at, min(local) AS local, count(*) AS n FROM slots`); err != nil {
		t.Fatal(err)
	}
	at, err := deltaview.TimeOfDay(9*3600e6 + 500000)
	if err != nil {
		t.Fatal(err)
	}
	local, err := deltaview.TimeOfDayTZ(10*3600e6, 2*3600)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("slots", deltaview.Int(1), at, local); err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("slots", deltaview.Int(2), deltaview.Text("23:00"), deltaview.Text("07:00-01")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.View("latest")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(rows.Rows), "[[23:00:00 10:00:00+02 2]]"; got != want {
		t.Errorf("latest = %s, want %s", got, want)
	}
	if _, err := deltaview.TimeOfDay(24*3600e6 + 1); pgerr.Code(err) != pgerr.DatetimeOverflow {
		t.Errorf("a time past 24:00: %v", err)
	}
	if _, err := deltaview.TimeOfDayTZ(0, 16*3600); pgerr.Code(err) != "22009" {
		t.Errorf("a zone of 16 hours: %v", err)
	}
}
