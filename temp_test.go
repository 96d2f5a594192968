package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview"
)

// TestTempTables: a temporary table is its session's alone, prepared
// statements resolve it in the session that runs them, it goes when the
// session closes, and the database file never holds it.
func TestTempTables(t *testing.T) {
	db, path := openFileDB(t, "temp.db")
	a, b := db.Session(), db.Session()
	sessionExec(t, a, "CREATE TABLE p (x int); INSERT INTO p VALUES (1)")
	sessionExec(t, a, "CREATE TEMP TABLE tt (x int); INSERT INTO tt VALUES (1), (2); CREATE TEMP TABLE p (x int)")
	if n, err := firstValue(a, "SELECT count(*) FROM tt"); err != nil || n != "2" {
		t.Fatalf("the session's own temporary table: %q, %v", n, err)
	}
	if _, err := firstValue(b, "SELECT count(*) FROM tt"); err == nil {
		t.Error("another session reads the temporary table")
	}
	if _, err := firstValue(b, `SELECT count(*) FROM "pg_temp_1.tt"`); err == nil {
		t.Error("another session reads the temporary table by the engine's name")
	}
	if n, err := firstValue(b, "SELECT count(*) FROM p"); err != nil || n != "1" {
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
	if _, err := firstValue(c, "SELECT count(*) FROM tt"); err == nil {
		t.Error("the temporary table outlived its session")
	}
	sessionExec(t, c, "CREATE TEMP TABLE tt (y int); INSERT INTO tt VALUES (5)")
	db = reopenFileDB(t, db, path)
	defer db.Close()
	s := db.Session()
	if _, err := firstValue(s, "SELECT count(*) FROM tt"); err == nil {
		t.Error("the database file kept a temporary table")
	}
	if n, err := firstValue(s, "SELECT count(*) FROM p"); err != nil || n != "1" {
		t.Errorf("p after reopening: %q, %v", n, err)
	}
}
