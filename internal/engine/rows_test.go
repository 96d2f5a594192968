package engine

import (
	"strconv"
	"testing"

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
