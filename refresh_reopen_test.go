package deltaview_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestRefreshReopen checks that a materialized view left unpopulated
// (created WITH NO DATA, or refreshed WITH NO DATA) is unpopulated after
// the file is opened again, and that one populated by REFRESH is
// populated, with its rows, and maintained.
func TestRefreshReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "refresh.db")
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
CREATE MATERIALIZED VIEW empty_at_birth AS SELECT a FROM t WITH NO DATA;
CREATE MATERIALIZED VIEW emptied AS SELECT id FROM t -- a comment at the end
;
REFRESH MATERIALIZED VIEW emptied WITH NO DATA;
CREATE MATERIALIZED VIEW filled AS SELECT sum(a) AS s FROM t WITH NO DATA;
REFRESH MATERIALIZED VIEW filled;
CREATE MATERIALIZED VIEW kept AS SELECT count(*) AS n FROM t`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open()
	for q, want := range map[string]string{
		"SELECT * FROM empty_at_birth": "55000",
		"SELECT * FROM emptied":        "55000",
		"SELECT * FROM filled":         "[[30]]",
		"SELECT * FROM kept":           "[[2]]",
		"SELECT matviewname, ispopulated FROM pg_matviews ORDER BY 1": "[[emptied f] [empty_at_birth f] [filled t] [kept t]]",
	} {
		if got := rows(db, q); got != want {
			t.Errorf("after reopening, %s: got %s, want %s", q, got, want)
		}
	}
	if err := db.Exec(`REFRESH MATERIALIZED VIEW emptied;
REFRESH MATERIALIZED VIEW filled WITH NO DATA;
INSERT INTO t VALUES (3, 30)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open()
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (4, 40)`); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT * FROM emptied ORDER BY id": "[[1] [2] [3] [4]]",
		"SELECT * FROM filled":              "55000",
		"SELECT * FROM kept":                "[[4]]",
	} {
		if got := rows(db, q); got != want {
			t.Errorf("after reopening again, %s: got %s, want %s", q, got, want)
		}
	}
}

// TestStatisticsReopen checks that statistics objects, with their kinds,
// targets and the renames of their columns, are kept in the file, and
// that those dropped are gone.
func TestStatisticsReopen(t *testing.T) {
	db := reopenedFileDB(t, "stats.db", `CREATE TABLE t (id int PRIMARY KEY, a int, b text, c int);
CREATE TABLE u (x int, y int);
CREATE STATISTICS s1 (dependencies) ON a, b FROM t;
CREATE STATISTICS s2 ON id, c FROM t;
CREATE STATISTICS s3 ON x, y FROM u;
CREATE STATISTICS gone ON a, id FROM t;
ALTER STATISTICS s1 SET STATISTICS 50;
ALTER STATISTICS s2 RENAME TO s2r;
ALTER TABLE t RENAME COLUMN c TO cc;
DROP STATISTICS gone;
DROP TABLE u`)
	defer db.Close()
	rs, err := db.Query("SELECT stxname, stxkeys, stxkind, stxstattarget FROM pg_statistic_ext ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[s1 2 3 {f} 50] [s2r 1 4 {d,f,m} -1]]"; g != w {
		t.Errorf("statistics objects after reopening: got %s, want %s", g, w)
	}
}
