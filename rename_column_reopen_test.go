package deltaview_test

import (
	"testing"
)

// TestRenameColumnReopen checks that the views over a column renamed
// are kept as their statements with the new name: they are maintained
// after the file is opened again, under their own column names.
func TestRenameColumnReopen(t *testing.T) {
	db := reopenedFileDB(t, "rename.db", `CREATE TABLE t (a int PRIMARY KEY, b text);
INSERT INTO t VALUES (1, 'x'), (2, 'y');
CREATE VIEW v AS SELECT * FROM t WHERE a > 0;
ALTER VIEW v ALTER COLUMN b SET DEFAULT 'd';
CREATE MATERIALIZED VIEW mv AS SELECT a, count(*) AS n FROM t GROUP BY a;
ALTER TABLE t RENAME COLUMN a TO k;
CREATE VIEW w AS SELECT k, b FROM t;
ALTER VIEW w ALTER COLUMN b SET DEFAULT 'e';
CREATE MATERIALIZED VIEW wm AS SELECT w.k FROM w;
ALTER VIEW w RENAME COLUMN b TO bb;
ALTER MATERIALIZED VIEW mv RENAME COLUMN n TO total`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (3, 'z'); INSERT INTO v (a) VALUES (4); INSERT INTO w (k) VALUES (5)`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT a, b FROM v ORDER BY a", "[[1 x] [2 y] [3 z] [4 d] [5 e]]"},
		{"SELECT a, total FROM mv ORDER BY a", "[[1 1] [2 1] [3 1] [4 1] [5 1]]"},
		{"SELECT k, bb FROM w ORDER BY k", "[[1 x] [2 y] [3 z] [4 d] [5 e]]"},
		{"SELECT k FROM wm ORDER BY k", "[[1] [2] [3] [4] [5]]"},
	})
}
