package deltaview_test

import (
	"slices"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestSequencePrepared: a prepared INSERT into a table with a serial
// column takes the next value at each execution, and a prepared nextval
// call hands out a new value each time.
func TestSequencePrepared(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	if err := db.Exec("CREATE TABLE t (id serial PRIMARY KEY, v int); CREATE SEQUENCE s START 10"); err != nil {
		t.Fatal(err)
	}
	ins, err := db.Prepare("INSERT INTO t (v) VALUES ($1)")
	if err != nil {
		t.Fatal(err)
	}
	next, err := db.Prepare("SELECT nextval('s')")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range 3 {
		if _, err := ins.Exec(deltaview.Int(int64(i))); err != nil {
			t.Fatal(err)
		}
		r, err := next.Query()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Rows[0][0].String())
	}
	if want := []string{"10", "11", "12"}; !slices.Equal(got, want) {
		t.Errorf("prepared nextval: %q, want %q", got, want)
	}
	r, err := db.Query("SELECT id, v FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, row := range r.Rows {
		got = append(got, row[0].String()+":"+row[1].String())
	}
	if want := []string{"1:0", "2:1", "3:2"}; !slices.Equal(got, want) {
		t.Errorf("rows of the prepared INSERT: %q, want %q", got, want)
	}
}
