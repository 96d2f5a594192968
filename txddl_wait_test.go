package deltaview_test

import (
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// TestTxDDLReadersWait checks the isolation of a block that changed the
// catalog: from its first catalog change to its end, another session's
// query waits for it, and then sees the committed state; under
// lock_timeout it fails with 55P03 instead. A query before the block's
// first catalog change does not wait.
func TestTxDDLReadersWait(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	if err := db.Exec("CREATE TABLE t (a int PRIMARY KEY); INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	a, b := db.Session(), db.Session()
	defer a.Close()
	defer b.Close()
	sessionExec(t, a, "BEGIN")
	sessionExec(t, a, "INSERT INTO t VALUES (2)")
	if got, err := firstValue(b, "SELECT count(*) FROM t"); err != nil || got != "1" {
		t.Fatalf("before the catalog change: %s, %v; want 1 at once", got, err)
	}
	sessionExec(t, a, "ALTER TABLE t ADD COLUMN b int DEFAULT 7")
	sessionExec(t, b, "SET lock_timeout = '50ms'")
	if _, err := b.Query("SELECT count(*) FROM t"); deltaview.Code(err) != "55P03" {
		t.Fatalf("under lock_timeout: %v, want 55P03", err)
	}
	sessionExec(t, b, "SET lock_timeout = 0")
	done := make(chan string, 1)
	go func() {
		got, err := firstValue(b, "SELECT sum(b) FROM t")
		if err != nil {
			got = err.Error()
		}
		done <- got
	}()
	select {
	case got := <-done:
		t.Fatalf("the query did not wait for the block: %s", got)
	case <-time.After(100 * time.Millisecond):
	}
	sessionExec(t, a, "COMMIT")
	select {
	case got := <-done:
		if got != "14" {
			t.Fatalf("after the commit: %s, want 14", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the query still waits after the commit")
	}
	// A block that rolls back lets the waiting query see the state
	// before it.
	sessionExec(t, a, "BEGIN; DROP TABLE t")
	go func() {
		got, err := firstValue(b, "SELECT count(*) FROM t")
		if err != nil {
			got = err.Error()
		}
		done <- got
	}()
	time.Sleep(50 * time.Millisecond)
	sessionExec(t, a, "ROLLBACK")
	if got := <-done; got != "2" {
		t.Fatalf("after the rollback: %s, want 2", got)
	}
}
