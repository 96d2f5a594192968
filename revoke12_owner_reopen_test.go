package deltaview_test

import (
	"strings"
	"testing"
)

// TestOwnerItemReopen checks that privileges revoked from a relation's
// owner stay revoked after the file is opened again: the owner's own
// item keeps what it was left and its place in the ACL (emptied, and
// granted back last), through a rename, an owner change and a move to
// another schema, and a schema's owner's item likewise; the owner is
// still refused what it lost (a materialized view over such a table
// cannot be refreshed).
func TestOwnerItemReopen(t *testing.T) {
	db := reopenedFileDB(t, "revoke12_owner.db", `CREATE ROLE r12o;
CREATE ROLE r12u;
CREATE TABLE t (x int);
ALTER TABLE t OWNER TO r12o;
REVOKE SELECT ON t FROM r12o;
GRANT SELECT ON t TO r12u;
CREATE TABLE t2 (x int);
ALTER TABLE t2 OWNER TO r12o;
GRANT SELECT ON t2 TO r12u;
REVOKE ALL ON t2 FROM r12o;
GRANT INSERT ON t2 TO r12o;
ALTER TABLE t2 RENAME TO t3;
CREATE SEQUENCE q;
ALTER SEQUENCE q OWNER TO r12o;
REVOKE USAGE, UPDATE ON SEQUENCE q FROM r12o;
CREATE TABLE t4 (x int);
ALTER TABLE t4 OWNER TO r12o;
REVOKE UPDATE ON t4 FROM r12o;
ALTER TABLE t4 OWNER TO r12u;
CREATE SCHEMA s;
CREATE TABLE t5 (x int);
REVOKE ALL ON t5 FROM deltaview;
ALTER TABLE t5 SET SCHEMA s;
CREATE SCHEMA s2 AUTHORIZATION r12o;
GRANT USAGE ON SCHEMA s2 TO r12u;
REVOKE CREATE ON SCHEMA s2 FROM r12o;
ALTER SCHEMA s2 OWNER TO r12u;
CREATE SCHEMA s3 AUTHORIZATION r12o;
REVOKE ALL ON SCHEMA s3 FROM r12o;
GRANT CREATE ON SCHEMA s3 TO r12u, r12o;
CREATE TABLE base (a int);
CREATE MATERIALIZED VIEW mv AS SELECT a FROM base;
ALTER TABLE base OWNER TO r12o;
ALTER MATERIALIZED VIEW mv OWNER TO r12o;
REVOKE SELECT ON base FROM r12o`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname, relacl::text FROM pg_class WHERE relname IN ('t', 't3', 'q', 't4', 't5') ORDER BY 1", "[[q {r12o=r/r12o}] [t {r12o=awdDxt/r12o,r12u=r/r12o}] [t3 {r12u=r/r12o,r12o=a/r12o}] [t4 {r12u=ardDxt/r12u}] [t5 {}]]"},
		{"SELECT has_table_privilege('r12o', 't', 'SELECT'), has_table_privilege('r12o', 't', 'INSERT'), has_table_privilege('r12o', 't3', 'SELECT'), has_sequence_privilege('r12o', 'q', 'USAGE'), has_table_privilege('r12u', 't4', 'UPDATE')", "[[f t f f f]]"},
		{"SELECT nspname, nspacl::text FROM pg_namespace WHERE nspname IN ('s2', 's3') ORDER BY 1", "[[s2 {r12u=U/r12u}] [s3 {r12u=C/r12o,r12o=C/r12o}]]"},
		{"SELECT has_schema_privilege('r12u', 's2', 'CREATE'), has_schema_privilege('r12o', 's3', 'USAGE')", "[[f f]]"},
	})
	s, err := db.SessionAs("r12o")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Exec("SELECT * FROM t"); err == nil {
		t.Errorf("SELECT by the owner whose SELECT was revoked, after reopening: want 42501")
	}
	if err := s.Exec("REFRESH MATERIALIZED VIEW mv"); err == nil || !strings.Contains(err.Error(), "permission denied for table base") {
		t.Errorf("REFRESH by the owner of a view over a table whose SELECT it lost, after reopening: got %v, want 42501", err)
	}
	sessionExec(t, s, "INSERT INTO t VALUES (1)")
	sessionExec(t, s, "GRANT SELECT ON t TO r12o")
	sessionExec(t, s, "SELECT * FROM t")
}
