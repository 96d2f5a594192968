package deltaview_test

import "testing"

// TestTypcascade18Reopen: what DROP TYPE of a list mixing domains and
// other types and DROP DOMAIN … CASCADE of a composite type's attribute
// took stays gone in the file, and what they kept comes back.
func TestTypcascade18Reopen(t *testing.T) {
	db := reopenedFileDB(t, "typcascade18.db", `CREATE TYPE e AS ENUM ('a');
CREATE DOMAIN d AS int;
CREATE TABLE t (id int, x e, y d);
INSERT INTO t VALUES (1, 'a', 2);
DROP TYPE e, d CASCADE;
CREATE DOMAIN cd AS int;
CREATE TYPE cc AS (a cd, b int);
CREATE TABLE ct OF cc;
INSERT INTO ct VALUES (1, 2);
DROP DOMAIN cd CASCADE`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT count(*) FROM pg_type WHERE typname IN ('e', 'd', 'cd')", "[[0]]"},
		{"SELECT * FROM t", "[[1]]"},
		{"SELECT * FROM ct", "[[2]]"},
		{"SELECT attname FROM pg_attribute WHERE attrelid = 'cc'::regclass AND attnum > 0 AND NOT attisdropped", "[[b]]"},
	})
}
