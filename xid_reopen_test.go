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
// never giving an id twice.
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
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(crashed+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

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
	defer db.Close()
	s = db.Session()
	if next := txid(s); next != 3+1024 {
		t.Errorf("first id after a crash %d, want 1027 (after the reserve)", next)
	}
	if got := status(s, committed); got != "committed" {
		t.Errorf("txid_status(%d) after a crash: %s, want committed", committed, got)
	}
}
