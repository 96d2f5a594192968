package deltaview_test

import "testing"

// TestHeapOrderReopen: an ad-hoc array_agg over a table takes the rows in
// insertion order (PostgreSQL's heap order for a table only inserted
// into), the same after the file is closed and opened again.
func TestHeapOrderReopen(t *testing.T) {
	db := reopenedFileDB(t, "heaporder.db", `CREATE TABLE ho (id int PRIMARY KEY, s text);
INSERT INTO ho VALUES (3, 'c'), (1, 'a');
INSERT INTO ho VALUES (5, 'e'), (2, 'b');
DELETE FROM ho WHERE id = 1;
INSERT INTO ho VALUES (1, 'a2'), (4, 'd')`)
	defer db.Close()
	rs, err := db.Query("SELECT array_agg(id), string_agg(s, ',') FROM ho")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rs.Rows[0][0].String()+" "+rs.Rows[0][1].String(), "{3,5,2,1,4} c,e,b,a2,d"; got != want {
		t.Errorf("after reopen: %s, want %s", got, want)
	}
}
