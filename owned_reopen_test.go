package deltaview_test

import "testing"

// TestOwnedReopen checks that a database file keeps the EXECUTE grants
// of routines (pg_proc.proacl, and the calls they allow or refuse), with
// the owner ALTER … OWNER TO gave a routine.
func TestOwnedReopen(t *testing.T) {
	db := reopenedFileDB(t, "owned.db", `CREATE ROLE alice;
CREATE ROLE bob;
CREATE SCHEMA s;
GRANT USAGE ON SCHEMA s TO alice, bob;
CREATE FUNCTION s.f(int) RETURNS int LANGUAGE sql AS 'SELECT $1 + 1';
CREATE FUNCTION g() RETURNS int LANGUAGE sql AS 'SELECT 7';
CREATE PROCEDURE p() LANGUAGE sql AS 'SELECT 1';
REVOKE EXECUTE ON ALL ROUTINES IN SCHEMA public, s FROM PUBLIC;
GRANT EXECUTE ON FUNCTION s.f(int) TO bob, alice;
REVOKE EXECUTE ON FUNCTION s.f(int) FROM bob;
ALTER FUNCTION g() OWNER TO bob;
GRANT EXECUTE ON PROCEDURE p() TO alice`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT proname, proacl::text FROM pg_proc WHERE proname IN ('f', 'g', 'p') ORDER BY 1",
			"[[f {deltaview=X/deltaview,alice=X/deltaview}] [g {bob=X/bob}] [p {deltaview=X/deltaview,alice=X/deltaview}]]"},
	})
	s := db.Session()
	defer s.Close()
	sessionExec(t, s, "SET ROLE bob")
	if _, err := firstValue(s, "SELECT s.f(1)"); err == nil {
		t.Error("bob calls s.f, whose EXECUTE was revoked, after reopening")
	}
	if v, err := firstValue(s, "SELECT g()"); err != nil || v != "7" {
		t.Errorf("bob calls g, which he owns: %q, %v", v, err)
	}
	sessionExec(t, s, "SET ROLE alice")
	if v, err := firstValue(s, "SELECT s.f(1)"); err != nil || v != "2" {
		t.Errorf("alice calls s.f, granted to her: %q, %v", v, err)
	}
	sessionExec(t, s, "CALL p()")
}

// TestReassignOwnedReopen checks that a database file keeps the owners
// REASSIGN OWNED gave and forgets the privileges and objects DROP OWNED
// took away.
func TestReassignOwnedReopen(t *testing.T) {
	db := reopenedFileDB(t, "reassign.db", `CREATE ROLE carol;
CREATE ROLE dave;
CREATE ROLE erin;
CREATE SCHEMA s;
CREATE TABLE s.t (id serial PRIMARY KEY);
CREATE FUNCTION s.f() RETURNS int LANGUAGE sql AS 'SELECT 1';
CREATE TABLE gone (a int);
CREATE TABLE u (a int);
ALTER SCHEMA s OWNER TO carol;
ALTER TABLE s.t OWNER TO carol;
ALTER FUNCTION s.f() OWNER TO carol;
ALTER TABLE gone OWNER TO erin;
GRANT SELECT ON u TO erin;
REVOKE EXECUTE ON FUNCTION s.f() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION s.f() TO erin;
REASSIGN OWNED BY carol TO dave;
DROP OWNED BY erin;
DROP ROLE carol, erin`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname, relowner::regrole::text FROM pg_class WHERE relname IN ('t', 't_id_seq', 'gone') ORDER BY 1",
			"[[t dave] [t_id_seq dave]]"},
		{"SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = 's'", "[[dave]]"},
		{"SELECT proowner::regrole::text, proacl::text FROM pg_proc WHERE proname = 'f'", "[[dave {dave=X/dave}]]"},
	})
}
