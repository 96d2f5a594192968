package deltaview_test

import "testing"

// TestSequenceCommentsReopen checks that a database file keeps the
// comments on sequences, one moved into another schema under its new
// name, and forgets those of a sequence dropped.
func TestSequenceCommentsReopen(t *testing.T) {
	db := reopenedFileDB(t, "seqcomments.db", `CREATE SEQUENCE q1;
CREATE SEQUENCE q2;
CREATE SEQUENCE q3;
CREATE SCHEMA s;
COMMENT ON SEQUENCE q1 IS 'first';
COMMENT ON SEQUENCE q2 IS 'second';
COMMENT ON SEQUENCE q3 IS 'third';
ALTER SEQUENCE q2 SET SCHEMA s;
DROP SEQUENCE q3;
CREATE SEQUENCE q3`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT obj_description('q1'::regclass, 'pg_class'), obj_description('s.q2'::regclass, 'pg_class'), obj_description('q3'::regclass, 'pg_class') IS NULL",
			"[[first second t]]"},
	})
}
