package deltaview_test

import (
	"testing"
)

// TestPlpgsqlCatalogReopen checks that the file keeps the catalog changes
// of PL/pgSQL code that made its statement a transaction block, and none
// of a statement that failed after its catalog changes.
func TestPlpgsqlCatalogReopen(t *testing.T) {
	db, path := openFileDB(t, "plpgsql_catalog.db")
	s := db.Session()
	sessionExec(t, s, `CREATE TABLE src (k int PRIMARY KEY, v int)`)
	sessionExec(t, s, `CREATE MATERIALIZED VIEW mv AS SELECT sum(v) AS s FROM src`)
	sessionExec(t, s, `DO $$ BEGIN CREATE TABLE a (x int PRIMARY KEY); CREATE INDEX a_x ON a (x); INSERT INTO a VALUES (1); INSERT INTO src VALUES (1, 10); END $$`)
	sessionExec(t, s, `CREATE FUNCTION mkt(n text) RETURNS int LANGUAGE plpgsql AS $$ BEGIN EXECUTE format('CREATE TABLE %I (x int)', n); EXECUTE format('INSERT INTO %I VALUES (5)', n); RETURN 1; END $$`)
	sessionExec(t, s, `SELECT mkt('g')`)
	if err := s.Exec(`DO $$ BEGIN CREATE TABLE b (x int); INSERT INTO b VALUES (2); INSERT INTO src VALUES (2, 20); ALTER TABLE a ADD COLUMN y int; RAISE EXCEPTION 'boom'; END $$`); err == nil {
		t.Fatal("the failing DO block succeeded")
	}
	if err := s.Exec(`SELECT mkt('g')`); err == nil {
		t.Fatal("creating g twice succeeded")
	}
	sessionExec(t, s, `INSERT INTO src VALUES (3, 30)`)
	db = reopenFileDB(t, db, path)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname FROM pg_class WHERE relname IN ('a', 'a_x', 'b', 'g') ORDER BY 1", "[[a] [a_x] [g]]"},
		{"SELECT * FROM a", "[[1]]"},
		{"SELECT * FROM g", "[[5]]"},
		{"SELECT * FROM mv", "[[40]]"},
		{"SELECT k FROM src ORDER BY k", "[[1] [3]]"},
	})
}

// TestPlpgsqlCatalogReadReopen checks that the file keeps what functions
// called by a query that reads a table made, and the part of a procedure
// committed before a later part failed; and none of a failed query's.
func TestPlpgsqlCatalogReadReopen(t *testing.T) {
	db, path := openFileDB(t, "plpgsql_catalog_read.db")
	s := db.Session()
	sessionExec(t, s, `CREATE TABLE todo (id int PRIMARY KEY)`)
	sessionExec(t, s, `INSERT INTO todo VALUES (1), (2)`)
	sessionExec(t, s, `CREATE TABLE log (n int)`)
	sessionExec(t, s, `CREATE MATERIALIZED VIEW mv AS SELECT sum(n) AS s FROM log`)
	sessionExec(t, s, `CREATE FUNCTION mk(i int, fail int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN EXECUTE format('CREATE TABLE part_%s (x int)', i); EXECUTE format('INSERT INTO part_%s VALUES (%s)', i, i); IF i = fail THEN RAISE EXCEPTION 'no'; END IF; RETURN i; END $$`)
	// A volatile call makes its row as the statement writes it, so a
	// second call's CREATE TABLE follows a write to a table the view
	// reads: the view takes in the rows written before it first.
	sessionExec(t, s, `INSERT INTO log SELECT mk(id, 0) FROM todo WHERE id = 1`)
	sessionExec(t, s, `INSERT INTO log SELECT mk(id, 0) FROM todo WHERE id = 2`)
	sessionExec(t, s, `INSERT INTO log SELECT mk(id + 10, 0) FROM todo`)
	if err := s.Exec(`INSERT INTO log SELECT mk(id + 12, 13) FROM todo WHERE id = 1`); err == nil {
		t.Fatal("the failing call succeeded")
	}
	sessionExec(t, s, `CREATE PROCEDURE p() LANGUAGE plpgsql AS $$ BEGIN CREATE TABLE pa (x int); INSERT INTO log VALUES (100); COMMIT; CREATE TABLE pb (x int); INSERT INTO log VALUES (1000); RAISE EXCEPTION 'late'; END $$`)
	if err := s.Exec(`CALL p()`); err == nil {
		t.Fatal("the failing procedure succeeded")
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname FROM pg_class WHERE relname IN ('pa', 'pb', 'part_1', 'part_2', 'part_11', 'part_12', 'part_13') ORDER BY 1", "[[pa] [part_1] [part_11] [part_12] [part_2]]"},
		{"SELECT * FROM part_2", "[[2]]"},
		{"SELECT * FROM part_12", "[[12]]"},
		{"SELECT n FROM log ORDER BY n", "[[1] [2] [11] [12] [100]]"},
		{"SELECT * FROM mv", "[[126]]"},
	})
}
