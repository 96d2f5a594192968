package deltaview_test

import "testing"

// TestStatsExpressionsReopen checks that a database file keeps statistics
// objects on expressions, with their columns renamed, and a statistics
// object's comment across its rename, after the file is opened again.
func TestStatsExpressionsReopen(t *testing.T) {
	db := reopenedFileDB(t, "stats12.db", `CREATE TABLE t (a int, b int, c text);
CREATE STATISTICS e1 ON (a + b) FROM t;
CREATE STATISTICS e2 (ndistinct) ON (t.a * 2), b, (lower(c)) FROM t;
CREATE STATISTICS e3 ON a, b FROM t;
COMMENT ON STATISTICS e3 IS 'plain';
ALTER STATISTICS e3 RENAME TO e4;
ALTER TABLE t RENAME a TO aa`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT stxname, stxkind, pg_get_statisticsobjdef(oid) FROM pg_statistic_ext ORDER BY 1",
			"[[e1 {e} CREATE STATISTICS public.e1 ON (aa + b) FROM t] [e2 {d,e} CREATE STATISTICS public.e2 (ndistinct) ON b, (aa * 2), lower(c) FROM t] [e4 {d,f,m} CREATE STATISTICS public.e4 ON aa, b FROM t]]"},
		{"SELECT stxname, obj_description(oid, 'pg_statistic_ext') FROM pg_statistic_ext WHERE stxname = 'e4'", "[[e4 plain]]"},
	})
}
