package deltaview_test

import (
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
