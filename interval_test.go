package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// Interval columns take typed values and text, through COPY and
// transactions, and views maintain them.
func TestIntervalColumns(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE jobs (id int PRIMARY KEY, took interval, started timestamp);
		CREATE MATERIALIZED VIEW ends AS SELECT id, started + took AS ended FROM jobs;
		CREATE MATERIALIZED VIEW total AS SELECT sum(took) AS s, max(took) AS m FROM jobs;
		COPY jobs FROM STDIN;
1	1 day 02:00:00	2024-01-31 10:00:00
2	P1M	2024-01-31 00:00:00
\.
		COPY jobs FROM STDIN WITH (FORMAT csv);
3,"-1 hours",2024-03-01 00:00:00
\.`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("jobs", deltaview.Int(4), deltaview.Interval(0, 2, 1500000), deltaview.Text("2024-02-28 00:00")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("jobs", deltaview.Int(5), deltaview.Text("3 mons"), deltaview.Null); err != nil {
		t.Fatal(err)
	}
	if err := tx.Delete("jobs", deltaview.Int(3), deltaview.Text("-01:00:00"), deltaview.Text("2024-03-01")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for view, want := range map[string]string{
		"ends":  "[[1 2024-02-01 12:00:00] [2 2024-02-29 00:00:00] [4 2024-03-01 00:00:01.5] [5 NULL]]",
		"total": "[[4 mons 3 days 02:00:01.5 3 mons]]",
	} {
		rows, err := db.View(view)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rows.Rows); got != want {
			t.Errorf("%s = %s, want %s", view, got, want)
		}
	}
}
