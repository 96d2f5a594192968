package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestFunctionDefaultsReopen checks that a file keeps the defaults and
// checks of tables that call user functions (SQL and PL/pgSQL, made by
// CREATE TABLE and ALTER TABLE, after a CREATE OR REPLACE): after the file
// is opened again the functions run at each write, the materialized view
// over the table is maintained, and DROP FUNCTION knows what depends on
// them.
func TestFunctionDefaultsReopen(t *testing.T) {
	db := reopenedFileDB(t, "fndefault.db", `CREATE FUNCTION next_a() RETURNS int LANGUAGE sql AS 'SELECT 42';
CREATE FUNCTION positive(int) RETURNS bool LANGUAGE plpgsql AS $$ BEGIN RETURN $1 > 0; END $$;
CREATE TABLE t (id int PRIMARY KEY, a int DEFAULT next_a(), b int CHECK (positive(b)));
INSERT INTO t (id, b) VALUES (1, 1);
CREATE OR REPLACE FUNCTION next_a() RETURNS int LANGUAGE sql AS 'SELECT 43';
CREATE FUNCTION below(x int, y int) RETURNS bool LANGUAGE sql AS 'SELECT x < y';
ALTER TABLE t ADD CONSTRAINT ab CHECK (below(b, a));
ALTER TABLE t ALTER COLUMN b SET DEFAULT next_a() - 40;
INSERT INTO t (id) VALUES (2);
CREATE MATERIALIZED VIEW mv AS SELECT a, count(*) AS n FROM t GROUP BY a;
CREATE TABLE lim (n int);
INSERT INTO lim VALUES (2);
CREATE FUNCTION under_lim(x int) RETURNS bool LANGUAGE sql STABLE AS 'SELECT x <= (SELECT max(n) FROM lim)';
CREATE TABLE u (x int CHECK (under_lim(x)));
INSERT INTO u VALUES (1);
CREATE DOMAIN pos AS int CHECK (positive(VALUE));
CREATE TABLE v (p pos)`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t (id) VALUES (3);
INSERT INTO t (id, b) VALUES (4, 5)`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, code string }{
		{"INSERT INTO t (id, b) VALUES (5, -1)", pgerr.CheckViolation},
		{"INSERT INTO t (id, a, b) VALUES (5, 1, 2)", pgerr.CheckViolation},
		{"DROP FUNCTION next_a()", pgerr.DependentObjects},
		{"DROP FUNCTION positive(int)", pgerr.DependentObjects},
		{"DROP FUNCTION below", pgerr.DependentObjects},
		{"INSERT INTO u VALUES (3)", pgerr.CheckViolation},
		{"INSERT INTO u VALUES (2)", ""},
		{"INSERT INTO v VALUES (0)", pgerr.CheckViolation},
		{"INSERT INTO v VALUES (1)", ""},
	} {
		if err := db.Exec(c.sql); c.code == "" && err != nil || c.code != "" && pgerr.Code(err) != c.code {
			t.Errorf("%s after reopening: got %v, want %s", c.sql, err, c.code)
		}
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM t ORDER BY id", "[[1 42 1] [2 43 3] [3 43 3] [4 43 5]]"},
		{"SELECT a, n FROM mv ORDER BY a", "[[42 1] [43 3]]"},
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef ORDER BY adnum", "[[next_a()] [(next_a() - 40)]]"},
	})
	if err := db.Exec(`DROP TABLE v; DROP DOMAIN pos; DROP FUNCTION positive(int) CASCADE;
INSERT INTO t (id, b) VALUES (6, -1)`); err != nil {
		t.Errorf("the check dropped by DROP … CASCADE still holds: %v", err)
	}
	if err := db.Exec(`INSERT INTO t (id, b) VALUES (7, 50)`); pgerr.Code(err) != pgerr.CheckViolation {
		t.Errorf("the check ab after DROP … CASCADE of positive: got %v, want %s", err, pgerr.CheckViolation)
	}
}
