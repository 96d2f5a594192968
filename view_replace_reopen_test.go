package deltaview_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestReplaceViewReopen: a view replaced by a query over a table made
// after it, with a plain and a materialized view over it (and a column
// default set before, which the store keeps after its statement), opens
// again with its new query and its readers over it.
func TestReplaceViewReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rv.db")
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
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
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
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
