package deltaview_test

import (
	"fmt"
	"testing"
)

// TestRefcursorReopen checks that a table's refcursor column keeps its
// values and type, and that a function taking and returning refcursor
// opens its parameter's cursor, once the file is opened again. Each call
// names a cursor of its own: a cursor a call opens stays open to the end
// of the statement, as PostgreSQL's portals do (42P03 for a second OPEN).
func TestRefcursorReopen(t *testing.T) {
	db := reopenedFileDB(t, "refcursor.db", `CREATE TABLE rc_t (c refcursor, a refcursor[]);
INSERT INTO rc_t VALUES ('one', '{x,y}');
CREATE FUNCTION rc_f(c refcursor) RETURNS refcursor LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
  OPEN c FOR SELECT 7;
  FETCH c INTO n;
  RETURN c || ':' || n;
END $$`)
	defer db.Close()
	rs, err := db.Query("SELECT c, pg_typeof(c)::text, a::text, pg_typeof(a)::text, rc_f('k')::text, pg_typeof(rc_f('m'))::text FROM rc_t")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[one refcursor {x,y} refcursor[] k:7 refcursor]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("after reopening:\n got %s\nwant %s", g, want)
	}
}
