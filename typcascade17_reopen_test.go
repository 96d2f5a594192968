package deltaview_test

import "testing"

// TestTypcascade17RoutineUsersReopen: the operators and aggregates that
// DROP FUNCTION and DROP TYPE … CASCADE took with their functions stay
// gone in the file, and what they did not take comes back.
func TestTypcascade17RoutineUsersReopen(t *testing.T) {
	db := reopenedFileDB(t, "typcascade17.db", `CREATE FUNCTION f(int, int) RETURNS int LANGUAGE sql AS 'SELECT $1 + $2';
CREATE FUNCTION g(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
CREATE OPERATOR === (FUNCTION = f, LEFTARG = int, RIGHTARG = int);
CREATE AGGREGATE ag(int) (SFUNC = f, STYPE = int);
CREATE AGGREGATE ag2(int) (SFUNC = int4pl, STYPE = int, FINALFUNC = g);
CREATE AGGREGATE keep(int) (SFUNC = int4pl, STYPE = int);
CREATE TYPE c AS (a int);
CREATE FUNCTION h(c, int) RETURNS c LANGUAGE sql AS 'SELECT ROW(($1).a + $2)::c';
CREATE AGGREGATE agc(int) (SFUNC = h, STYPE = c, INITCOND = '(0)');
DROP FUNCTION f(int, int) CASCADE;
DROP FUNCTION g(int) CASCADE;
DROP TYPE c CASCADE`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT proname FROM pg_proc WHERE proname IN ('f', 'g', 'h', 'ag', 'ag2', 'agc', 'keep') ORDER BY 1", "[[keep]]"},
		{"SELECT count(*) FROM pg_operator WHERE oprname = '==='", "[[0]]"},
	})
}
