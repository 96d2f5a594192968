package deltaview_test

import "testing"

// TestCatrow19CatalogRowTypeACLReopen: the privileges a GRANT and a
// REVOKE gave a system catalog's row type, and a column of one, come
// back from the file as they were.
func TestCatrow19CatalogRowTypeACLReopen(t *testing.T) {
	db := reopenedFileDB(t, "catrow19.db", `CREATE ROLE a;
GRANT USAGE ON TYPE pg_class TO a WITH GRANT OPTION;
REVOKE USAGE ON TYPE pg_namespace FROM PUBLIC;
CREATE TABLE t (k int, n pg_namespace);
INSERT INTO t SELECT 1, x FROM pg_namespace x WHERE nspname = 'public'`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT typname, typacl::text FROM pg_type WHERE typname IN ('pg_class', 'pg_namespace', 'pg_proc') ORDER BY 1", "[[pg_class {=U/deltaview,deltaview=U/deltaview,a=U*/deltaview}] [pg_namespace {deltaview=U/deltaview}] [pg_proc NULL]]"},
		{"SELECT k, (n).nspname, pg_typeof(n)::text FROM t", "[[1 public pg_namespace]]"},
	})
}
