package engine

import (
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestCreateIndexIsUsed checks that an index CREATE INDEX makes serves
// lookups by its leading column (UPDATE, DELETE and ad-hoc SELECT go
// through table.lookup), follows the table's changes, and is gone with
// DROP INDEX.
func TestCreateIndexIsUsed(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	run(`CREATE TABLE li (o int, l int, q int);
		INSERT INTO li SELECT g / 4, g % 4, g % 7 FROM generate_series(0, 99) g;
		CREATE INDEX ON li (o, l)`)
	tb := e.tables["li"]
	found := func(o int64) (int, bool) {
		n := 0
		ok := tb.lookup(map[int]value.Value{0: value.NewInt(value.Int4, o)}, func(uint64, value.Row) bool { n++; return true })
		return n, ok
	}
	if n, ok := found(7); !ok || n != 4 || len(tb.prefixes) != 1 {
		t.Fatalf("lookup o = 7 through the index: %d rows, used %v, %d prefix indexes", n, ok, len(tb.prefixes))
	}
	run(`DELETE FROM li WHERE o = 7 AND l = 1; UPDATE li SET o = 7 WHERE o = 8 AND l = 0; INSERT INTO li VALUES (7, 9, 9)`)
	if n, ok := found(7); !ok || n != 5 {
		t.Fatalf("after changes: %d rows, used %v; want 5", n, ok)
	}
	if tb.lookup(map[int]value.Value{2: value.NewInt(value.Int4, 3)}, func(uint64, value.Row) bool { return true }) {
		t.Fatal("a column no index leads with was looked up")
	}
	run(`DROP INDEX li_o_l_idx`)
	if _, ok := found(7); ok || len(tb.prefixes) != 0 || len(e.indexes) != 0 {
		t.Fatalf("after DROP INDEX: used %v, %d prefix indexes, %d indexes", ok, len(tb.prefixes), len(e.indexes))
	}
}
