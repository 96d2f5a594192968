package store_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
)

// TestCompositeTypesSurviveReopen keeps composite types (one altered to
// hold a type made after it, one with a domain and an enum attribute, one
// nested, one under a domain; the attribute's domain renamed), columns
// of them, of arrays of them and of a table's row type,
// a primary key on one, and views over them; after the file is opened
// again the types keep their attributes, the rows and
// views are the same, and the views are maintained.
func TestCompositeTypesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "composite.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TYPE early AS (a int);
		CREATE TYPE mood AS ENUM ('sad', 'ok');
		CREATE DOMAIN posint AS int CHECK (VALUE > 0);
		CREATE TYPE later AS (p posint, m mood, "odd ""name""" text);
		ALTER TYPE early ADD ATTRIBUTE l later, ADD ATTRIBUTE ls later[];
		CREATE TYPE gone AS (x int);
		DROP TYPE gone;
		CREATE DOMAIN small AS later CHECK ((VALUE).p < 100);
		CREATE TABLE base (x int, y text);
		CREATE TABLE t (k later PRIMARY KEY, e early, b base, bs base[], s small);
		INSERT INTO t VALUES (ROW(1, 'ok', 'a b'), ROW(1, ROW(2, 'sad', NULL), ARRAY[ROW(3, 'ok', 'q')::later]), ROW(1, 'x'), '{"(2,y)"}', ROW(5, 'ok', NULL)),
			('(2,sad,"(,)")', NULL, NULL, NULL, NULL);
		CREATE MATERIALIZED VIEW v AS SELECT (k).m, count(*), min((e).a) FROM t GROUP BY (k).m;
		CREATE MATERIALIZED VIEW w AS SELECT k, ((e).l).p FROM t WHERE (k).p > 0;
		ALTER DOMAIN posint RENAME TO positive`)
	q := `SELECT k, e, b, bs, s, pg_typeof(e), pg_typeof(bs) FROM t ORDER BY k`
	qv := `SELECT * FROM v ORDER BY m`
	qw := `SELECT * FROM w ORDER BY k`
	before, beforeV, beforeW := query(t, db, q), query(t, db, qv), query(t, db, qw)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	for _, c := range []struct {
		q    string
		want []string
	}{{q, before}, {qv, beforeV}, {qw, beforeW}} {
		if after := query(t, db, c.q); !slices.Equal(c.want, after) {
			t.Errorf("%s: before %q\nafter %q", c.q, c.want, after)
		}
	}
	execSQL(t, db, `INSERT INTO t VALUES (ROW(3, 'ok', NULL), ROW(0, NULL, NULL), NULL, NULL); UPDATE t SET k.p = 9 WHERE (k).p = 1`)
	if got, want := query(t, db, qw), query(t, db, `SELECT k, ((e).l).p FROM t WHERE (k).p > 0 ORDER BY k`); !slices.Equal(got, want) || len(got) != 3 {
		t.Errorf("view after changes: %q, want %q", got, want)
	}
	if err := db.Exec(`INSERT INTO t VALUES (ROW(0, 'ok', NULL), NULL, NULL, NULL)`); err == nil {
		t.Error("the domain of an attribute is not checked after reopening")
	}
	if err := db.Exec(`INSERT INTO t (k, s) VALUES (ROW(7, 'ok', NULL), ROW(100, 'ok', NULL))`); err == nil {
		t.Error("a domain over a composite type is not checked after reopening")
	}
	if err := db.Exec(`CREATE TYPE gone AS (y text)`); err != nil {
		t.Errorf("a dropped type came back: %v", err)
	}
}

// TestFormat8Opens checks that a file of format 8, whose table of types
// has no statements, opens and keeps the composite types created after.
func TestFormat8Opens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v8.db")
	db := open(t, path)
	execSQL(t, db, "CREATE TYPE e AS ENUM ('a', 'b'); CREATE TABLE t (x e); INSERT INTO t VALUES ('b')")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"ALTER TABLE deltaview_types DROP COLUMN sql", "ALTER TABLE deltaview_types DROP COLUMN sorts", "DROP TABLE deltaview_schemas", "PRAGMA user_version = 8"} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db = open(t, path)
	execSQL(t, db, "CREATE TYPE c AS (v e, n int); CREATE TABLE u (r c); INSERT INTO u VALUES (ROW('a', 1))")
	db.Close()
	db = open(t, path)
	defer db.Close()
	if got := query(t, db, "SELECT r, x FROM u, t"); !slices.Equal(got, []string{"c:(a,1) | e:b"}) {
		t.Errorf("after reopening the upgraded file: %q", got)
	}
}
