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
	run := func(sql string) {
		t.Helper()
		if err := e.ExecScript(sql, func(Result) error { return nil }); err != nil {
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
