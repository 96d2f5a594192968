package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// Replace updates a row by its primary key; the view sees the old row
// retracted and the new one asserted.
func ExampleTx_Replace() {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, v int);
		INSERT INTO t VALUES (1, 5), (2, 50);
		CREATE MATERIALIZED VIEW big AS SELECT id, v FROM t WHERE v > 10;`); err != nil {
		panic(err)
	}
	tx, _ := db.Begin()
	if err := tx.Replace("t", deltaview.Int(1), deltaview.Int(99)); err != nil {
		panic(err)
	}
	if err := tx.Commit(); err != nil {
		panic(err)
	}
	rows, _ := db.View("big")
	fmt.Println(rows.Rows)
	// Output: [[1 99] [2 50]]
}

func TestReplaceErrors(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL);
		CREATE TABLE bag (v int);
		CREATE TABLE pos (id int PRIMARY KEY, v int CHECK (v > 0));
		INSERT INTO t VALUES (1, 5);
		INSERT INTO pos VALUES (1, 1);
		INSERT INTO bag VALUES (1);
		CREATE MATERIALIZED VIEW s AS SELECT sum(v) FROM t;`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		table string
		row   []deltaview.Value
		code  string
	}{
		{"t", []deltaview.Value{deltaview.Int(2), deltaview.Int(1)}, "02000"},
		{"t", []deltaview.Value{deltaview.Int(1), deltaview.Null}, "23502"},
		{"pos", []deltaview.Value{deltaview.Int(1), deltaview.Int(-1)}, "23514"},
		{"t", []deltaview.Value{deltaview.Int(1)}, "42601"},
		{"bag", []deltaview.Value{deltaview.Int(1)}, "42P10"},
		{"nope", []deltaview.Value{deltaview.Int(1)}, "42P01"},
	} {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		err = tx.Replace(c.table, c.row...)
		tx.Rollback()
		if got := deltaview.Code(err); got != c.code {
			t.Errorf("Replace(%s, %v) = %v (%s), want SQLSTATE %s", c.table, c.row, err, got, c.code)
		}
	}
	rows, err := db.Query("SELECT * FROM s")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows.Rows); got != "[[5]]" {
		t.Errorf("after failed replaces the view holds %s, want [[5]]", got)
	}
}

// TestTypedValuesAreAssigned checks that typed changes convert their
// values as an INSERT assigns them: a string too long for its column is an
// error, never cut short; a number out of an integer column's range is an
// error; a numeric is rounded to its column's scale.
func TestTypedValuesAreAssigned(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE s (id int PRIMARY KEY, v varchar(3), c char(3), n numeric(4,1))`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		row  []deltaview.Value
		code string
	}{
		{[]deltaview.Value{deltaview.Int(1), deltaview.Text("abcdef"), deltaview.Null, deltaview.Null}, "22001"},
		{[]deltaview.Value{deltaview.Int(1), deltaview.Null, deltaview.Text("abcd"), deltaview.Null}, "22001"},
		{[]deltaview.Value{deltaview.Int(1 << 40), deltaview.Null, deltaview.Null, deltaview.Null}, "22003"},
		{[]deltaview.Value{deltaview.Int(1), deltaview.Text("abc  "), deltaview.Text("ab"), deltaview.Float(2.25)}, ""},
	} {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		err = tx.Insert("s", c.row...)
		if deltaview.Code(err) != c.code && (err != nil || c.code != "") {
			t.Errorf("%v: %v, want %s", c.row, err, c.code)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.Query("SELECT id, v, c || '|', n FROM s")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows.Rows); got != "[[1 abc ab| 2.3]]" {
		t.Errorf("rows %s", got)
	}
}

// TestReplaceReadInTx checks that a transaction's replacements, kept until
// it commits, are seen by its own reads (Tx.Query) and by its own further
// changes, not by other readers, and are dropped by Rollback.
func TestReplaceReadInTx(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL);
		INSERT INTO t VALUES (1, 5), (2, 50);
		CREATE MATERIALIZED VIEW s AS SELECT sum(v) FROM t;`); err != nil {
		t.Fatal(err)
	}
	get, err := db.Prepare("SELECT v FROM t WHERE id = $1")
	if err != nil {
		t.Fatal(err)
	}
	read := func(q func(*deltaview.Stmt, ...deltaview.Value) (*deltaview.Rows, error)) string {
		rows, err := q(get, deltaview.Int(1))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(rows.Rows)
	}
	for _, commit := range []bool{false, true} {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []int64{6, 7} {
			if err := tx.Replace("t", deltaview.Int(1), deltaview.Int(v)); err != nil {
				t.Fatal(err)
			}
		}
		if got := read(tx.Query); got != "[[7]]" {
			t.Errorf("the transaction reads %s after its replacements, want [[7]]", got)
		}
		other := func(s *deltaview.Stmt, args ...deltaview.Value) (*deltaview.Rows, error) { return s.Query(args...) }
		if got := read(other); got != "[[5]]" {
			t.Errorf("another reader reads %s before the commit, want [[5]]", got)
		}
		// A change that reads the row: the replacement is its old row.
		if err := tx.Update("t", []deltaview.Value{deltaview.Int(1), deltaview.Int(7)}, []deltaview.Value{deltaview.Int(1), deltaview.Int(8)}); err != nil {
			t.Fatalf("updating the replaced row: %v", err)
		}
		if err := tx.Replace("t", deltaview.Int(2), deltaview.Int(60)); err != nil {
			t.Fatal(err)
		}
		want := "[[55]]"
		if commit {
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			want = "[[68]]"
		} else if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query("SELECT * FROM s")
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rows.Rows); got != want {
			t.Errorf("commit=%v: the view holds %s, want %s", commit, got, want)
		}
	}
}
