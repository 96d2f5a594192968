package deltaview_test

import (
	"fmt"
	"testing"
)

// TestDefaultPrivilegesReopen checks that default privileges (global and
// in a schema, a schema's entries after its rename), the privileges they
// gave the objects created after them, a schema's grantees in the order
// of their grants and a function's COST and ROWS are what they were once
// the file is opened again, and that the entries still apply to what is
// created then.
func TestDefaultPrivilegesReopen(t *testing.T) {
	db := reopenedFileDB(t, "privs5_defacl.db", `CREATE ROLE p5r_a;
CREATE ROLE p5r_b;
CREATE SCHEMA p5r_s;
ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO p5r_b, p5r_a;
ALTER DEFAULT PRIVILEGES IN SCHEMA p5r_s GRANT INSERT ON TABLES TO p5r_b;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO p5r_a;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON SCHEMAS TO p5r_b;
ALTER DEFAULT PRIVILEGES FOR ROLE p5r_a IN SCHEMA p5r_s GRANT UPDATE ON SEQUENCES TO p5r_b;
CREATE TABLE p5r_s.t (a serial);
CREATE FUNCTION p5r_f() RETURNS SETOF int LANGUAGE sql AS 'SELECT 1';
ALTER FUNCTION p5r_f() COST 5 ROWS 9;
CREATE SCHEMA p5r_s2;
GRANT CREATE ON SCHEMA p5r_s2 TO p5r_a;
ALTER SCHEMA p5r_s RENAME TO p5r_s3`)
	defer db.Close()
	check := func(query, want string) {
		t.Helper()
		rs, err := db.Query(query)
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(rs.Rows); g != want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", query, g, want)
		}
	}
	check("SELECT defaclrole::regrole, defaclnamespace::regnamespace, defaclobjtype, defaclacl::text FROM pg_default_acl ORDER BY 1, 2, 3",
		"[[deltaview - f {deltaview=X/deltaview,p5r_a=X/deltaview}] [deltaview - n {deltaview=UC/deltaview,p5r_b=U/deltaview}] "+
			"[deltaview - r {deltaview=arwdDxt/deltaview,p5r_a=r/deltaview,p5r_b=r/deltaview}] [deltaview p5r_s3 r {p5r_b=a/deltaview}] "+
			"[p5r_a p5r_s3 S {p5r_b=w/p5r_a}]]")
	check("SELECT relname, relacl::text FROM pg_class WHERE relname IN ('t', 't_a_seq') AND relnamespace = 'p5r_s3'::regnamespace ORDER BY 1",
		"[[t {deltaview=arwdDxt/deltaview,p5r_a=r/deltaview,p5r_b=ar/deltaview}] [t_a_seq NULL]]")
	check("SELECT proacl::text, procost, prorows FROM pg_proc WHERE proname = 'p5r_f'", "[[{deltaview=X/deltaview,p5r_a=X/deltaview} 5 9]]")
	check("SELECT nspacl::text FROM pg_namespace WHERE nspname = 'p5r_s2'", "[[{deltaview=UC/deltaview,p5r_b=U/deltaview,p5r_a=C/deltaview}]]")
	if err := db.Exec("CREATE TABLE p5r_s3.u (a int)"); err != nil {
		t.Fatal(err)
	}
	check("SELECT relacl::text FROM pg_class WHERE oid = 'p5r_s3.u'::regclass", "[[{deltaview=arwdDxt/deltaview,p5r_a=r/deltaview,p5r_b=ar/deltaview}]]")
}

// TestDatabasePrivilegesReopen checks that the database's ACL, its
// grantees in the order of their grants, is what it was once the file is
// opened again.
func TestDatabasePrivilegesReopen(t *testing.T) {
	db := reopenedFileDB(t, "privs5_database.db", `CREATE ROLE p5r_d1;
CREATE ROLE p5r_d2;
GRANT CREATE ON DATABASE deltaview TO p5r_d2;
GRANT TEMP, CONNECT ON DATABASE deltaview TO p5r_d1;
REVOKE CONNECT ON DATABASE deltaview FROM PUBLIC`)
	defer db.Close()
	rs, err := db.Query("SELECT datacl::text, has_database_privilege('p5r_d1', 'deltaview', 'CONNECT'), has_database_privilege('p5r_d2', 'deltaview', 'CONNECT') FROM pg_database")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[{=T/deltaview,deltaview=CTc/deltaview,p5r_d2=C/deltaview,p5r_d1=Tc/deltaview} t f]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("datacl after reopening:\n got %s\nwant %s", g, want)
	}
}
