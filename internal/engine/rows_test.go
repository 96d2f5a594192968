package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
)

func itoa(i int) string { return strconv.Itoa(i) }

// TestTableChurnCompacts checks that a table whose rows are deleted and
// inserted over and over keeps memory in proportion to its rows: the holes
// deletions leave are closed between transactions, and the rows, their
// order and the key index survive it.
func TestTableChurnCompacts(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	run(`CREATE TABLE q (id int PRIMARY KEY, v int); CREATE MATERIALIZED VIEW c AS SELECT count(*) AS n FROM q`)
	for i := 0; i < 5000; i++ {
		run("INSERT INTO q VALUES (" + itoa(i) + ", " + itoa(i) + ")")
		if i >= 10 {
			run("DELETE FROM q WHERE id = " + itoa(i-10))
		}
	}
	tb := e.tables["q"]
	if got := len(tb.rows.rows); got > 2100 {
		t.Fatalf("a table of %d rows holds %d slots", tb.rows.Len(), got)
	}
	_, rows, _ := e.ViewRows("c")
	if rows[0][0].Int() != 10 || tb.rows.Len() != 10 {
		t.Fatalf("count %v, rows %d", rows[0][0], tb.rows.Len())
	}
	run("UPDATE q SET v = -1 WHERE id = 4995")
	var ids []int64
	tb.scan(func(_ uint64, r value.Row) bool { ids = append(ids, r[0].Int()); return true })
	for i, id := range ids {
		if id != int64(4990+i) {
			t.Fatalf("rows out of insertion order: %v", ids)
		}
	}
}

// TestKeyIndexesHoldTheStoredRows checks that an integer key's index
// entry, which holds the row itself, follows every way a row changes: a
// typed replace, an UPDATE of the key and of other columns, a delete and
// a re-insert, a rolled-back transaction, and the renumbering of a table
// that compacts.
func TestKeyIndexesHoldTheStoredRows(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		tb := e.tables["q"]
		n := 0
		tb.scan(func(id uint64, row value.Row) bool {
			n++
			for _, u := range tb.uniques {
				gotID, got, ok := tb.byKey(u, row)
				if !ok || gotID != id || &got[0] != &row[0] {
					t.Fatalf("%s: %s finds (%d, %v, %v) for row %d %v", when, u.name, gotID, got, ok, id, row)
				}
			}
			return true
		})
		for _, u := range tb.uniques {
			if u.len() != n {
				t.Fatalf("%s: %s holds %d keys for %d rows", when, u.name, u.len(), n)
			}
		}
	}
	run(`CREATE TABLE q (id int PRIMARY KEY, u bigint UNIQUE, v int);
		INSERT INTO q SELECT g, g * 10, 0 FROM generate_series(1, 3000) g`)
	check("after the insert")
	for i := range 5 {
		if err := sess.Replace("q", value.Row{value.NewInt(value.Int8, 7), value.NewInt(value.Int8, 70), value.NewInt(value.Int8, int64(i))}); err != nil {
			t.Fatal(err)
		}
	}
	check("after replaces")
	run("UPDATE q SET v = v + 1 WHERE id = 8; UPDATE q SET id = id + 5000 WHERE id <= 10; UPDATE q SET u = -u WHERE id > 2990")
	check("after updates")
	run("DELETE FROM q WHERE id = 12; INSERT INTO q VALUES (12, 120, 1)")
	check("after a delete and an insert")
	run("BEGIN; UPDATE q SET v = 9 WHERE id = 13; DELETE FROM q WHERE id = 14; INSERT INTO q VALUES (14, 140, 2); ROLLBACK")
	check("after a rollback")
	run("DELETE FROM q WHERE id > 100")
	if n := len(e.tables["q"].rows.rows); n > 200 {
		t.Fatalf("the table did not compact: %d slots", n)
	}
	check("after compaction")
}

// TestReplaceOwesOldRowBytes checks the table's bytes through replaces by
// key, which leave the old row's bytes to be settled when the commit
// reads the row: in transactions that commit, that roll back, that
// replace one row twice and that fail on a duplicate of another unique
// key, the bytes are always those of the rows held.
func TestReplaceOwesOldRowBytes(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		tb := e.tables["q"]
		var want int64
		tb.scan(func(_ uint64, row value.Row) bool { want += dataflow.RowBytes(row); return true })
		if tb.bytes != want {
			t.Fatalf("%s: the table counts %d bytes, its rows hold %d", when, tb.bytes, want)
		}
	}
	row := func(id int, s string) value.Row {
		return value.Row{value.NewInt(value.Int8, int64(id)), value.NewText(value.Text, s), value.NewInt(value.Int8, int64(id))}
	}
	replaceAll := func(s string) {
		t.Helper()
		for id := 1; id <= 200; id++ {
			if err := sess.Replace("q", row(id, s+strings.Repeat("x", id%17))); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(`CREATE TABLE q (id int PRIMARY KEY, s text, u int UNIQUE);
		CREATE MATERIALIZED VIEW f AS SELECT id, s FROM q WHERE u % 2 = 0;
		INSERT INTO q SELECT g, 'a', g FROM generate_series(1, 200) g`)
	check("after the insert")
	replaceAll("one row by one row ")
	check("after replaces in their own transactions")
	run("BEGIN")
	replaceAll("a longer text than before, ")
	run("ROLLBACK")
	check("after a rolled-back transaction")
	run("BEGIN")
	replaceAll("b")
	if err := sess.Replace("q", row(5, "twice")); err != nil {
		t.Fatal(err)
	}
	run("COMMIT")
	check("after a committed transaction")
	run("BEGIN")
	replaceAll("c")
	dup := row(7, "a duplicate of u")
	dup[2] = value.NewInt(value.Int8, 8)
	if err := sess.Replace("q", dup); err == nil {
		t.Fatal("a replace duplicating another row's unique key succeeded")
	}
	run("ROLLBACK")
	check("after a transaction that failed")
}
