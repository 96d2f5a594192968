package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestReplaceViewReopen: a view replaced by a query over a table made
// after it, with a plain and a materialized view over it (and a column
// default set before, which the store keeps after its statement), opens
// again with its new query and its readers over it.
func TestReplaceViewReopen(t *testing.T) {
	db, path := openFileDB(t, "rv.db")
	if err := db.Exec(`CREATE TABLE a (id int PRIMARY KEY, x int);
INSERT INTO a VALUES (1, 10), (2, 20);
CREATE VIEW v AS SELECT id, x FROM a;
ALTER VIEW v ALTER COLUMN x SET DEFAULT 5;
CREATE VIEW w AS SELECT id FROM v WHERE x > 0;
CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n, sum(x) AS s FROM v;
CREATE TABLE b (id int PRIMARY KEY, y int);
INSERT INTO b VALUES (1, 100);
CREATE OR REPLACE VIEW v AS SELECT a.id, a.x + coalesce(b.y, 0) AS x, b.y FROM a LEFT JOIN b USING (id)`); err != nil {
		t.Fatal(err)
	}
	rows := func(db *deltaview.DB, q string) string {
		t.Helper()
		r, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return fmt.Sprint(r.Rows)
	}
	want := map[string]string{
		"SELECT n, s FROM m":                 rows(db, "SELECT n, s FROM m"),
		"SELECT id, x, y FROM v ORDER BY id": rows(db, "SELECT id, x, y FROM v ORDER BY id"),
		"SELECT id FROM w ORDER BY id":       rows(db, "SELECT id FROM w ORDER BY id"),
	}
	if got := want["SELECT n, s FROM m"]; got != "[[2 130]]" {
		t.Fatalf("m after the replacement: %s", got)
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	for q, w := range want {
		if got := rows(db, q); got != w {
			t.Errorf("%s after reopening: %s, want %s", q, got, w)
		}
	}
	if err := db.Exec(`INSERT INTO b VALUES (2, 1)`); err != nil {
		t.Fatal(err)
	}
	if got := rows(db, "SELECT n, s FROM m"); got != "[[2 131]]" {
		t.Errorf("m maintained after reopening: %s", got)
	}
}

// TestReplaceViewStarReaderReopen: a plain view that selects * from a
// view given a new column keeps its columns, its * spelled out, also
// once the file is opened again (with its check option and its column
// default), and a materialized view over it keeps reading those; so does
// a materialized view that selects * from the view.
func TestReplaceViewStarReaderReopen(t *testing.T) {
	db, path := openFileDB(t, "rs.db")
	if err := db.Exec(`CREATE TABLE a (id int PRIMARY KEY, x int);
INSERT INTO a VALUES (1, 10), (2, 20);
CREATE VIEW v AS SELECT id, x FROM a;
CREATE VIEW star AS SELECT * FROM v WHERE x > 0 WITH LOCAL CHECK OPTION;
ALTER VIEW star ALTER COLUMN x SET DEFAULT 7;
CREATE MATERIALIZED VIEW m AS SELECT * FROM star;
CREATE MATERIALIZED VIEW m2 AS SELECT * FROM v;
CREATE OR REPLACE VIEW v AS SELECT id, x, x * 2 AS x2 FROM a`); err != nil {
		t.Fatal(err)
	}
	check := func(db *deltaview.DB) {
		t.Helper()
		r, err := db.Query("SELECT * FROM star ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Columns) != 2 || fmt.Sprint(r.Rows) != "[[1 10] [2 20]]" {
			t.Fatalf("star: %v %v", r.Columns, r.Rows)
		}
		if err := db.Exec(`INSERT INTO star (id, x) VALUES (3, -1)`); err == nil {
			t.Fatal("star's check option did not hold")
		}
	}
	check(db)
	db = reopenFileDB(t, db, path)
	defer db.Close()
	check(db)
	if err := db.Exec(`INSERT INTO star (id) VALUES (4)`); err != nil {
		t.Fatal(err)
	}
	r, err := db.Query("SELECT * FROM m ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Columns) != 2 || fmt.Sprint(r.Rows) != "[[1 10] [2 20] [4 7]]" {
		t.Fatalf("m after reopening: %v %v", r.Columns, r.Rows)
	}
	if r, err = db.Query("SELECT * FROM m2 ORDER BY id"); err != nil {
		t.Fatal(err)
	}
	if len(r.Columns) != 2 || fmt.Sprint(r.Rows) != "[[1 10] [2 20] [4 7]]" {
		t.Fatalf("m2 after reopening: %v %v", r.Columns, r.Rows)
	}
}
