package deltaview_test

import "testing"

// TestGrantor14RoutineGrantorReopen: EXECUTE items granted by roles
// holding the grant option on functions, procedures and aggregates, a
// REVOKE taking a chain under CASCADE, an owner change merging items, a
// grantor dropped since, CREATE OR REPLACE, a move, a rename and default
// privileges come back from the file as they were.
func TestGrantor14RoutineGrantorReopen(t *testing.T) {
	db := reopenedFileDB(t, "grantor14.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE ROLE c;
CREATE ROLE d;
CREATE ROLE o;
CREATE ROLE m;
GRANT CREATE ON SCHEMA public TO o;
GRANT a TO m;
CREATE FUNCTION f(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
ALTER FUNCTION f(int) OWNER TO o;
GRANT EXECUTE ON FUNCTION f(int) TO a WITH GRANT OPTION;
SET ROLE m;
GRANT EXECUTE ON FUNCTION f(int) TO b WITH GRANT OPTION;
RESET ROLE;
SET ROLE b;
GRANT EXECUTE ON FUNCTION f(int) TO c, d;
GRANT EXECUTE ON FUNCTION f(int) TO a;
RESET ROLE;
SET ROLE a;
GRANT EXECUTE ON FUNCTION f(int) TO c;
REVOKE GRANT OPTION FOR EXECUTE ON FUNCTION f(int) FROM b CASCADE;
GRANT EXECUTE ON FUNCTION f(int) TO d WITH GRANT OPTION;
RESET ROLE;
SET ROLE d;
GRANT EXECUTE ON FUNCTION f(int) TO b;
RESET ROLE;
CREATE OR REPLACE FUNCTION f(int) RETURNS int LANGUAGE sql AS 'SELECT $1 + 1';
CREATE PROCEDURE p() LANGUAGE sql AS 'SELECT 1';
ALTER PROCEDURE p() OWNER TO o;
REVOKE ALL ON PROCEDURE p() FROM PUBLIC;
GRANT EXECUTE ON PROCEDURE p() TO a WITH GRANT OPTION;
SET ROLE a;
GRANT EXECUTE ON PROCEDURE p() TO o;
GRANT EXECUTE ON PROCEDURE p() TO b;
RESET ROLE;
ALTER PROCEDURE p() OWNER TO a;
CREATE FUNCTION add2(int, int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1 + $2';
CREATE AGGREGATE ag(int) (SFUNC = add2, STYPE = int, INITCOND = '0');
ALTER AGGREGATE ag(int) OWNER TO o;
GRANT EXECUTE ON FUNCTION ag(int) TO a WITH GRANT OPTION;
SET ROLE a;
GRANT EXECUTE ON FUNCTION ag(int) TO b WITH GRANT OPTION;
RESET ROLE;
SET ROLE b;
GRANT EXECUTE ON FUNCTION ag(int) TO c;
RESET ROLE;
CREATE OR REPLACE AGGREGATE ag(int) (SFUNC = add2, STYPE = int, INITCOND = '1');
CREATE SCHEMA s;
ALTER AGGREGATE ag(int) SET SCHEMA s;
ALTER AGGREGATE s.ag(int) RENAME TO ag5;
CREATE FUNCTION g() RETURNS int LANGUAGE sql AS 'SELECT 1';
ALTER FUNCTION g() OWNER TO o;
CREATE ROLE gone;
GRANT EXECUTE ON FUNCTION g() TO gone WITH GRANT OPTION;
SET ROLE gone;
GRANT EXECUTE ON FUNCTION g() TO c;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION g() FROM gone CASCADE;
DROP ROLE gone;
ALTER DEFAULT PRIVILEGES FOR ROLE o GRANT EXECUTE ON FUNCTIONS TO b WITH GRANT OPTION;
ALTER DEFAULT PRIVILEGES FOR ROLE o GRANT EXECUTE ON FUNCTIONS TO a;
SET ROLE o;
CREATE FUNCTION h() RETURNS int LANGUAGE sql AS 'SELECT 1';
RESET ROLE;
SET ROLE b;
GRANT EXECUTE ON FUNCTION h() TO c;
RESET ROLE`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT proname, proacl::text FROM pg_proc WHERE proname IN ('f', 'p', 'ag5', 'g', 'h') ORDER BY 1", "[[ag5 {=X/o,o=X/o,a=X*/o,b=X*/a,c=X/b}] [f {=X/o,o=X/o,a=X*/o,b=X/a,c=X/a,d=X*/a,b=X/d}] [g {=X/o,o=X/o}] [h {=X/o,a=X/o,b=X*/o,o=X/o,c=X/b}] [p {a=X*/a,b=X/a}]]"},
		{"SELECT has_function_privilege('d', 'f(int)', 'EXECUTE WITH GRANT OPTION'), has_function_privilege('b', 'f(int)', 'EXECUTE WITH GRANT OPTION')", "[[t f]]"},
	})
	if err := db.Exec("REVOKE EXECUTE ON FUNCTION f(int) FROM a"); err == nil {
		t.Fatal("REVOKE of an option others granted through: want 2BP01")
	}
	if err := db.Exec("REVOKE EXECUTE ON FUNCTION f(int) FROM a CASCADE"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT proacl::text FROM pg_proc WHERE proname = 'f'", "[[{=X/o,o=X/o}]]"},
	})
}
