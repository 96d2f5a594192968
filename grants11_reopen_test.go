package deltaview_test

import (
	"fmt"
	"testing"
)

// TestGrants11Reopen: the items default privileges to PUBLIC gave
// relations and schemas come back from the file before the owner's item,
// and keep that place through later grants and an owner change; a
// grantee written CURRENT_USER is kept as the role it named.
func TestGrants11Reopen(t *testing.T) {
	db := reopenedFileDB(t, "grants11.db", `CREATE ROLE a;
CREATE ROLE b;
ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO PUBLIC, a;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON SEQUENCES TO PUBLIC;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON SCHEMAS TO PUBLIC;
CREATE TABLE t (x int);
CREATE SEQUENCE q;
CREATE SCHEMA s;
GRANT DELETE ON t TO PUBLIC;
GRANT UPDATE ON t TO b;
ALTER SEQUENCE q OWNER TO b;
SET ROLE b;
GRANT SELECT ON q TO CURRENT_USER;
RESET ROLE;
GRANT CREATE ON SCHEMA s TO a`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname, relacl::text FROM pg_class WHERE relname IN ('t', 'q') ORDER BY 1", "[[q {=U/b,b=rwU/b}] [t {=rd/deltaview,deltaview=arwdDxt/deltaview,a=r/deltaview,b=w/deltaview}]]"},
		{"SELECT nspacl::text FROM pg_namespace WHERE nspname = 's'", "[[{=U/deltaview,deltaview=UC/deltaview,a=C/deltaview}]]"},
		{"SELECT has_table_privilege('b', 't', 'DELETE'), has_table_privilege('b', 't', 'INSERT')", "[[t f]]"},
	})
	if err := db.Exec("REVOKE ALL ON t FROM PUBLIC; GRANT SELECT ON t TO PUBLIC"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT relacl::text FROM pg_class WHERE relname = 't'")
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[{deltaview=arwdDxt/deltaview,a=r/deltaview,b=w/deltaview,=r/deltaview}]]" {
		t.Errorf("t's ACL after PUBLIC's item left and came back: %s", g)
	}
}
