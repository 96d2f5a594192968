package deltaview_test

import (
	"fmt"
	"testing"
)

// TestGrants9Reopen: ACL items granted by roles other than the owner,
// their order among the owner's, the grant options an owner change kept
// in the owner's item and a REVOKE … CASCADE's effect come back from the
// file; the items still hold privileges and dependencies after reopening.
func TestGrants9Reopen(t *testing.T) {
	db := reopenedFileDB(t, "grants9.db", `CREATE ROLE o;
CREATE ROLE a;
CREATE ROLE b;
CREATE ROLE c;
CREATE TABLE t (x int);
ALTER TABLE t OWNER TO o;
GRANT SELECT, UPDATE ON t TO a WITH GRANT OPTION;
SET ROLE a;
GRANT SELECT ON t TO b WITH GRANT OPTION;
GRANT UPDATE ON t TO c;
RESET ROLE;
SET ROLE b;
GRANT SELECT ON t TO c, PUBLIC;
RESET ROLE;
GRANT SELECT ON t TO c;
CREATE TABLE w (x int);
ALTER TABLE w OWNER TO o;
GRANT SELECT ON w TO a WITH GRANT OPTION;
SET ROLE a;
GRANT SELECT ON w TO o WITH GRANT OPTION;
GRANT SELECT ON w TO b WITH GRANT OPTION;
RESET ROLE;
SET ROLE b;
GRANT SELECT ON w TO c;
RESET ROLE;
ALTER TABLE w OWNER TO a;
CREATE SEQUENCE q;
GRANT USAGE ON SEQUENCE q TO a WITH GRANT OPTION;
SET ROLE a;
GRANT USAGE ON SEQUENCE q TO b;
RESET ROLE;
REVOKE GRANT OPTION FOR USAGE ON SEQUENCE q FROM a CASCADE`)
	defer db.Close()
	for _, c := range []struct{ q, want string }{
		{"SELECT relacl::text FROM pg_class WHERE relname = 't'", "[[{o=arwdDxt/o,a=r*w*/o,b=r*/a,c=w/a,c=r/b,=r/b,c=r/o}]]"},
		{"SELECT relacl::text FROM pg_class WHERE relname = 'w'", "[[{a=ar*wdDxt/a,b=r*/a,c=r/b}]]"},
		{"SELECT relacl::text FROM pg_class WHERE relname = 'q'", "[[{deltaview=rwU/deltaview,a=U/deltaview}]]"},
		{"SELECT has_table_privilege('c', 't', 'UPDATE'), has_table_privilege('b', 't', 'SELECT WITH GRANT OPTION'), has_table_privilege('c', 'w', 'SELECT')", "[[t t t]]"},
		{"SELECT grantor, grantee, privilege_type FROM information_schema.table_privileges WHERE table_name = 't' AND grantor <> 'o' ORDER BY 1, 2, 3", "[[a b SELECT] [a c UPDATE] [b PUBLIC SELECT] [b c SELECT]]"},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", c.q, g, c.want)
		}
	}
	if err := db.Exec("DROP ROLE b"); err == nil {
		t.Error("DROP ROLE b, a grantor, succeeded after reopening")
	}
	if err := db.Exec("REVOKE SELECT ON t FROM a"); err == nil {
		t.Error("REVOKE … RESTRICT of a used grant option succeeded after reopening")
	}
}
