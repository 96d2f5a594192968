package deltaview_test

import "testing"

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
