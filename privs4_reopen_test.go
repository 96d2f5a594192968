package deltaview_test

import (
	"fmt"
	"testing"
)

// TestColumnPrivilegesReopen checks that column privileges, their
// grantees' order, and what a column rename, a table rename, a move to
// another schema and a dropped column did to them are what they were
// after the file is opened again, and still let a role read the columns
// granted it.
func TestColumnPrivilegesReopen(t *testing.T) {
	db := reopenedFileDB(t, "privs4_columns.db", `CREATE ROLE p4r_a;
CREATE ROLE "p4r b";
CREATE SCHEMA p4r_s;
GRANT USAGE ON SCHEMA p4r_s TO PUBLIC;
CREATE TABLE p4r_t (a int, b int, c text, d int);
INSERT INTO p4r_t VALUES (1, 2, 'x', 4);
GRANT SELECT (a, b), UPDATE (c) ON p4r_t TO p4r_a;
GRANT SELECT (b) ON p4r_t TO PUBLIC;
GRANT ALL (b) ON p4r_t TO "p4r b";
GRANT INSERT (d) ON p4r_t TO p4r_a;
ALTER TABLE p4r_t RENAME COLUMN a TO aa;
ALTER TABLE p4r_t DROP COLUMN d;
ALTER TABLE p4r_t RENAME TO p4r_u;
ALTER TABLE p4r_u SET SCHEMA p4r_s;
CREATE TABLE p4r_gone (x int);
GRANT SELECT (x) ON p4r_gone TO p4r_a;
DROP TABLE p4r_gone;
CREATE TABLE p4r_gone (x int)`)
	defer db.Close()
	rs, err := db.Query("SELECT attname, coalesce(attacl::text, '-') FROM pg_attribute WHERE attrelid IN ('p4r_s.p4r_u'::regclass, 'p4r_gone'::regclass) AND attnum > 0 AND NOT attisdropped ORDER BY attname")
	if err != nil {
		t.Fatal(err)
	}
	want := `[[aa {p4r_a=r/deltaview}] [b {p4r_a=r/deltaview,=r/deltaview,"\"p4r b\"=arwx/deltaview"}] [c {p4r_a=w/deltaview}] [x -]]`
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("attacl after reopening:\n got %s\nwant %s", g, want)
	}
	s, err := db.SessionAs("p4r_a")
	if err != nil {
		t.Fatal(err)
	}
	if g, err := firstValue(s, "SELECT aa + b FROM p4r_s.p4r_u"); err != nil || g != "3" {
		t.Errorf("SELECT aa + b as p4r_a after reopening: got %q (%v), want 3", g, err)
	}
	if _, err := firstValue(s, "SELECT c FROM p4r_s.p4r_u"); err == nil {
		t.Errorf("SELECT c as p4r_a after reopening: want permission denied")
	}
	sessionExec(t, s, "UPDATE p4r_s.p4r_u SET c = 'y'")
}

// TestOwnerAlterReopen checks that what an owner that is no superuser
// changed in its table (a column added, a constraint, a comment, an
// index) is kept by the file.
func TestOwnerAlterReopen(t *testing.T) {
	db, path := openFileDB(t, "privs4_owner.db")
	sessionExec(t, db.Session(), `CREATE ROLE p4w_o;
CREATE SCHEMA p4w_s AUTHORIZATION p4w_o;
CREATE TABLE p4w_s.t (a int PRIMARY KEY);
ALTER TABLE p4w_s.t OWNER TO p4w_o;
CREATE FUNCTION p4w_s.f(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
ALTER FUNCTION p4w_s.f(int) OWNER TO p4w_o`)
	s, err := db.SessionAs("p4w_o")
	if err != nil {
		t.Fatal(err)
	}
	sessionExec(t, s, `ALTER TABLE p4w_s.t ADD COLUMN b int CHECK (b > 0);
COMMENT ON COLUMN p4w_s.t.b IS 'positive';
CREATE INDEX t_b ON p4w_s.t (b);
ALTER TABLE p4w_s.t RENAME TO u;
ALTER FUNCTION p4w_s.f(int) STABLE SECURITY DEFINER;
ALTER FUNCTION p4w_s.f(int) RENAME TO g`)
	db = reopenFileDB(t, db, path)
	defer db.Close()
	rs, err := db.Query(`SELECT col_description('p4w_s.u'::regclass, 2), (SELECT count(*) FROM pg_indexes WHERE indexname = 't_b'), pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'p4w_s.u'::regclass`)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[positive 1 p4w_o]]"; g != w {
		t.Errorf("after reopening: got %s, want %s", g, w)
	}
	rs, err = db.Query(`SELECT provolatile, prosecdef, pg_get_userbyid(proowner) FROM pg_proc WHERE oid = 'p4w_s.g(int)'::regprocedure`)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[s t p4w_o]]"; g != w {
		t.Errorf("the function its owner altered, after reopening: got %s, want %s", g, w)
	}
	if err := db.Exec("INSERT INTO p4w_s.u VALUES (1, 0)"); err == nil {
		t.Errorf("the CHECK the owner added is gone after reopening")
	}
}

// TestSchemaACLRevokedReopen checks that a schema whose every grant was
// revoked keeps its owner's item in nspacl after the file is opened
// again, as PostgreSQL keeps it, and one never granted stays NULL.
func TestSchemaACLRevokedReopen(t *testing.T) {
	db := reopenedFileDB(t, "privs4_nspacl.db", `CREATE ROLE p4n_r;
CREATE SCHEMA p4n_a;
CREATE SCHEMA p4n_b;
GRANT USAGE ON SCHEMA p4n_a TO p4n_r;
REVOKE USAGE ON SCHEMA p4n_a FROM p4n_r`)
	defer db.Close()
	rs, err := db.Query("SELECT nspname, coalesce(nspacl::text, '-') FROM pg_namespace WHERE nspname LIKE 'p4n%' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[p4n_a {deltaview=UC/deltaview}] [p4n_b -]]"; g != w {
		t.Errorf("nspacl after reopening: got %s, want %s", g, w)
	}
}
