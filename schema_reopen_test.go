package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestSchemasReopen checks that a database file keeps its schemas, with
// their owners and privileges, and the relations in them, made qualified
// or through the search path, with their rows, their sequences' values
// and the views over them, maintained after the file is opened again.
func TestSchemasReopen(t *testing.T) {
	db := reopenedFileDB(t, "schemas.db", `CREATE SCHEMA s1;
CREATE SCHEMA s2 CREATE TABLE t (a int PRIMARY KEY, c int) CREATE VIEW v AS SELECT a FROM t WHERE c > 0;
CREATE ROLE reader LOGIN;
GRANT USAGE ON SCHEMA s1 TO reader;
CREATE TABLE s1.t (a int PRIMARY KEY, b text);
CREATE TABLE t (a int PRIMARY KEY, d text);
SET search_path = s1, public;
CREATE SEQUENCE sq;
CREATE TABLE u (id serial PRIMARY KEY, x int);
CREATE INDEX u_x ON u (x);
CREATE MATERIALIZED VIEW mv AS SELECT t.a, t.b, s2t.c FROM t JOIN s2.t s2t ON t.a = s2t.a;
RESET search_path;
CREATE MATERIALIZED VIEW pub AS SELECT count(*) AS n FROM s1.u;
INSERT INTO s1.t VALUES (1, 'one'), (2, 'two');
INSERT INTO s2.t VALUES (1, 10), (2, -1);
INSERT INTO t VALUES (1, 'public');
INSERT INTO s1.u (x) VALUES (5), (6);
SELECT nextval('s1.sq');
CREATE TABLE s1.w (id int PRIMARY KEY, p int REFERENCES s1.t (a));
INSERT INTO s1.w VALUES (1, 1);
ALTER TABLE s1.w ADD COLUMN z int DEFAULT 5;
COMMENT ON TABLE s1.w IS 'in s1'`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO s2.t VALUES (3, 30); INSERT INTO s1.t VALUES (3, 'three'); INSERT INTO s1.u (x) VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO s1.w VALUES (2, 9)`); err == nil {
		t.Error("a row of s1.w referencing no row of s1.t was accepted after reopening")
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM s1.mv ORDER BY a", "[[1 one 10] [2 two -1] [3 three 30]]"},
		{"SELECT * FROM pub", "[[3]]"},
		{"SELECT * FROM s2.v ORDER BY a", "[[1] [3]]"},
		{"SELECT * FROM t", "[[1 public]]"},
		{"SELECT id, x FROM s1.u ORDER BY id", "[[1 5] [2 6] [3 7]]"},
		{"SELECT nextval('s1.sq')", "[[2]]"},
		{"SELECT *, obj_description('s1.w'::regclass) FROM s1.w", "[[1 1 5 in s1]]"},
		{"SELECT nspname, nspowner::regrole FROM pg_namespace WHERE nspname LIKE 's_' ORDER BY 1", "[[s1 deltaview] [s2 deltaview]]"},
		{"SELECT relname, relnamespace::regnamespace FROM pg_class WHERE relname IN ('t', 'u', 'mv', 'u_x', 'sq', 'v') ORDER BY relnamespace::regnamespace::text, 1", "[[t public] [mv s1] [sq s1] [t s1] [u s1] [u_x s1] [t s2] [v s2]]"},
		{"SELECT has_schema_privilege('reader', 's1', 'usage'), has_schema_privilege('reader', 's2', 'usage')", "[[t f]]"},
	})
}

// TestSchemaObjectsReopen checks that types, domains, functions,
// procedures and aggregates made in a schema, qualified or through the
// search path, and the tables and views that use them, are as they were
// after the file is opened again.
func TestSchemaObjectsReopen(t *testing.T) {
	db := reopenedFileDB(t, "schemaobjs.db", `CREATE SCHEMA s;
CREATE TYPE s.mood AS ENUM ('sad', 'happy');
CREATE DOMAIN s.pos AS int CHECK (VALUE > 0);
CREATE TYPE s.pair AS (a int, b text);
CREATE FUNCTION s.f(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1';
CREATE FUNCTION s.add2(a int, b int) RETURNS int LANGUAGE sql AS 'SELECT a + b';
CREATE AGGREGATE s.mysum(int) (SFUNC = s.add2, STYPE = int, INITCOND = '0');
SET search_path = s, public;
CREATE FUNCTION g(x int) RETURNS int LANGUAGE sql AS 'SELECT x * 10';
CREATE TYPE color AS ENUM ('red', 'blue');
CREATE TABLE t (id int PRIMARY KEY, m mood, p pos, c color, q pair);
CREATE PROCEDURE p(x int) LANGUAGE sql AS 'INSERT INTO s.t (id, m, p, c) VALUES (x, ''sad'', x, ''red'')';
RESET search_path;
CREATE FUNCTION f(x int) RETURNS int LANGUAGE sql AS 'SELECT x * 100';
CREATE MATERIALIZED VIEW mv AS SELECT m, s.mysum(s.f(p)) AS n, s.g(count(*)::int) AS k FROM s.t GROUP BY m;
INSERT INTO s.t VALUES (1, 'happy', 2, 'blue', ROW(1, 'x'))`)
	defer db.Close()
	if err := db.Exec(`CALL s.p(5)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO s.t (id, p) VALUES (9, -1)`); err == nil {
		t.Error("a value out of domain s.pos was accepted after reopening")
	}
	wantRows(t, db, []queryRows{
		{"SELECT m::text, n, k FROM mv ORDER BY m", "[[happy 3 10] [sad 6 10]]"},
		{"SELECT f(1), s.f(1), s.g(1)", "[[100 2 10]]"},
		{"SELECT 'blue'::s.color < 'red'::s.color, (q).b FROM s.t WHERE id = 1", "[[f x]]"},
		{"SELECT proname, pronamespace::regnamespace FROM pg_proc WHERE proname IN ('f', 'g', 'p', 'mysum') ORDER BY 2::text, 1", "[[f public] [f s] [g s] [mysum s] [p s]]"},
		{"SELECT typname, typnamespace::regnamespace FROM pg_type WHERE typname IN ('mood', 'pos', 'color') ORDER BY 1", "[[color s] [mood s] [pos s]]"},
	})
}

// TestSetSchemaReopen checks that a table, a type and a function moved
// by ALTER … SET SCHEMA are where they were moved to after the file is
// opened again, with their rows, and that the views made over them
// before the move, kept with the table's new name, and after it are
// maintained.
func TestSetSchemaReopen(t *testing.T) {
	db := reopenedFileDB(t, "setschema.db", `CREATE SCHEMA a;
CREATE SCHEMA b;
CREATE TYPE a.e AS ENUM ('x', 'y');
CREATE TABLE a.t (id int PRIMARY KEY, v int);
INSERT INTO a.t VALUES (1, 10);
CREATE FUNCTION a.f(x int) RETURNS int LANGUAGE sql AS 'SELECT x * 2';
SET search_path = a, public;
CREATE MATERIALIZED VIEW before AS SELECT count(*) AS n FROM t;
RESET search_path;
CREATE VIEW pv (x) AS SELECT v FROM a.t;
ALTER TABLE a.t SET SCHEMA b;
ALTER TYPE a.e SET SCHEMA b;
ALTER FUNCTION a.f(int) SET SCHEMA b;
INSERT INTO b.t VALUES (2, 20);
CREATE TABLE b.u (id int PRIMARY KEY, e b.e);
CREATE MATERIALIZED VIEW mv AS SELECT sum(b.f(v)) AS s FROM b.t`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO b.t VALUES (3, 30); INSERT INTO b.u VALUES (1, 'y')`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM b.t ORDER BY id", "[[1 10] [2 20] [3 30]]"},
		{"SELECT * FROM mv", "[[120]]"},
		{"SELECT * FROM a.before", "[[3]]"},
		{"SELECT * FROM pv ORDER BY x", "[[10] [20] [30]]"},
		{"SELECT e::text FROM b.u", "[[y]]"},
		{"SELECT relname FROM pg_class WHERE relnamespace = 'a'::regnamespace", "[[before]]"},
		{"SELECT to_regclass('a.t') IS NULL, to_regclass('b.t') IS NULL", "[[t f]]"},
	})
	for _, q := range []string{"SELECT a.f(1)", "SELECT 'x'::a.e"} {
		if _, err := db.Query(q); err == nil {
			t.Errorf("%s: the object is still in schema a after reopening", q)
		}
	}
}

// queryRows is a query and the rows it must give, printed by fmt.Sprint.
type queryRows struct{ q, want string }

// wantRows runs each query on db and fails the test for any whose rows
// are not the ones wanted.
func wantRows(t *testing.T, db *deltaview.DB, cases []queryRows) {
	t.Helper()
	for _, c := range cases {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s: got %s, want %s", c.q, g, c.want)
		}
	}
}
