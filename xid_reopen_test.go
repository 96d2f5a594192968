package deltaview_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/deltaview/deltaview"
)

// Transaction ids keep increasing across a reopen of the database file,
// and txid_status() still tells the earlier transactions apart: those
// rolled back, or running when the file was closed, are aborted, the
// others committed. After a crash (a copy of the file and its log taken
// while it is open) the ids continue after the reserve the file recorded,
// never giving an id twice, and the transactions rolled back or running
// at the crash are aborted, as PostgreSQL reports them after its
// recovery; a second crash keeps the first one's answers.
func TestTxidsAcrossReopen(t *testing.T) {
	db, path := openFileDB(t, "xid.db")
	s := db.Session()
	txid := func(s *deltaview.Session) int64 {
		t.Helper()
		v, err := firstValue(s, "SELECT txid_current()")
		if err != nil {
			t.Fatal(err)
		}
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	sessionExec(t, s, "BEGIN")
	aborted := txid(s)
	sessionExec(t, s, "ROLLBACK")
	committed := txid(s)
	running := db.Session()
	sessionExec(t, running, "BEGIN")
	left := txid(running)
	if aborted != 3 || committed != 4 || left != 5 {
		t.Fatalf("ids %d, %d, %d; want 3, 4, 5", aborted, committed, left)
	}
	crashed := filepath.Join(t.TempDir(), "crashed.db")
	copyFileDB(t, path, crashed)

	db = reopenFileDB(t, db, path)
	s = db.Session()
	if next := txid(s); next != 6 {
		t.Errorf("first id after reopen %d, want 6", next)
	}
	status := func(s *deltaview.Session, id int64) string {
		t.Helper()
		v, err := firstValue(s, "SELECT txid_status("+strconv.FormatInt(id, 10)+")")
		if err != nil {
			return deltaview.Code(err)
		}
		return v
	}
	for id, want := range map[int64]string{aborted: "aborted", committed: "committed", left: "aborted", 6: "committed", 7: "22023"} {
		if got := status(s, id); got != want {
			t.Errorf("txid_status(%d) after reopen: %s, want %s", id, got, want)
		}
	}
	db.Close()

	db, err := deltaview.OpenFile(crashed)
	if err != nil {
		t.Fatal(err)
	}
	s = db.Session()
	if next := txid(s); next != 3+1024 {
		t.Errorf("first id after a crash %d, want 1027 (after the reserve)", next)
	}
	sessionExec(t, s, "BEGIN")
	again := txid(s) // 1028, committed after the crash
	sessionExec(t, s, "COMMIT")
	cut := db.Session()
	sessionExec(t, cut, "BEGIN")
	running2 := txid(cut) // 1029, running at the second crash
	for id, want := range map[int64]string{aborted: "aborted", committed: "committed", left: "aborted", 500: "aborted",
		3 + 1024: "committed", again: "committed", running2: "in progress"} {
		if got := status(s, id); got != want {
			t.Errorf("txid_status(%d) after a crash: %s, want %s", id, got, want)
		}
	}
	crashed2 := filepath.Join(t.TempDir(), "crashed2.db")
	copyFileDB(t, crashed, crashed2)
	db.Close()

	db, err = deltaview.OpenFile(crashed2)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s = db.Session()
	if next := txid(s); next != 3+2*1024 {
		t.Errorf("first id after a second crash %d, want 2051 (after the reserve)", next)
	}
	for id, want := range map[int64]string{aborted: "aborted", committed: "committed", left: "aborted", 500: "aborted",
		3 + 1024: "committed", again: "committed", running2: "aborted", 1500: "aborted"} {
		if got := status(s, id); got != want {
			t.Errorf("txid_status(%d) after a second crash: %s, want %s", id, got, want)
		}
	}
	// A clean close keeps them.
	db = reopenFileDB(t, db, crashed2)
	s = db.Session()
	for id, want := range map[int64]string{aborted: "aborted", committed: "committed", again: "committed", running2: "aborted"} {
		if got := status(s, id); got != want {
			t.Errorf("txid_status(%d) after a crash and a clean reopen: %s, want %s", id, got, want)
		}
	}
}

// copyFileDB copies a database file and its log as they are now, as a
// crash would leave them.
func copyFileDB(t *testing.T, from, to string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(from + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
