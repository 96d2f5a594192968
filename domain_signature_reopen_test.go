package deltaview_test

import "testing"

// TestDomainSignatureReopen checks that routines declared of a domain
// keep it after the file is opened again: f(d) beside f(integer), each
// with its comment and privileges, and a PL/pgSQL function returning the
// domain, which checks its result.
func TestDomainSignatureReopen(t *testing.T) {
	db, path := openFileDB(t, "domainsig.db")
	if err := db.Exec(`CREATE DOMAIN dsr AS int CHECK (VALUE > 0);
CREATE FUNCTION dsf(x dsr) RETURNS int LANGUAGE sql AS 'SELECT x + 1';
CREATE FUNCTION dsf(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 100';
CREATE FUNCTION dsh(x int) RETURNS dsr LANGUAGE plpgsql AS 'BEGIN RETURN x; END';
COMMENT ON FUNCTION dsf(dsr) IS 'dom';
CREATE ROLE dsrole;
REVOKE EXECUTE ON FUNCTION dsf(dsr) FROM PUBLIC`); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		db = reopenFileDB(t, db, path)
		wantRows(t, db, []queryRows{
			{`SELECT dsf(1), dsf(1::dsr), dsf(dsh(2)), pg_typeof(dsh(1))::text`, "[[101 2 3 dsr]]"},
			{`SELECT oid::regprocedure::text, pg_get_function_arguments(oid), obj_description(oid, 'pg_proc') FROM pg_proc WHERE proname = 'dsf' ORDER BY 1`,
				"[[dsf(dsr) x dsr dom] [dsf(integer) x integer NULL]]"},
			{`SELECT has_function_privilege('dsrole', 'dsf(dsr)', 'EXECUTE'), has_function_privilege('dsrole', 'dsf(integer)', 'EXECUTE')`, "[[f t]]"},
		})
		if err := db.Exec(`SELECT dsh(-1)`); err == nil {
			t.Fatal("dsh(-1) returned a value the domain rejects")
		}
	}
	db.Close()
}
