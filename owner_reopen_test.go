package deltaview_test

import "testing"

// TestOwnersReopen checks that a database file keeps the owners ALTER …
// OWNER TO gave relations, through a rename and a move into another
// schema, with the sequences a table's columns own following it, and
// forgets the owner of a relation dropped.
func TestOwnersReopen(t *testing.T) {
	db := reopenedFileDB(t, "owners.db", `CREATE ROLE alice;
CREATE SCHEMA s;
CREATE TABLE s.t (id serial PRIMARY KEY, v int);
CREATE TABLE u (a int);
CREATE VIEW w AS SELECT a FROM u;
CREATE SEQUENCE q;
ALTER TABLE s.t OWNER TO alice;
ALTER VIEW w OWNER TO alice;
ALTER TABLE u OWNER TO alice;
ALTER SEQUENCE q OWNER TO alice;
ALTER TABLE s.t RENAME TO t2;
ALTER VIEW w SET SCHEMA s;
DROP SEQUENCE q;
CREATE SEQUENCE q;
ALTER TABLE u OWNER TO CURRENT_USER`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname, relowner::regrole::text FROM pg_class WHERE relname IN ('t2', 't_id_seq', 't_pkey', 'u', 'w', 'q') ORDER BY 1",
			"[[q deltaview] [t2 alice] [t_id_seq alice] [t_pkey alice] [u deltaview] [w alice]]"},
	})
	if err := db.Exec(`DROP ROLE alice`); err == nil {
		t.Error("DROP ROLE of a role that owns relations succeeded after reopening")
	}
}
