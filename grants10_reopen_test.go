package deltaview_test

import (
	"fmt"
	"testing"
)

// TestGrants10Reopen: column privileges granted by roles other than the
// owner come back from the file with their grantors and order, items the
// owner granted before the table changed owner with the new owner as
// their grantor; the items still hold privileges and dependencies after
// reopening.
func TestGrants10Reopen(t *testing.T) {
	db := reopenedFileDB(t, "grants10.db", `CREATE ROLE o;
CREATE ROLE a;
CREATE ROLE b;
CREATE ROLE c;
CREATE TABLE t (x int, y int);
GRANT SELECT (x) ON t TO c;
ALTER TABLE t OWNER TO o;
GRANT SELECT (x, y), UPDATE (y) ON t TO a WITH GRANT OPTION;
SET ROLE a;
GRANT SELECT (x) ON t TO b WITH GRANT OPTION;
GRANT UPDATE (y) ON t TO c;
RESET ROLE;
SET ROLE b;
GRANT SELECT (x) ON t TO PUBLIC;
RESET ROLE`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = 't'::regclass AND attnum > 0 ORDER BY attnum", "[[x {c=r/o,a=r*/o,b=r*/a,=r/b}] [y {a=r*w*/o,c=w/a}]]"},
		{"SELECT has_column_privilege('c', 't', 'y', 'UPDATE'), has_column_privilege('b', 't', 'x', 'SELECT WITH GRANT OPTION'), has_column_privilege('c', 't', 'y', 'SELECT')", "[[t t f]]"},
		{"SELECT grantor, grantee, column_name, privilege_type FROM information_schema.column_privileges WHERE table_name = 't' AND grantor <> 'o' ORDER BY 1, 2, 3, 4", "[[a b x SELECT] [a c y UPDATE] [b PUBLIC x SELECT]]"},
	})
	if err := db.Exec("DROP ROLE b"); err == nil {
		t.Error("DROP ROLE b, a grantor, succeeded after reopening")
	}
	if err := db.Exec("REVOKE GRANT OPTION FOR SELECT (x) ON t FROM a"); err == nil {
		t.Error("REVOKE … RESTRICT of a used grant option succeeded after reopening")
	}
	if err := db.Exec("REVOKE GRANT OPTION FOR SELECT (x) ON t FROM a CASCADE"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT attacl::text FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'x'")
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[{c=r/o,a=r/o}]]" {
		t.Errorf("x's ACL after REVOKE … CASCADE: %s", g)
	}
}
