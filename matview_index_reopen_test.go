package deltaview_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestMatViewIndexReopen checks that the indexes of materialized views
// are kept in the file: listed and enforced after it is opened again, on
// a populated view and on one built by a REFRESH after the index was
// made; and that a dropped index or view takes its index with it.
func TestMatViewIndexReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "matidx.db")
	open := func() *deltaview.DB {
		t.Helper()
		db, err := deltaview.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	rows := func(db *deltaview.DB, q string) string {
		t.Helper()
		rs, err := db.Query(q)
		if err != nil {
			return deltaview.Code(err)
		}
		return fmt.Sprint(rs.Rows)
	}
	db := open()
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, a int);
INSERT INTO t VALUES (1, 10), (2, 20);
CREATE MATERIALIZED VIEW mv AS SELECT id, a FROM t;
CREATE UNIQUE INDEX mv_a ON mv (a);
CREATE INDEX mv_id ON mv (id) WHERE a > 0;
CREATE MATERIALIZED VIEW later AS SELECT a FROM t WITH NO DATA;
CREATE UNIQUE INDEX later_a ON later (a);
REFRESH MATERIALIZED VIEW later;
CREATE MATERIALIZED VIEW gone AS SELECT a FROM t;
CREATE INDEX gone_a ON gone (a);
CREATE INDEX dropped ON mv (id);
DROP INDEX dropped;
DROP MATERIALIZED VIEW gone`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open()
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (3, 20)`); deltaview.Code(err) != "23505" {
		t.Errorf("after reopening, a duplicate of the unique index on mv: got %v, want 23505", err)
	}
	if err := db.Exec(`INSERT INTO t VALUES (3, 30)`); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT indexname FROM pg_indexes WHERE tablename IN ('mv', 'later', 'gone') ORDER BY 1": "[[later_a] [mv_a] [mv_id]]",
		"SELECT * FROM mv WHERE a = 30":             "[[3 30]]",
		"SELECT * FROM later ORDER BY a":            "[[10] [20] [30]]",
		"SELECT count(*) FROM t":                    "[[3]]",
		"REFRESH MATERIALIZED VIEW CONCURRENTLY mv": "[]",
	} {
		if got := rows(db, q); got != want {
			t.Errorf("after reopening, %s: got %s, want %s", q, got, want)
		}
	}
}
