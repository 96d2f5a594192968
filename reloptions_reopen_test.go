package deltaview_test

import (
	"path/filepath"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestRelOptionsReopen checks that a table's storage parameters, set by
// CREATE TABLE and ALTER TABLE, are kept in their order after the file is
// opened again.
func TestRelOptionsReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "reloptions.db")
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`CREATE TABLE ro (a int PRIMARY KEY) WITH (fillfactor = 70, autovacuum_enabled = off);
INSERT INTO ro VALUES (1);
ALTER TABLE ro SET (fillfactor = 80, vacuum_index_cleanup = auto);
ALTER TABLE ro RESET (autovacuum_enabled)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT reloptions FROM pg_class WHERE relname = 'ro'", "[[{fillfactor=80,vacuum_index_cleanup=auto}]]"},
		{"SELECT a FROM ro", "[[1]]"},
	})
}
