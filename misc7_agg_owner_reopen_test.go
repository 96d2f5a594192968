package deltaview_test

import (
	"fmt"
	"testing"
)

// TestAggregateOwnerReopen checks that the owner an aggregate got from
// the role that created it, and from ALTER AGGREGATE … OWNER TO after a
// rename, is its owner after the file is opened again: pg_proc shows it,
// another role may not drop it, and DROP ROLE refuses its owner.
func TestAggregateOwnerReopen(t *testing.T) {
	db, path := openFileDB(t, "misc7_agg_owner.db")
	sessionExec(t, db.Session(), `CREATE ROLE misc7r_a;
CREATE ROLE misc7r_b;
CREATE ROLE misc7r_c;
CREATE SCHEMA misc7r_s;
GRANT CREATE, USAGE ON SCHEMA misc7r_s TO misc7r_a, misc7r_b, misc7r_c;
CREATE FUNCTION misc7r_s.add(int, int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1 + $2'`)
	s, err := db.SessionAs("misc7r_a")
	if err != nil {
		t.Fatal(err)
	}
	sessionExec(t, s, `CREATE AGGREGATE misc7r_s.a1(int) (SFUNC = misc7r_s.add, STYPE = int, INITCOND = '0');
CREATE AGGREGATE misc7r_s.a2(int) (SFUNC = misc7r_s.add, STYPE = int, INITCOND = '0')`)
	sessionExec(t, db.Session(), `ALTER AGGREGATE misc7r_s.a2(int) RENAME TO a3;
ALTER AGGREGATE misc7r_s.a3(int) OWNER TO misc7r_b`)
	db = reopenFileDB(t, db, path)
	defer db.Close()
	rs, err := db.Query(`SELECT proname, pg_get_userbyid(proowner) FROM pg_proc WHERE pronamespace = 'misc7r_s'::regnamespace AND prokind = 'a' ORDER BY proname`)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := fmt.Sprint(rs.Rows), "[[a1 misc7r_a] [a3 misc7r_b]]"; g != want {
		t.Errorf("aggregates' owners after reopening: got %s, want %s", g, want)
	}
	c, err := db.SessionAs("misc7r_c")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Exec("DROP AGGREGATE misc7r_s.a1(int)"); err == nil {
		t.Errorf("DROP AGGREGATE by another role after reopening: want must be owner")
	}
	if err := db.Exec("DROP ROLE misc7r_b"); err == nil {
		t.Errorf("DROP ROLE of an aggregate's owner after reopening: want 2BP01")
	}
	b, err := db.SessionAs("misc7r_b")
	if err != nil {
		t.Fatal(err)
	}
	sessionExec(t, b, "DROP AGGREGATE misc7r_s.a3(int)")
}
