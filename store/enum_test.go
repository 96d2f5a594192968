package store_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
)

// TestEnumsSurviveReopen keeps an enum type whose labels were added
// before and after others, a table with a key, a column and an array of
// it, and a view ordered by it; after the file is opened again the
// labels, their order and the rows are the same, the view is maintained,
// and a type dropped stays dropped.
func TestEnumsSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "enum.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
		ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
		ALTER TYPE mood ADD VALUE 'glad' AFTER 'happy';
		CREATE TYPE gone AS ENUM ('x');
		DROP TYPE gone;
		CREATE TYPE "odd ""name""" AS ENUM ('it''s', 'a,b');
		CREATE TABLE t (m mood PRIMARY KEY, o "odd ""name""", a mood[] DEFAULT '{ok}');
		INSERT INTO t VALUES ('happy', 'it''s', '{sad,glad}'), ('meh', 'a,b', DEFAULT), ('glad', NULL, NULL);
		CREATE MATERIALIZED VIEW v AS SELECT m, o FROM t ORDER BY m DESC LIMIT 2`)
	q := `SELECT m, o, a, enum_range(NULL::mood) FROM t ORDER BY m`
	qv := `SELECT * FROM v`
	before, beforeV := query(t, db, q), query(t, db, qv)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	if after := query(t, db, q); !slices.Equal(before, after) {
		t.Errorf("table before %q\nafter %q", before, after)
	}
	if after := query(t, db, qv); !slices.Equal(beforeV, after) {
		t.Errorf("view before %q\nafter %q", beforeV, after)
	}
	execSQL(t, db, `ALTER TYPE mood ADD VALUE 'joy' AFTER 'glad'; INSERT INTO t VALUES ('joy', NULL, NULL)`)
	if got, want := query(t, db, qv), query(t, db, `SELECT m, o FROM t ORDER BY m DESC LIMIT 2`); !slices.Equal(got, want) || got[0] != "mood:joy | NULL" {
		t.Errorf("view after an insert: %q, want %q", got, want)
	}
	if err := db.Exec(`CREATE TYPE gone AS ENUM ('y')`); err != nil {
		t.Errorf("a dropped type came back: %v", err)
	}
}

// TestFormat7Opens checks that a file of format 7, which keeps no types,
// opens and keeps the types created after.
func TestFormat7Opens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v7.db")
	db := open(t, path)
	execSQL(t, db, "CREATE TABLE t (x int); INSERT INTO t VALUES (1)")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"DROP TABLE deltaview_types", "DROP TABLE deltaview_domains", "DROP TABLE deltaview_schemas", "PRAGMA user_version = 7"} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db = open(t, path)
	execSQL(t, db, "CREATE TYPE e AS ENUM ('a', 'b'); CREATE TABLE u (v e); INSERT INTO u VALUES ('b')")
	db.Close()
	db = open(t, path)
	defer db.Close()
	if got := query(t, db, "SELECT v, x FROM u, t"); !slices.Equal(got, []string{"e:b | integer:1"}) {
		t.Errorf("after reopening the upgraded file: %q", got)
	}
}
