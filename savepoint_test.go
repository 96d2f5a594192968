package deltaview_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// TestSavepointNeverLeaves checks that what a ROLLBACK TO undid reaches
// neither a subscriber nor the database file: the subscriber receives
// each commit's delta without the rows rolled back to a savepoint (and
// nothing for a transaction they cancel out), and the file opened again
// holds the committed rows alone.
func TestSavepointNeverLeaves(t *testing.T) {
	db, path := openFileDB(t, "savepoint.db")
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, v int);
CREATE MATERIALIZED VIEW pos AS SELECT id, v FROM t WHERE v > 0`); err != nil {
		t.Fatal(err)
	}
	deltas := make(chan deltaview.Delta, 10)
	cancel, err := db.Subscribe("pos", func(d deltaview.Delta) { deltas <- d })
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	next := func() string {
		t.Helper()
		select {
		case d := <-deltas:
			var out []string
			for _, c := range d.Changes {
				out = append(out, fmt.Sprintf("%+d%v", c.Diff, c.Row))
			}
			slices.Sort(out)
			return fmt.Sprint(out)
		case <-time.After(10 * time.Second):
			t.Fatal("no delta")
		}
		return ""
	}
	s := db.Session()
	defer s.Close()
	for _, script := range []string{
		`BEGIN;
INSERT INTO t VALUES (1, 10);
SAVEPOINT a;
INSERT INTO t VALUES (2, 20);
UPDATE t SET v = 11 WHERE id = 1;
ROLLBACK TO a;
INSERT INTO t VALUES (3, 30);
SAVEPOINT b;
DELETE FROM t WHERE id = 3;
ROLLBACK TO SAVEPOINT b;
RELEASE a;
COMMIT`,
		// Cancelled out by ROLLBACK TO: no delta.
		`BEGIN;
SAVEPOINT a;
DELETE FROM t;
INSERT INTO t VALUES (5, 50);
ROLLBACK TO a;
COMMIT`,
		`INSERT INTO t VALUES (4, 40)`,
	} {
		if err := s.Exec(script); err != nil {
			t.Fatalf("%s: %v", script, err)
		}
	}
	if got, want := next(), "[+1[1 10] +1[3 30]]"; got != want {
		t.Fatalf("first delta %s, want %s", got, want)
	}
	if got, want := next(), "[+1[4 40]]"; got != want {
		t.Fatalf("second delta %s, want %s", got, want)
	}
	cancel()
	db = reopenFileDB(t, db, path)
	defer db.Close()
	v, err := db.View("pos")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range v.Rows {
		rows = append(rows, fmt.Sprint(r))
	}
	slices.Sort(rows)
	if got, want := fmt.Sprint(rows), "[[1 10] [3 30] [4 40]]"; got != want {
		t.Fatalf("opened again, the view holds %s, want %s", got, want)
	}
}
