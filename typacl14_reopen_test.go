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
