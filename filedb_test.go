package deltaview_test

import (
	"path/filepath"
	"testing"

	"github.com/deltaview/deltaview"
)

// openFileDB opens a database file named name in a directory of its own,
// removed when the test ends, and returns the database and the file's
// path.
func openFileDB(t *testing.T, name string) (*deltaview.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return db, path
}

// reopenFileDB closes db and opens its file at path again, as a process
// that stops and starts would; the caller closes the new database.
func reopenFileDB(t *testing.T, db *deltaview.DB, path string) *deltaview.DB {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// sessionExec runs q in s, failing the test when it fails.
func sessionExec(t *testing.T, s *deltaview.Session, q string) {
	t.Helper()
	if err := s.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// firstValue returns the first value of q's first row in s, as text.
func firstValue(s *deltaview.Session, q string) (string, error) {
	rows, err := s.Query(q)
	if err != nil {
		return "", err
	}
	return rows.Rows[0][0].String(), nil
}

// reopenedFileDB opens a database file named name in a directory of its
// own, runs script in it, and opens the file again: what the file kept of
// script is all the new database knows. The caller closes it.
func reopenedFileDB(t *testing.T, name, script string) *deltaview.DB {
	t.Helper()
	db, path := openFileDB(t, name)
	if err := db.Exec(script); err != nil {
		t.Fatal(err)
	}
	return reopenFileDB(t, db, path)
}
