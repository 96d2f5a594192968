package deltaview_test

import "testing"

// TestMisc18TempDropInBlockReopen: a block that drops a temporary table
// beside permanent changes writes those to the file at COMMIT, and a
// rolled-back one writes nothing; no temporary relation comes back.
func TestMisc18TempDropInBlockReopen(t *testing.T) {
	db := reopenedFileDB(t, "misc18.db", `CREATE TABLE p (a int);
INSERT INTO p VALUES (1);
CREATE TEMP TABLE t (a int);
INSERT INTO t VALUES (5);
BEGIN;
INSERT INTO t VALUES (6);
DROP TABLE t;
CREATE TABLE q AS SELECT a + 1 AS b FROM p;
INSERT INTO p VALUES (2);
COMMIT;
CREATE TEMP TABLE u (a int);
BEGIN;
DROP TABLE u;
CREATE TABLE r (c int);
INSERT INTO p VALUES (3);
ROLLBACK`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT a FROM p ORDER BY a", "[[1] [2]]"},
		{"SELECT b FROM q", "[[2]]"},
		{"SELECT count(*) FROM pg_class WHERE relname IN ('r', 't', 'u')", "[[0]]"},
	})
}
