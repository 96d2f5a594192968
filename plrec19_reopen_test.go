package deltaview_test

import (
	"fmt"
	"testing"
)

// TestRecordParamReopen checks that PL/pgSQL functions of record and
// composite parameters, and a SQL function reading a parameter's field,
// are in the database file and called after opening it.
func TestRecordParamReopen(t *testing.T) {
	db := reopenedFileDB(t, "recparam.db", `CREATE TYPE rr AS (x int, z text);
CREATE FUNCTION h(r record) RETURNS int LANGUAGE plpgsql AS $$ begin r.x := r.x + 1; return r.x; end $$;
CREATE FUNCTION s(r rr) RETURNS text LANGUAGE sql AS 'select r.z'`)
	defer db.Close()
	rs, err := db.Query(`SELECT h(row(4, 'a')::rr), s(row(1, 'q')), (SELECT proargtypes::regtype[]::text FROM pg_proc WHERE proname = 'h')`)
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[5 q [0:0]={record}]]" {
		t.Errorf("after reopening: got %s, want [[5 q [0:0]={record}]]", g)
	}
}
