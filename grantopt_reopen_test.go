package deltaview_test

import (
	"fmt"
	"testing"
)

// TestGrantOptionReopen checks that the grant options on relations,
// sequences, columns, schemas, routines and the database, those revoked included, are what they were
// after the file is opened again, and still let their holders' options
// answer.
func TestGrantOptionReopen(t *testing.T) {
	db := reopenedFileDB(t, "grantopt.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE TABLE t (x int, y int);
CREATE SEQUENCE q;
GRANT SELECT, INSERT ON t TO a WITH GRANT OPTION;
GRANT UPDATE ON t TO a;
GRANT ALL ON t TO b WITH GRANT OPTION;
REVOKE GRANT OPTION FOR SELECT ON t FROM a;
GRANT USAGE ON SEQUENCE q TO a WITH GRANT OPTION;
GRANT UPDATE (y) ON t TO a WITH GRANT OPTION;
GRANT SELECT (x) ON t TO b;
CREATE SCHEMA s;
GRANT ALL ON SCHEMA s TO a WITH GRANT OPTION;
REVOKE GRANT OPTION FOR CREATE ON SCHEMA s FROM a;
GRANT CONNECT, CREATE ON DATABASE deltaview TO b WITH GRANT OPTION;
REVOKE GRANT OPTION FOR CREATE ON DATABASE deltaview FROM b;
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1';
GRANT EXECUTE ON FUNCTION f() TO a, b WITH GRANT OPTION;
REVOKE GRANT OPTION FOR EXECUTE ON FUNCTION f() FROM b`)
	defer db.Close()
	rs, err := db.Query("SELECT relname, relacl::text FROM pg_class WHERE relname IN ('t', 'q') ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[q {deltaview=rwU/deltaview,a=U*/deltaview}] [t {deltaview=arwdDxt/deltaview,a=a*rw/deltaview,b=a*r*w*d*D*x*t*/deltaview}]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("relacl after reopening:\n got %s\nwant %s", g, want)
	}
	rs, err = db.Query("SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = 't'::regclass AND attnum > 0 ORDER BY attnum")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[x {b=r/deltaview}] [y {a=w*/deltaview}]]"; g != w {
		t.Errorf("attacl after reopening:\n got %s\nwant %s", g, w)
	}
	rs, err = db.Query("SELECT has_table_privilege('a', 't', 'INSERT WITH GRANT OPTION'), has_table_privilege('a', 't', 'SELECT WITH GRANT OPTION'), has_column_privilege('a', 't', 'y', 'UPDATE WITH GRANT OPTION'), has_sequence_privilege('a', 'q', 'USAGE WITH GRANT OPTION')")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[t f t t]]"; g != w {
		t.Errorf("privilege functions after reopening: got %s, want %s", g, w)
	}
	rs, err = db.Query("SELECT proacl::text FROM pg_proc WHERE proname = 'f'")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[{=X/deltaview,deltaview=X/deltaview,a=X*/deltaview,b=X/deltaview}]]"; g != w {
		t.Errorf("proacl after reopening: got %s, want %s", g, w)
	}
	rs, err = db.Query("SELECT datacl::text FROM pg_database")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[{=Tc/deltaview,deltaview=CTc/deltaview,b=Cc*/deltaview}]]"; g != w {
		t.Errorf("datacl after reopening: got %s, want %s", g, w)
	}
	rs, err = db.Query("SELECT nspacl::text FROM pg_namespace WHERE nspname = 's'")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[{deltaview=UC/deltaview,a=U*C/deltaview}]]"; g != w {
		t.Errorf("nspacl after reopening: got %s, want %s", g, w)
	}
}
