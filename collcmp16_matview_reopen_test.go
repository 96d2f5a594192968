package deltaview_test

import "testing"

// TestMatviewColumnCollationReopen checks that a materialized view's
// columns keep the collations its query derives when the file is opened
// again: COLLATION FOR and attcollation name them, and a comparison of
// its "C" column with its ICU one still fails.
func TestMatviewColumnCollationReopen(t *testing.T) {
	db := reopenedFileDB(t, "collcmp16mv.db", `CREATE TABLE cc_t (id int PRIMARY KEY, c text COLLATE "C", e text COLLATE "en-x-icu");
CREATE MATERIALIZED VIEW cc_mv AS SELECT id, c, e, upper(c) AS uc, max(e) OVER () AS me FROM cc_t;
INSERT INTO cc_t VALUES (1, 'a', 'B'), (2, 'B', 'a')`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT collation for (c), collation for (e), collation for (uc), collation for (me) FROM cc_mv LIMIT 1", `[["C" "en-x-icu" "C" "en-x-icu"]]`},
		{"SELECT attname, attcollation::regcollation::text FROM pg_attribute WHERE attrelid = 'cc_mv'::regclass AND attnum > 1 ORDER BY attnum", `[[c "C"] [e "en-x-icu"] [uc "C"] [me "en-x-icu"]]`},
		{"SELECT id FROM cc_mv ORDER BY e", "[[2] [1]]"},
	})
	if _, err := db.Query("SELECT c < e FROM cc_mv"); err == nil {
		t.Fatal("SELECT c < e FROM cc_mv: no error, want 42P22")
	}
}
