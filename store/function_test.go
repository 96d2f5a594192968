package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestFunctionsReopen: SQL functions, overloads, replaced bodies and the
// views that call them survive a reopening; a dropped function stays
// gone, and a body whose table went since is not checked again.
func TestFunctionsReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "functions.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE t (id int PRIMARY KEY, v int);
		INSERT INTO t VALUES (1, 10), (2, 20);
		CREATE FUNCTION f(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1';
		CREATE FUNCTION f(x text) RETURNS text LANGUAGE sql AS $$ SELECT x || '!' $$;
		CREATE FUNCTION tot() RETURNS bigint LANGUAGE sql RETURN (SELECT sum(v) FROM t);
		CREATE FUNCTION g(x int) RETURNS int LANGUAGE sql AS 'SELECT x';
		CREATE OR REPLACE FUNCTION g(x int) RETURNS int LANGUAGE sql AS 'SELECT x * 100';
		CREATE FUNCTION gone() RETURNS int LANGUAGE sql AS 'SELECT 1';
		DROP FUNCTION gone;
		CREATE TABLE tmp (a int);
		CREATE FUNCTION reads_tmp() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM tmp';
		DROP TABLE tmp;
		CREATE MATERIALIZED VIEW m AS SELECT id, f(v) AS fv, g(id) AS gv, tot() AS s FROM t`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	execSQL(t, db, "INSERT INTO t VALUES (3, 30)")
	if got, want := query(t, db, "SELECT * FROM m ORDER BY id"), []string{
		"integer:1 | integer:11 | integer:100 | bigint:60", "integer:2 | integer:21 | integer:200 | bigint:60",
		"integer:3 | integer:31 | integer:300 | bigint:60"}; !slices.Equal(got, want) {
		t.Errorf("m after reopening: %q, want %q", got, want)
	}
	if got, want := query(t, db, "SELECT f('a')"), []string{"text:a!"}; !slices.Equal(got, want) {
		t.Errorf("f(text) after reopening: %q, want %q", got, want)
	}
	if err := db.Exec("SELECT gone()"); err == nil {
		t.Error("a dropped function came back on reopening")
	}
	if err := db.Exec("DROP FUNCTION f(int)"); err == nil {
		t.Error("a function a view calls was dropped after reopening")
	}
}

// TestPLpgSQLReopen: PL/pgSQL functions survive a reopening, replaced
// bodies as replaced, and run; one whose table went since is not
// checked again at open.
func TestPLpgSQLReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plpgsql.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE t (id int PRIMARY KEY, v int);
		INSERT INTO t VALUES (1, 10), (2, 20);
		CREATE FUNCTION total() RETURNS bigint LANGUAGE plpgsql AS $$
		DECLARE s bigint; BEGIN SELECT sum(v) INTO s FROM t; RETURN s; END $$;
		CREATE FUNCTION add(n int) RETURNS void LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO t VALUES (n, n * 10); END $$;
		CREATE FUNCTION g(x int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN x; END $$;
		CREATE OR REPLACE FUNCTION g(x int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN x * 100; END $$;
		CREATE TABLE tmp (a int);
		CREATE FUNCTION reads_tmp() RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN (SELECT count(*) FROM tmp); END $$;
		DROP TABLE tmp`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	execSQL(t, db, "SELECT add(3)")
	if got, want := query(t, db, "SELECT total(), g(2)"), []string{"bigint:60 | integer:200"}; !slices.Equal(got, want) {
		t.Errorf("after reopening: %q, want %q", got, want)
	}
}
