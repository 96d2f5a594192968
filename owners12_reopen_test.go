package deltaview_test

import (
	"testing"
)

// TestOwners12Reopen checks that a statistics object keeps its owner in a
// reopened database file, through a rename and a drop of another one,
// and that its owner still cannot be dropped there; that a sequence
// OWNED BY a table of another schema keeps its link; and that the
// elements of CREATE SCHEMA … AUTHORIZATION keep their owner.
func TestOwners12Reopen(t *testing.T) {
	db := reopenedFileDB(t, "owners12.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE SCHEMA s;
GRANT CREATE ON SCHEMA public TO a, b;
SET ROLE a;
CREATE TABLE t (x int, y int);
CREATE STATISTICS st1 ON x, y FROM t;
CREATE STATISTICS st2 ON x, y FROM t;
ALTER STATISTICS st1 SET STATISTICS 50;
DROP STATISTICS st2;
RESET ROLE;
CREATE STATISTICS st3 ON x, y FROM t;
ALTER STATISTICS st3 OWNER TO b;
ALTER STATISTICS st3 RENAME TO st4;
CREATE TABLE s.u (k int);
CREATE SEQUENCE s.q OWNED BY s.u.k;
CREATE SCHEMA s2 AUTHORIZATION a CREATE TABLE w (k serial) CREATE VIEW wv AS SELECT k FROM w`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT stxname, pg_get_userbyid(stxowner), stxstattarget FROM pg_statistic_ext ORDER BY 1", "[[st1 a 50] [st4 b -1]]"},
		{"SELECT pg_get_serial_sequence('s.u', 'k')", "[[s.q]]"},
		{"SELECT relname, pg_get_userbyid(relowner) FROM pg_class WHERE relnamespace = 's2'::regnamespace ORDER BY 1", "[[w a] [w_k_seq a] [wv a]]"},
	})
	if err := db.Exec("DROP ROLE b"); err == nil {
		t.Error("DROP ROLE b, a statistics object's owner, succeeded after reopening")
	}
}
