package deltaview_test

import "testing"

// TestGrantor12AggregateACLReopen: an aggregate's EXECUTE privilege, its
// grant option, an owner change after the grants, CREATE OR REPLACE, a
// rename, default privileges and ALL FUNCTIONS IN SCHEMA come back from
// the file as they were.
func TestGrantor12AggregateACLReopen(t *testing.T) {
	db := reopenedFileDB(t, "grantor12.db", `CREATE ROLE a;
CREATE ROLE o;
CREATE FUNCTION add2(int, int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1 + $2';
CREATE AGGREGATE ag(int) (SFUNC = add2, STYPE = int, INITCOND = '0');
CREATE AGGREGATE ag2(int) (SFUNC = add2, STYPE = int, INITCOND = '0');
CREATE SCHEMA s;
CREATE AGGREGATE s.sg(int) (SFUNC = add2, STYPE = int, INITCOND = '0');
REVOKE EXECUTE ON FUNCTION ag(int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ag(int) TO a WITH GRANT OPTION;
ALTER AGGREGATE ag(int) OWNER TO o;
GRANT EXECUTE ON ROUTINE ag2 TO a;
CREATE OR REPLACE AGGREGATE ag2(int) (SFUNC = add2, STYPE = int, INITCOND = '1');
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA s FROM PUBLIC;
ALTER AGGREGATE ag2(int) RENAME TO ag3;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
CREATE AGGREGATE ag4(int) (SFUNC = add2, STYPE = int, INITCOND = '0')`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT proname, proacl::text FROM pg_proc WHERE proname IN ('ag', 'ag2', 'ag3', 'ag4', 'sg') ORDER BY 1", "[[ag {o=X/o,a=X*/o}] [ag3 {=X/deltaview,deltaview=X/deltaview,a=X/deltaview}] [ag4 {deltaview=X/deltaview}] [sg {deltaview=X/deltaview}]]"},
		{"SELECT has_function_privilege('a', 'ag(int)', 'EXECUTE WITH GRANT OPTION'), has_function_privilege('a', 's.sg(int)', 'EXECUTE')", "[[t f]]"},
	})
}
