package deltaview_test

import "testing"

// A materialized view keeps the time zone of the session that created it
// across close and reopen: its dates stay New York's, and a view created
// after it in UTC is not read in New York's zone.
func TestTimeZoneViewReopen(t *testing.T) {
	db := reopenedFileDB(t, "tz.db", `
		SET TIME ZONE 'America/New_York';
		CREATE TABLE ev (id int PRIMARY KEY, at timestamptz, amt int);
		INSERT INTO ev VALUES (1, '2026-12-05 23:30', 10), (2, '2026-12-06 00:30', 5);
		CREATE MATERIALIZED VIEW daily AS SELECT at::date AS d, sum(amt) AS total FROM ev GROUP BY at::date;
		CREATE MATERIALIZED VIEW late AS SELECT id FROM ev WHERE at > '2026-12-05 23:00';
		SET TIME ZONE 'UTC';
		CREATE MATERIALIZED VIEW utcdaily AS SELECT at::date AS d, sum(amt) AS total FROM ev GROUP BY at::date;
	`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO ev VALUES (3, '2026-12-06 04:15+00', 7)`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT d, total FROM daily ORDER BY d", "[[2026-12-05 17] [2026-12-06 5]]"},
		{"SELECT id FROM late ORDER BY id", "[[1] [2] [3]]"},
		{"SELECT d, total FROM utcdaily ORDER BY d", "[[2026-12-06 22]]"},
		{"SHOW timezone", "[[UTC]]"},
	})
}
