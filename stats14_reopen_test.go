package deltaview_test

import "testing"

// TestStatsSchemasReopen checks that a database file keeps statistics
// objects of schemas other than public, made there, moved there by SET
// SCHEMA and renamed, with their targets, owners and comments, after the
// file is opened again.
func TestStatsSchemasReopen(t *testing.T) {
	db := reopenedFileDB(t, "stats14.db", `CREATE SCHEMA ns;
CREATE ROLE r;
CREATE TABLE t (a int, b int);
CREATE TABLE ns.u (x int, y int);
CREATE STATISTICS ns.s1 ON a, b FROM t;
CREATE STATISTICS s2 (ndistinct) ON x, (y + 1) FROM ns.u;
ALTER STATISTICS s2 SET SCHEMA ns;
ALTER STATISTICS ns.s2 SET STATISTICS 40;
ALTER STATISTICS ns.s2 OWNER TO r;
CREATE STATISTICS s3 ON x, y FROM ns.u;
ALTER STATISTICS s3 SET SCHEMA ns;
ALTER STATISTICS ns.s3 RENAME TO s4;
COMMENT ON STATISTICS ns.s4 IS 'moved';
CREATE STATISTICS s5 ON a, b FROM t`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT stxname, stxnamespace::regnamespace::text, stxstattarget, stxowner::regrole::text, pg_get_statisticsobjdef(oid), obj_description(oid, 'pg_statistic_ext') FROM pg_statistic_ext ORDER BY 1",
			"[[s1 ns -1 deltaview CREATE STATISTICS ns.s1 ON a, b FROM t NULL] [s2 ns 40 r CREATE STATISTICS ns.s2 (ndistinct) ON x, (y + 1) FROM ns.u NULL] [s4 ns -1 deltaview CREATE STATISTICS ns.s4 ON x, y FROM ns.u moved] [s5 public -1 deltaview CREATE STATISTICS public.s5 ON a, b FROM t NULL]]"},
	})
}
