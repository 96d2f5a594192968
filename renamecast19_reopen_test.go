package deltaview_test

import "testing"

// TestRenamecast19CastReopen: casts from, to and through types renamed or
// moved to another schema come back from the file keyed by the types'
// new names, calling their functions, and convert as before.
func TestRenamecast19CastReopen(t *testing.T) {
	db := reopenedFileDB(t, "renamecast19_cast.db", `CREATE TYPE c AS (a int, b text);
CREATE FUNCTION c_int(c) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1.a';
CREATE CAST (c AS int) WITH FUNCTION c_int(c);
CREATE TYPE e AS ENUM ('a', 'b');
CREATE CAST (e AS int) WITH INOUT;
CREATE DOMAIN d AS int;
CREATE FUNCTION d_text(d) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT 'd:' || $1$$;
CREATE CAST (d AS text) WITH FUNCTION d_text(d);
ALTER TYPE c RENAME TO c2;
CREATE SCHEMA s;
ALTER TYPE c2 SET SCHEMA s;
ALTER TYPE e RENAME TO e2;
ALTER DOMAIN d RENAME TO d2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT castsource::regtype::text, casttarget::regtype::text, castfunc::regprocedure::text, castmethod FROM pg_cast WHERE oid >= 16384 ORDER BY 1", "[[d2 text d_text(d2) f] [e2 integer - i] [s.c2 integer c_int(s.c2) f]]"},
		{"SELECT ('(7,x)'::s.c2)::int", "[[7]]"},
	})
}

// TestRenamecast19AtomicReopen: BEGIN ATOMIC bodies naming a type that
// is renamed are kept naming its new name, and run after reopening.
func TestRenamecast19AtomicReopen(t *testing.T) {
	db := reopenedFileDB(t, "renamecast19_atomic.db", `CREATE TYPE e AS ENUM ('a', 'b');
CREATE FUNCTION f() RETURNS text LANGUAGE sql BEGIN ATOMIC SELECT 'b'::e::text; END;
CREATE FUNCTION g(x e) RETURNS e LANGUAGE sql RETURN x;
CREATE DOMAIN d AS int CHECK (VALUE > 0);
CREATE FUNCTION h(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT x::d + 1; END;
ALTER TYPE e RENAME TO e2;
ALTER DOMAIN d RENAME TO d2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT f(), g('a'), h(1)", "[[b a 2]]"},
	})
}
