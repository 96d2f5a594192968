package deltaview_test

import (
	"path/filepath"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestTempTables: a temporary table is its session's alone, prepared
// statements resolve it in the session that runs them, it goes when the
// session closes, and the database file never holds it.
func TestTempTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "temp.db")
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	count := func(s *deltaview.Session, q string) (string, error) {
		t.Helper()
		rows, err := s.Query(q)
		if err != nil {
			return "", err
		}
		return rows.Rows[0][0].String(), nil
	}
	mustExec := func(s *deltaview.Session, q string) {
		t.Helper()
		if err := s.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	a, b := db.Session(), db.Session()
	mustExec(a, "CREATE TABLE p (x int); INSERT INTO p VALUES (1)")
	mustExec(a, "CREATE TEMP TABLE tt (x int); INSERT INTO tt VALUES (1), (2); CREATE TEMP TABLE p (x int)")
	if n, err := count(a, "SELECT count(*) FROM tt"); err != nil || n != "2" {
		t.Fatalf("the session's own temporary table: %q, %v", n, err)
	}
	if _, err := count(b, "SELECT count(*) FROM tt"); err == nil {
		t.Error("another session reads the temporary table")
	}
	if _, err := count(b, `SELECT count(*) FROM "pg_temp_1.tt"`); err == nil {
		t.Error("another session reads the temporary table by the engine's name")
	}
	if n, err := count(b, "SELECT count(*) FROM p"); err != nil || n != "1" {
		t.Errorf("another session's p: %q, %v (the temporary p shadows it in its own session only)", n, err)
	}
	st, err := db.Prepare("SELECT count(*) FROM p")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s    *deltaview.Session
		want string
	}{{a, "0"}, {b, "1"}, {a, "0"}} {
		rows, err := c.s.QueryStmt(st)
		if err != nil {
			t.Fatal(err)
		}
		if n := rows.Rows[0][0].String(); n != c.want {
			t.Errorf("prepared count(*) FROM p: %s, want %s", rows.Rows[0][0], c.want)
		}
	}
	a.Close()
	c := db.Session()
	if _, err := count(c, "SELECT count(*) FROM tt"); err == nil {
		t.Error("the temporary table outlived its session")
	}
	mustExec(c, "CREATE TEMP TABLE tt (y int); INSERT INTO tt VALUES (5)")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := db.Session()
	if _, err := count(s, "SELECT count(*) FROM tt"); err == nil {
		t.Error("the database file kept a temporary table")
	}
	if n, err := count(s, "SELECT count(*) FROM p"); err != nil || n != "1" {
		t.Errorf("p after reopening: %q, %v", n, err)
	}
}
