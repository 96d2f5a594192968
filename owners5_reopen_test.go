package deltaview_test

import (
	"fmt"
	"testing"
)

// TestOwnerTypeAlterReopen checks that what the owner of a type and of
// a partitioned table, no superuser, changed in them (an enum's value
// added and renamed, the type renamed and given to a member role, a
// domain's constraint, a partition attached) is kept by the file.
func TestOwnerTypeAlterReopen(t *testing.T) {
	db, path := openFileDB(t, "owners5_types.db")
	sessionExec(t, db.Session(), `CREATE ROLE o5w_o;
CREATE ROLE o5w_m;
GRANT o5w_m TO o5w_o;
CREATE SCHEMA o5w_s AUTHORIZATION o5w_o;
GRANT CREATE ON SCHEMA o5w_s TO o5w_m;
CREATE TYPE o5w_s.mood AS ENUM ('a', 'b');
CREATE DOMAIN o5w_s.pos AS int;
ALTER TYPE o5w_s.mood OWNER TO o5w_o;
ALTER DOMAIN o5w_s.pos OWNER TO o5w_o;
CREATE TABLE o5w_p (a int) PARTITION BY RANGE (a);
CREATE TABLE o5w_p1 (a int);
ALTER TABLE o5w_p OWNER TO o5w_o;
ALTER TABLE o5w_p1 OWNER TO o5w_o`)
	s, err := db.SessionAs("o5w_o")
	if err != nil {
		t.Fatal(err)
	}
	sessionExec(t, s, `ALTER TYPE o5w_s.mood ADD VALUE 'c';
ALTER TYPE o5w_s.mood RENAME VALUE 'a' TO 'aa';
ALTER TYPE o5w_s.mood RENAME TO feeling;
ALTER TYPE o5w_s.feeling OWNER TO o5w_m;
ALTER DOMAIN o5w_s.pos ADD CONSTRAINT pos_ck CHECK (VALUE > 0);
ALTER TABLE o5w_p ATTACH PARTITION o5w_p1 FOR VALUES FROM (0) TO (10)`)
	db = reopenFileDB(t, db, path)
	defer db.Close()
	rs, err := db.Query(`SELECT t.typname, pg_get_userbyid(t.typowner) FROM pg_type t WHERE t.typname IN ('feeling', 'pos') ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := fmt.Sprint(rs.Rows), "[[feeling o5w_m] [pos o5w_o]]"; g != want {
		t.Errorf("types after reopening:\n got %s\nwant %s", g, want)
	}
	if g, err := firstValue(db.Session(), "SELECT enum_range(NULL::o5w_s.feeling)::text"); err != nil || g != "{aa,b,c}" {
		t.Errorf("enum_range after reopening: got %q (%v), want {aa,b,c}", g, err)
	}
	if g, err := firstValue(db.Session(), "SELECT count(*) FROM pg_inherits WHERE inhrelid = 'o5w_p1'::regclass"); err != nil || g != "1" {
		t.Errorf("o5w_p1 attached after reopening: got %q (%v), want 1", g, err)
	}
	if _, err := firstValue(db.Session(), "SELECT 0::o5w_s.pos"); err == nil {
		t.Errorf("0::o5w_s.pos after reopening: want the domain's check to fail")
	}
}
