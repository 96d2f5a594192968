package deltaview_test

import (
	"testing"
)

// TestAlterRoutineReopen checks that a file keeps what ALTER ROUTINE did
// to a function and a procedure (SET SCHEMA, RENAME TO, OWNER TO and
// options) and forgets a routine DROP ROUTINE dropped.
func TestAlterRoutineReopen(t *testing.T) {
	db := reopenedFileDB(t, "pseudo16_routine.db", `CREATE SCHEMA ns;
CREATE ROLE r1;
CREATE FUNCTION f(int) RETURNS int LANGUAGE sql AS 'SELECT $1 + 1';
CREATE PROCEDURE p(int) LANGUAGE sql AS 'SELECT 1';
CREATE FUNCTION gone(int) RETURNS int LANGUAGE sql AS 'SELECT 1';
ALTER ROUTINE f(int) SET SCHEMA ns;
ALTER ROUTINE ns.f(int) RENAME TO f2;
ALTER ROUTINE ns.f2(int) IMMUTABLE;
ALTER ROUTINE ns.f2(int) OWNER TO r1;
ALTER ROUTINE p(int) SET SCHEMA ns;
ALTER ROUTINE ns.p SECURITY DEFINER SET work_mem = '2MB';
DROP ROUTINE gone(int)`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT ns.f2(41)", "[[42]]"},
		{"SELECT proname::text, pronamespace::regnamespace::text, proowner::regrole::text, provolatile::text, prosecdef, proconfig::text FROM pg_proc WHERE proname IN ('f2', 'p', 'gone', 'f') ORDER BY 1",
			"[[f2 ns r1 i f NULL] [p ns deltaview v t {work_mem=2MB}]]"},
	})
}
