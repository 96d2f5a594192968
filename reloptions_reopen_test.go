package deltaview_test

import (
	"testing"
)

// TestRelOptionsReopen checks that a table's storage parameters, set by
// CREATE TABLE and ALTER TABLE, are kept in their order after the file is
// opened again.
func TestRelOptionsReopen(t *testing.T) {
	db := reopenedFileDB(t, "reloptions.db", `CREATE TABLE ro (a int PRIMARY KEY) WITH (fillfactor = 70, autovacuum_enabled = off);
INSERT INTO ro VALUES (1);
ALTER TABLE ro SET (fillfactor = 80, vacuum_index_cleanup = auto);
ALTER TABLE ro RESET (autovacuum_enabled)`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT reloptions FROM pg_class WHERE relname = 'ro'", "[[{fillfactor=80,vacuum_index_cleanup=auto}]]"},
		{"SELECT a FROM ro", "[[1]]"},
	})
}
