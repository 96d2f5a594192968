package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview"
)

// TestTempSequences: a temporary sequence, and the sequences of a
// temporary table's serial and identity columns, are their session's
// alone, go when the session closes, and never reach the database file,
// however many numbers they hand out.
func TestTempSequences(t *testing.T) {
	db, path := openFileDB(t, "tempseq.db")
	a, b := db.Session(), db.Session()
	sessionExec(t, a, "CREATE SEQUENCE s START 1000")
	sessionExec(t, a, "CREATE TEMP SEQUENCE s; CREATE TEMP TABLE tt (id serial, g int GENERATED ALWAYS AS IDENTITY, x int)")
	for i := 0; i < 100; i++ { // beyond the reserves a stored sequence records
		sessionExec(t, a, "INSERT INTO tt (x) VALUES (nextval('s'))")
	}
	if n, err := firstValue(a, "SELECT max(id) + max(g) + max(x) FROM tt"); err != nil || n != "300" {
		t.Fatalf("the session's own sequences: %q, %v", n, err)
	}
	if n, err := firstValue(b, "SELECT nextval('s')"); err != nil || n != "1000" {
		t.Errorf("another session's s: %q, %v (the temporary s shadows it in its own session only)", n, err)
	}
	for _, q := range []string{"SELECT nextval('tt_id_seq')", `SELECT nextval('"pg_temp_1.s"')`, `SELECT * FROM "pg_temp_1.tt_id_seq"`} {
		if _, err := firstValue(b, q); err == nil {
			t.Errorf("another session reaches a temporary sequence: %s", q)
		}
	}
	a.Close()
	c := db.Session()
	if n, err := firstValue(c, "SELECT nextval('s')"); err != nil || n != "1001" {
		t.Errorf("s once the temporary one is gone: %q, %v", n, err)
	}
	if _, err := firstValue(c, "SELECT nextval('tt_id_seq')"); err == nil {
		t.Error("a temporary table's sequence outlived its session")
	}
	sessionExec(t, c, "CREATE TEMP SEQUENCE s2; SELECT nextval('s2')")
	db = reopenFileDB(t, db, path)
	defer db.Close()
	s := db.Session()
	for _, q := range []string{"SELECT nextval('s2')", `SELECT nextval('"pg_temp_2.s2"')`, `SELECT nextval('"pg_temp_1.tt_id_seq"')`} {
		if _, err := firstValue(s, q); err == nil {
			t.Errorf("the database file kept a temporary sequence: %s", q)
		}
	}
	if n, err := firstValue(s, "SELECT nextval('s')"); err != nil || n != "1002" {
		t.Errorf("s after reopening: %q, %v", n, err)
	}
}

// TestTempFunctionsAndTypes: functions, types and domains made in
// pg_temp are their session's alone, go when it closes, and never reach
// the database file.
func TestTempFunctionsAndTypes(t *testing.T) {
	db, path := openFileDB(t, "tempobj.db")
	a, b := db.Session(), db.Session()
	sessionExec(t, a, `CREATE FUNCTION pg_temp.f(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1';
		CREATE TYPE pg_temp.mood AS ENUM ('ok'); CREATE DOMAIN pg_temp.pos AS int CHECK (VALUE > 0);
		CREATE TYPE pg_temp.pair AS (a int); CREATE TEMP TABLE tm (m mood, p pos, q pair);
		SELECT pg_temp.f(1), 'ok'::mood, 1::pos;
		CREATE FUNCTION pg_temp.r(x int) RETURNS int LANGUAGE sql AS 'SELECT x'; ALTER FUNCTION pg_temp.r(int) RENAME TO r9;
		CREATE TYPE pg_temp.pair2 AS (a int); ALTER TYPE pg_temp.pair2 RENAME TO pair9`)
	sessionExec(t, b, `CREATE FUNCTION pg_temp.f(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 2'`)
	if rows, err := b.Query(`SELECT pg_temp.f(1)`); err != nil || rows.Rows[0][0].String() != "3" {
		t.Errorf("the other session's own pg_temp.f: %v, %v", rows, err)
	}
	for _, q := range []string{`SELECT 'ok'::mood`, `SELECT 1::pos`, `SELECT "pg_temp_1.f"(1)`, `SELECT 'ok'::"pg_temp_1.mood"`} {
		if _, err := b.Query(q); err == nil {
			t.Errorf("another session reaches a temporary object: %s", q)
		}
	}
	a.Close()
	c := db.Session()
	sessionExec(t, c, `CREATE TYPE mood AS ENUM ('x'); CREATE DOMAIN pos AS int; CREATE FUNCTION f(x int) RETURNS int LANGUAGE sql AS 'SELECT x'`)
	db = reopenFileDB(t, db, path)
	defer db.Close()
	s := db.Session()
	if rows, err := s.Query(`SELECT f(1), 'x'::mood, 5::pos`); err != nil || rows.Rows[0][0].String() != "1" {
		t.Errorf("the permanent objects after reopening: %v, %v", rows, err)
	}
	for _, q := range []string{`SELECT r9(1)`, `SELECT ROW(1)::pair9`, `SELECT "pg_temp_1.f"(1)`, `SELECT "pg_temp_2.f"(1)`, `SELECT 'ok'::"pg_temp_1.mood"`, `SELECT 1::"pg_temp_1.pos"`} {
		if _, err := s.Query(q); err == nil {
			t.Errorf("the database file kept a temporary object: %s", q)
		}
	}
}

// TestTempInheritChild: a session's temporary child of a permanent table
// reaches no materialized view over the parent (a view is every
// session's), and the database file never records the link.
func TestTempInheritChild(t *testing.T) {
	db, path := openFileDB(t, "tempinh.db")
	count := func(s *deltaview.Session, q string) string {
		t.Helper()
		rows, err := s.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return rows.Rows[0][0].String()
	}
	a, b := db.Session(), db.Session()
	sessionExec(t, b, "CREATE TABLE p (a int); INSERT INTO p VALUES (1); CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n FROM p")
	sessionExec(t, a, "CREATE TEMP TABLE c () INHERITS (p); INSERT INTO c VALUES (2), (3)")
	if n := count(a, "SELECT count(*) FROM p"); n != "3" {
		t.Errorf("the session's own read of p: %s rows, want 3", n)
	}
	if n := count(b, "SELECT count(*) FROM p"); n != "1" {
		t.Errorf("another session's read of p: %s rows, want 1", n)
	}
	sessionExec(t, b, "INSERT INTO p VALUES (4)")
	if n := count(a, "SELECT n FROM mv"); n != "2" {
		t.Errorf("the view over p: %s, want 2 (the temporary child's rows are no view's)", n)
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	s := db.Session()
	if n := count(s, "SELECT count(*) FROM p"); n != "2" {
		t.Errorf("p after reopening: %s rows, want 2", n)
	}
	sessionExec(t, s, "DROP MATERIALIZED VIEW mv; DROP TABLE p")
}
