package deltaview_test

import (
	"fmt"
	"testing"
)

// TestGrants8Reopen checks that a table's REFERENCES and TRIGGER granted
// apart from ALL, default privileges and a type's USAGE WITH GRANT
// OPTION and what a
// schema's owner that is no superuser granted are what they were after
// the file is opened again, and that the default privileges still apply.
func TestGrants8Reopen(t *testing.T) {
	db := reopenedFileDB(t, "grants8.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE ROLE o;
CREATE TABLE t (x int);
GRANT ALL ON t TO a WITH GRANT OPTION;
REVOKE GRANT OPTION FOR DELETE ON t FROM a;
REVOKE DELETE ON t FROM a;
GRANT ALL ON t TO b;
REVOKE REFERENCES ON t FROM b;
ALTER DEFAULT PRIVILEGES GRANT SELECT, TRIGGER ON TABLES TO a WITH GRANT OPTION;
ALTER DEFAULT PRIVILEGES GRANT INSERT ON TABLES TO a;
ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO b WITH GRANT OPTION;
CREATE SCHEMA s AUTHORIZATION o;
SET ROLE o;
GRANT USAGE ON SCHEMA s TO a WITH GRANT OPTION;
RESET ROLE;
CREATE TYPE e AS ENUM ('x');
GRANT USAGE ON TYPE e TO a, b WITH GRANT OPTION;
REVOKE GRANT OPTION FOR USAGE ON TYPE e FROM a;
ALTER TYPE e RENAME TO e2`)
	defer db.Close()
	for _, c := range []struct{ q, want string }{
		{"SELECT relacl::text FROM pg_class WHERE relname = 't'", "[[{deltaview=arwdDxt/deltaview,a=a*r*w*D*x*t*/deltaview,b=arwdDt/deltaview}]]"},
		{"SELECT defaclobjtype, defaclacl::text FROM pg_default_acl ORDER BY 1", "[[f {=X/deltaview,deltaview=X/deltaview,b=X*/deltaview}] [r {deltaview=arwdDxt/deltaview,a=ar*t*/deltaview}]]"},
		{"SELECT nspacl::text FROM pg_namespace WHERE nspname = 's'", "[[{o=UC/o,a=U*/o}]]"},
		{"SELECT typacl::text FROM pg_type WHERE typname = 'e2'", "[[{=U/deltaview,deltaview=U/deltaview,a=U/deltaview,b=U*/deltaview}]]"},
		{"SELECT has_type_privilege('b', 'e2', 'USAGE WITH GRANT OPTION'), has_type_privilege('a', 'e2', 'USAGE WITH GRANT OPTION')", "[[t f]]"},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", c.q, g, c.want)
		}
	}
	if err := db.Exec("CREATE TABLE u (x int); CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ q, want string }{
		{"SELECT relacl::text FROM pg_class WHERE relname = 'u'", "[[{deltaview=arwdDxt/deltaview,a=ar*t*/deltaview}]]"},
		{"SELECT proacl::text FROM pg_proc WHERE proname = 'f'", "[[{=X/deltaview,deltaview=X/deltaview,b=X*/deltaview}]]"},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", c.q, g, c.want)
		}
	}
}
