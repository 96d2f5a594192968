package deltaview_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// ReplaceRows replaces a batch of rows by their primary keys in one call;
// the caller may reuse the rows' memory once it returns.
func ExampleTx_ReplaceRows() {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, v int);
		INSERT INTO t VALUES (1, 5), (2, 50), (3, 7);
		CREATE MATERIALIZED VIEW big AS SELECT id, v FROM t WHERE v > 10;`); err != nil {
		panic(err)
	}
	tx, _ := db.Begin()
	rows := [][]deltaview.Value{
		{deltaview.Int(1), deltaview.Int(99)},
		{deltaview.Int(2), deltaview.Int(8)},
	}
	if err := tx.ReplaceRows("t", rows); err != nil {
		panic(err)
	}
	if err := tx.Commit(); err != nil {
		panic(err)
	}
	view, _ := db.View("big")
	fmt.Println(view.Rows)
	// Output: [[1 99]]
}

// TestReplaceRowsErrors checks that a batch with a failing row fails with
// that row's SQLSTATE and leaves none of its rows, while the transaction's
// earlier changes stay; that the caller's rows are copied; and that a
// finished transaction refuses the call.
func TestReplaceRowsErrors(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL);
		INSERT INTO t SELECT g, g FROM generate_series(1, 200) g;
		CREATE MATERIALIZED VIEW s AS SELECT count(*), sum(v) FROM t;`); err != nil {
		t.Fatal(err)
	}
	tx, _ := db.Begin()
	rows := make([][]deltaview.Value, 100)
	for i := range rows {
		rows[i] = []deltaview.Value{deltaview.Int(int64(i + 1)), deltaview.Int(1000)}
	}
	if err := tx.ReplaceRows("t", rows); err != nil {
		t.Fatal(err)
	}
	for i := range rows { // reused by the caller: the rows replaced above are copies
		rows[i][0], rows[i][1] = deltaview.Int(int64(i+101)), deltaview.Int(2000)
	}
	rows[70][0] = deltaview.Int(999) // no such key
	if err := tx.ReplaceRows("t", rows); err == nil || deltaview.Code(err) != "02000" {
		t.Fatalf("a batch with a missing key: %v, want SQLSTATE 02000", err)
	}
	rows[70][0], rows[30][1] = deltaview.Int(171), deltaview.Null
	if err := tx.ReplaceRows("t", rows); err == nil || deltaview.Code(err) != "23502" {
		t.Fatalf("a batch with a NULL in a NOT NULL column: %v, want SQLSTATE 23502", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := db.View("s")
	if err != nil {
		t.Fatal(err)
	}
	// Rows 1 to 100 set to 1000, 101 to 200 as they were.
	if want := fmt.Sprint([][]deltaview.Value{{deltaview.Int(200), deltaview.Int(100*1000 + (101+200)*100/2)}}); fmt.Sprint(got.Rows) != want {
		t.Fatalf("the view holds %v, want %s", got.Rows, want)
	}
	if err := tx.ReplaceRows("t", rows); !errors.Is(err, deltaview.ErrTxDone) {
		t.Fatalf("a finished transaction: %v, want ErrTxDone", err)
	}
}
