package deltaview_test

import "testing"

// TestTypacl14TypeGrantorReopen: a type's and a domain's items granted
// by a role holding the grant option, several grantors of USAGE and an
// owner change come back from the file with their grantors, in their
// order, and a REVOKE of the option still takes what was granted through
// it.
func TestTypacl14TypeGrantorReopen(t *testing.T) {
	db := reopenedFileDB(t, "typacl14.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE ROLE c;
CREATE ROLE o;
CREATE TYPE e AS ENUM ('x');
ALTER TYPE e OWNER TO o;
CREATE DOMAIN d AS int;
ALTER DOMAIN d OWNER TO o;
SET ROLE o;
GRANT USAGE ON TYPE e TO a WITH GRANT OPTION;
GRANT USAGE ON DOMAIN d TO a WITH GRANT OPTION;
RESET ROLE;
SET ROLE a;
GRANT USAGE ON TYPE e TO b WITH GRANT OPTION;
GRANT USAGE ON TYPE e TO c;
GRANT USAGE ON DOMAIN d TO PUBLIC;
RESET ROLE;
SET ROLE b;
GRANT USAGE ON TYPE e TO c;
RESET ROLE;
ALTER DOMAIN d OWNER TO a`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT typname, typacl::text FROM pg_type WHERE typname IN ('d', 'e') ORDER BY 1", "[[d {=U/a,a=U*/a}] [e {=U/o,o=U/o,a=U*/o,b=U*/a,c=U/a,c=U/b}]]"},
		{"SELECT has_type_privilege('b', 'e', 'USAGE WITH GRANT OPTION'), has_type_privilege('c', 'e', 'USAGE WITH GRANT OPTION')", "[[t f]]"},
	})
	if err := db.Exec("REVOKE USAGE ON TYPE e FROM a"); err == nil {
		t.Fatal("REVOKE of an option others granted through: want 2BP01")
	}
	if err := db.Exec("REVOKE GRANT OPTION FOR USAGE ON TYPE e FROM a CASCADE"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT typacl::text FROM pg_type WHERE typname = 'e'", "[[{=U/o,o=U/o,a=U/o}]]"},
	})
}

// TestTypacl14RowTypeReopen: the ACL of a table's row type, with an item
// a role holding the grant option granted, comes back from the file
// after the table's rename and owner change.
func TestTypacl14RowTypeReopen(t *testing.T) {
	db := reopenedFileDB(t, "typacl14row.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE ROLE o;
CREATE TABLE t (x int);
ALTER TABLE t OWNER TO o;
CREATE VIEW v AS SELECT 1 AS y;
GRANT USAGE ON TYPE v TO b;
SET ROLE o;
GRANT USAGE ON TYPE t TO a WITH GRANT OPTION;
REVOKE USAGE ON TYPE t FROM PUBLIC;
RESET ROLE;
SET ROLE a;
GRANT USAGE ON TYPE t TO b;
RESET ROLE;
ALTER TABLE t RENAME TO t2;
ALTER TABLE t2 OWNER TO b`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT typname, typacl::text FROM pg_type WHERE typname IN ('t2', 'v') ORDER BY 1", "[[t2 {b=U/b,a=U*/b,b=U/a}] [v {=U/deltaview,deltaview=U/deltaview,b=U/deltaview}]]"},
		{"SELECT has_type_privilege('a', 't2', 'USAGE WITH GRANT OPTION'), has_type_privilege('o', 't2', 'USAGE')", "[[t f]]"},
	})
}
