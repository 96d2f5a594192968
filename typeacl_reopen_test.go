package deltaview_test

import (
	"fmt"
	"testing"
)

// TestTypePrivilegesReopen checks that the types' ACLs (their grantees
// in order, a new owner's and a renamed type's) are what they were once
// the file is opened again, and still gate the columns a role adds; and
// that default privileges on types apply before and after.
func TestTypePrivilegesReopen(t *testing.T) {
	db := reopenedFileDB(t, "typeacl.db", `CREATE ROLE ta_r1;
CREATE ROLE ta_r2;
CREATE TYPE ta_rm AS ENUM ('a');
CREATE DOMAIN ta_rd AS int;
CREATE TYPE ta_rx AS ENUM ('b');
GRANT USAGE ON TYPE ta_rm TO ta_r2;
REVOKE USAGE ON TYPE ta_rm FROM PUBLIC;
GRANT USAGE ON TYPE ta_rm TO ta_r1;
GRANT USAGE ON DOMAIN ta_rd TO ta_r1;
ALTER DOMAIN ta_rd OWNER TO ta_r2;
REVOKE ALL ON TYPE ta_rx FROM PUBLIC;
ALTER TYPE ta_rx RENAME TO ta_ry;
CREATE TABLE ta_rt (a int);
ALTER TABLE ta_rt OWNER TO ta_r1;
ALTER DEFAULT PRIVILEGES REVOKE USAGE ON TYPES FROM PUBLIC;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON TYPES TO ta_r2;
CREATE TYPE ta_rz AS ENUM ('c')`)
	defer db.Close()
	rs, err := db.Query("SELECT typname, typacl::text FROM pg_type WHERE typacl IS NOT NULL AND typname LIKE 'ta_r%' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[ta_rd {=U/ta_r2,ta_r2=U/ta_r2,ta_r1=U/ta_r2}] [ta_rm {deltaview=U/deltaview,ta_r2=U/deltaview,ta_r1=U/deltaview}] [ta_ry {deltaview=U/deltaview}] [ta_rz {deltaview=U/deltaview,ta_r2=U/deltaview}]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("typacl after reopening:\n got %s\nwant %s", g, want)
	}
	if err := db.Exec("CREATE DOMAIN ta_rw AS int"); err != nil {
		t.Fatal(err)
	}
	rs, err = db.Query("SELECT typacl::text FROM pg_type WHERE typname = 'ta_rw'")
	if err != nil {
		t.Fatal(err)
	}
	if g, want := fmt.Sprint(rs.Rows), "[[{deltaview=U/deltaview,ta_r2=U/deltaview}]]"; g != want {
		t.Errorf("default privileges on types after reopening:\n got %s\nwant %s", g, want)
	}
	s, err := db.SessionAs("ta_r1")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Exec("ALTER TABLE ta_rt ADD COLUMN b ta_rm"); err != nil {
		t.Errorf("ta_r1 holds USAGE on ta_rm: %v", err)
	}
	if err := s.Exec("ALTER TABLE ta_rt ADD COLUMN c ta_ry"); err == nil || err.Error() != "permission denied for type ta_ry" {
		t.Errorf("ta_r1 lacks USAGE on ta_ry: got %v", err)
	}
}
