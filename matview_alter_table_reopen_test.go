package deltaview_test

import (
	"testing"
)

// TestMatViewAlterTableOptionsReopen checks that a materialized view's
// storage parameters changed by ALTER TABLE … SET / RESET are kept after
// the file is opened again, as ALTER MATERIALIZED VIEW's are.
func TestMatViewAlterTableOptionsReopen(t *testing.T) {
	db := reopenedFileDB(t, "matview_alter_table.db", `CREATE TABLE mvt (a int);
INSERT INTO mvt VALUES (1);
CREATE MATERIALIZED VIEW mvt_m WITH (autovacuum_enabled = off) AS SELECT a FROM mvt;
ALTER TABLE mvt_m SET (fillfactor = 80);
ALTER TABLE mvt_m RESET (autovacuum_enabled);
INSERT INTO mvt VALUES (2)`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname, reloptions FROM pg_class WHERE relname = 'mvt_m'", "[[mvt_m {fillfactor=80}]]"},
		{"SELECT a FROM mvt_m ORDER BY a", "[[1] [2]]"},
	})
}
