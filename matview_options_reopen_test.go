package deltaview_test

import (
	"testing"
)

// TestMatViewOptionsReopen checks that a materialized view's storage
// parameters, set by CREATE MATERIALIZED VIEW … WITH (…) and changed by
// ALTER MATERIALIZED VIEW … SET / RESET, are kept in their order after
// the file is opened again, populated or not.
func TestMatViewOptionsReopen(t *testing.T) {
	db := reopenedFileDB(t, "matview_options.db", `CREATE TABLE mvo (a int);
INSERT INTO mvo VALUES (1);
CREATE MATERIALIZED VIEW mvo_m WITH (fillfactor = 70, autovacuum_enabled = off) AS SELECT a FROM mvo;
ALTER MATERIALIZED VIEW mvo_m SET (fillfactor = 80, vacuum_index_cleanup = auto);
ALTER MATERIALIZED VIEW mvo_m RESET (autovacuum_enabled);
CREATE MATERIALIZED VIEW mvo_n WITH (fillfactor = 60) AS SELECT a FROM mvo WITH NO DATA;
ALTER MATERIALIZED VIEW mvo_n RESET (fillfactor);
CREATE MATERIALIZED VIEW mvo_k WITH (parallel_workers = 2) AS SELECT a FROM mvo;
INSERT INTO mvo VALUES (2)`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname, reloptions FROM pg_class WHERE relname LIKE 'mvo_%' ORDER BY 1", "[[mvo_k {parallel_workers=2}] [mvo_m {fillfactor=80,vacuum_index_cleanup=auto}] [mvo_n NULL]]"},
		{"SELECT a FROM mvo_m ORDER BY a", "[[1] [2]]"},
		{"SELECT relispopulated FROM pg_class WHERE relname = 'mvo_n'", "[[f]]"},
	})
}
