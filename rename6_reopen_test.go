package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestRenamedFunctionUsersReopen checks that a file keeps the users of a
// function renamed by ALTER FUNCTION … RENAME TO (a table's default,
// check and generated column, a domain's check and default, a plain and
// a materialized view, and a view calling a renamed aggregate) calling
// it by its new name: after the file is opened again they run, and the
// old names are gone.
func TestRenamedFunctionUsersReopen(t *testing.T) {
	db := reopenedFileDB(t, "rename6_fn.db", `CREATE FUNCTION dbl(x int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN x * 2; END $$;
CREATE FUNCTION pos(x int) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN x > 0; END $$;
CREATE FUNCTION seed() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 7; END $$;
CREATE DOMAIN posint AS int CHECK (pos(VALUE)) DEFAULT seed();
CREATE TABLE t (id int PRIMARY KEY, a int DEFAULT seed() CHECK (pos(a)), d int GENERATED ALWAYS AS (dbl(a)) STORED, p posint);
INSERT INTO t (id, a) VALUES (1, 3);
CREATE FUNCTION inc(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1';
CREATE AGGREGATE total(int) (SFUNC = int4pl, STYPE = int, INITCOND = '0');
CREATE VIEW pv AS SELECT id, inc(a) AS i FROM t;
CREATE MATERIALIZED VIEW mv AS SELECT id, dbl(a) AS dd, inc(a) AS ii FROM t;
CREATE MATERIALIZED VIEW tv AS SELECT total(a) AS s FROM t;
ALTER FUNCTION dbl(int) RENAME TO twice;
ALTER FUNCTION pos(int) RENAME TO positive;
ALTER FUNCTION seed() RENAME TO seven;
ALTER FUNCTION inc(int) RENAME TO plus1;
ALTER AGGREGATE total(int) RENAME TO summed`)
	defer db.Close()
	for _, c := range []struct{ sql, code string }{
		{"INSERT INTO t (id) VALUES (2)", ""},
		{"INSERT INTO t (id, a) VALUES (3, -1)", pgerr.CheckViolation},
		{"INSERT INTO t (id, a, p) VALUES (4, 5, 0)", pgerr.CheckViolation},
		{"SELECT dbl(1)", pgerr.UndefinedFunction},
		{"DROP FUNCTION twice(int)", pgerr.DependentObjects},
	} {
		if err := db.Exec(c.sql); c.code == "" && err != nil || c.code != "" && pgerr.Code(err) != c.code {
			t.Errorf("%s after reopening: got %v, want %s", c.sql, err, c.code)
		}
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM t ORDER BY id", "[[1 3 6 7] [2 7 14 7]]"},
		{"SELECT * FROM pv ORDER BY id", "[[1 4] [2 8]]"},
		{"SELECT * FROM mv ORDER BY id", "[[1 6 4] [2 14 8]]"},
		{"SELECT * FROM tv", "[[10]]"},
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef ORDER BY adnum", "[[seven()] [twice(a)]]"},
		{"SELECT pg_get_viewdef('tv'::regclass) LIKE '%summed(%'", "[[t]]"},
	})
}
