package deltaview_test

import "testing"

// TestTyprename18CallersReopen: the default, the check, the domain and
// the views that call a routine keyed anew by its type's rename come
// back from the file calling it.
func TestTyprename18CallersReopen(t *testing.T) {
	db := reopenedFileDB(t, "typrename18.db", `CREATE TYPE e AS ENUM ('p', 'q');
CREATE FUNCTION f(x e) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT x::text';
CREATE TABLE t (x e, y text DEFAULT f('q'), CONSTRAINT ck CHECK (f(x) <> 'zz'));
INSERT INTO t (x) VALUES ('p');
CREATE VIEW v AS SELECT f(x) AS fx FROM t;
CREATE MATERIALIZED VIEW m AS SELECT f(x) AS fx, y FROM t;
CREATE DOMAIN dd AS text CHECK (VALUE <> f('q'));
ALTER TYPE e RENAME TO e2;
INSERT INTO t (x) VALUES ('q')`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t (x) VALUES ('p')`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT x::text, y FROM t ORDER BY 1, 2", "[[p q] [p q] [q q]]"},
		{"SELECT fx FROM v ORDER BY 1", "[[p] [p] [q]]"},
		{"SELECT fx, y FROM m ORDER BY 1", "[[p q] [p q] [q q]]"},
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 't'::regclass", "[[f('q'::e2)]]"},
		{"SELECT 'p'::dd::text", "[[p]]"},
	})
}

// TestTyprename18AggOpReopen: an aggregate and an operator over an enum
// renamed come back from the file under the type's new name.
func TestTyprename18AggOpReopen(t *testing.T) {
	db := reopenedFileDB(t, "typrename18a.db", `CREATE TYPE e AS ENUM ('a', 'b', 'c');
CREATE FUNCTION amax(s e, x e) RETURNS e LANGUAGE sql IMMUTABLE AS 'SELECT greatest(s, x)';
CREATE AGGREGATE agg(e) (sfunc = amax, stype = e);
CREATE FUNCTION aeq(x e, y int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT x::text = y::text';
CREATE OPERATOR === (leftarg = e, rightarg = int, function = aeq);
ALTER TYPE e RENAME TO e2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT agg(x)::text FROM (VALUES ('a'::e2), ('c')) v(x)", "[[c]]"},
		{"SELECT 'a'::e2 === 1", "[[f]]"},
		{"SELECT 'agg(e2)'::regprocedure::text", "[[agg(e2)]]"},
	})
}
