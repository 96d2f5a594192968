package deltaview_test

import "testing"

// TestDomop19DomainArgsReopen: an operator and an aggregate declared over
// a domain keep it from the file, under its new name after ALTER DOMAIN …
// RENAME TO, and DROP DOMAIN … CASCADE after the reopen still reaches
// them, gone from the file too; a comment on the operator follows the
// rename.
func TestDomop19DomainArgsReopen(t *testing.T) {
	db, path := openFileDB(t, "domop19.db")
	if err := db.Exec(`CREATE DOMAIN dd AS int CHECK (VALUE > 0);
CREATE FUNCTION sf(int, dd) RETURNS int LANGUAGE sql AS 'SELECT coalesce($1, 0) + $2';
CREATE AGGREGATE ag(dd) (sfunc = sf, stype = int);
CREATE FUNCTION eq(int, dd) RETURNS bool LANGUAGE sql AS 'SELECT $1 = $2';
CREATE OPERATOR =%= (leftarg = int, rightarg = dd, function = eq);
CREATE DOMAIN d2 AS int;
CREATE FUNCTION eq2(d2, int) RETURNS bool LANGUAGE sql AS 'SELECT $1 = $2';
CREATE OPERATOR =%= (leftarg = d2, rightarg = int, function = eq2);
COMMENT ON OPERATOR =%= (d2, int) IS 'c';
ALTER DOMAIN d2 RENAME TO d3`); err != nil {
		t.Fatal(err)
	}
	db = reopenFileDB(t, db, path)
	defer func() { db.Close() }()
	wantRows(t, db, []queryRows{
		{"SELECT oprleft::regtype::text, oprright::regtype::text FROM pg_operator WHERE oprname = '=%=' ORDER BY 1", "[[d3 integer] [integer dd]]"},
		{"SELECT 'ag(dd)'::regprocedure::text, '=%=(int,dd)'::regoperator::text, '=%=(d3,int)'::regoperator::text", "[[ag(dd) =%=(integer,dd) =%=(d3,integer)]]"},
		{"SELECT ag(x), 1 =%= 1 FROM (VALUES (1), (2)) v(x)", "[[3 t]]"},
		{"SELECT obj_description('=%=(d3,int)'::regoperator, 'pg_operator')", "[[c]]"},
	})
	if err := db.Exec(`DROP DOMAIN dd CASCADE; DROP OPERATOR =%= (d3, int)`); err != nil {
		t.Fatal(err)
	}
	db = reopenFileDB(t, db, path)
	wantRows(t, db, []queryRows{
		{"SELECT count(*) FROM pg_operator WHERE oprname = '=%='", "[[0]]"},
		{"SELECT count(*) FROM pg_proc WHERE proname IN ('ag', 'sf', 'eq')", "[[0]]"},
	})
}
