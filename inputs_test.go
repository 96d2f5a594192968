package deltaview_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestExecNULIsAnError: a NUL byte ended a script silently and Exec
// reported success; it is invalid text (22021), and nothing runs.
func TestExecNULIsAnError(t *testing.T) {
	db := deltaview.Open()
	err := db.Exec("CREATE TABLE t (a int);\x00 CREATE TABLE u (a int);")
	if deltaview.Code(err) != "22021" {
		t.Fatalf("got %v, want 22021", err)
	}
	if _, err := db.Query("SELECT * FROM t"); deltaview.Code(err) != "42P01" {
		t.Fatalf("the statement before the NUL ran: %v", err)
	}
	if _, err := db.Query("SELECT 1\x00"); deltaview.Code(err) != "22021" {
		t.Fatalf("query with NUL: %v", err)
	}
}

// TestInvalidTextAPI: deltaview.Text took invalid UTF-8 and NUL into
// tables and views; every entry of the typed API refuses them with 22021
// and PostgreSQL's message, and nothing is applied.
func TestInvalidTextAPI(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec("CREATE TABLE t (id int PRIMARY KEY, s text); CREATE MATERIALIZED VIEW v AS SELECT * FROM t"); err != nil {
		t.Fatal(err)
	}
	ins, err := db.Prepare("INSERT INTO t VALUES ($1, $2)")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"a\xffb", "a\x00b", "\xc3"} {
		want := fmt.Sprintf("invalid byte sequence for encoding \"UTF8\": 0x%02x", s[strings.IndexFunc(s, func(r rune) bool { return r != 'a' })])
		check := func(what string, err error) {
			t.Helper()
			if deltaview.Code(err) != "22021" || err.Error() != want {
				t.Errorf("%s %q: got %v, want 22021 %s", what, s, err, want)
			}
		}
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		check("Tx.Insert", tx.Insert("t", deltaview.Int(1), deltaview.Text(s)))
		check("Tx.Apply", tx.Apply("t", deltaview.Upsert{Row: []deltaview.Value{deltaview.Int(1), deltaview.Text(s)}}))
		_, err = tx.Exec(ins, deltaview.Int(1), deltaview.Text(s))
		check("Tx.Exec", err)
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		_, err = ins.Exec(deltaview.Int(1), deltaview.Text(s))
		check("Stmt.Exec", err)
	}
	rows, err := db.View("v")
	if err != nil || len(rows.Rows) != 0 {
		t.Fatalf("the view holds %v (%v)", rows, err)
	}
}

// TestRowsAreTheCallers: changing a row db.View returned changed the table
// and the view, after which the row could not be deleted (XX000 "retracting
// … would leave it with weight -1"); the rows returned are copies.
func TestRowsAreTheCallers(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec("CREATE TABLE t (id int PRIMARY KEY, s text); INSERT INTO t VALUES (1, 'a');" +
		"CREATE MATERIALIZED VIEW v AS SELECT * FROM t"); err != nil {
		t.Fatal(err)
	}
	rows, _ := db.View("v")
	rows.Rows[0][1] = deltaview.Text("x")
	q, _ := db.Query("SELECT * FROM t")
	q.Rows[0][1] = deltaview.Text("y")
	s := db.Session()
	defer s.Close()
	if err := s.Run("SELECT * FROM v", func(r *deltaview.Result) error {
		r.Rows[0][1] = deltaview.Text("z")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{"t", "v"} {
		r, err := db.Query("SELECT s FROM " + from)
		if err != nil || len(r.Rows) != 1 || fmt.Sprint(r.Rows[0][0]) != "a" {
			t.Fatalf("%s holds %v (%v)", from, r, err)
		}
	}
	if err := db.Exec("DELETE FROM t WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	if rows, err := db.View("v"); err != nil || len(rows.Rows) != 0 {
		t.Fatalf("after the deletion v holds %v (%v)", rows, err)
	}
}
