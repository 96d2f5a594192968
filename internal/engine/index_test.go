package engine

import (
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// TestCreateIndexIsUsed checks that an index CREATE INDEX makes serves
// equalities on its leading columns and a range on the next (UPDATE,
// DELETE and ad-hoc SELECT go through table.accessPath), follows the
// table's changes, and is gone with DROP INDEX.
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
	i4 := value.Type{Kind: value.Int4}
	col := func(i int) expr.Expr { return &expr.Col{Idx: i, T: i4} }
	c := func(n int64) expr.Expr { return &expr.Const{V: value.NewInt(value.Int4, n), T: i4} }
	cmp := func(op expr.CmpOp, l, r expr.Expr) expr.Expr { return &expr.Cmp{Op: op, L: l, R: r} }
	found := func(where expr.Expr) (int, bool) {
		t.Helper()
		p, err := tb.accessPath(where)
		if err != nil || p == nil {
			return 0, false
		}
		n := 0
		tb.eachOnPath(p, func(uint64, value.Row) bool { n++; return true })
		return n, true
	}
	if n, ok := found(cmp(expr.EQ, col(0), c(7))); !ok || n != 4 || len(tb.prefixes) != 0 {
		t.Fatalf("o = 7 through the index: %d rows, used %v, %d prefix indexes", n, ok, len(tb.prefixes))
	}
	between := &expr.And{Args: []expr.Expr{cmp(expr.EQ, c(7), col(0)), cmp(expr.GE, col(1), c(1)), cmp(expr.LT, col(1), c(3))}}
	if n, ok := found(between); !ok || n != 2 {
		t.Fatalf("o = 7 AND l >= 1 AND l < 3: %d rows, used %v; want 2", n, ok)
	}
	if n, ok := found(cmp(expr.GT, c(3), col(0))); !ok || n != 12 {
		t.Fatalf("3 > o: %d rows, used %v; want 12", n, ok)
	}
	run(`DELETE FROM li WHERE o = 7 AND l = 1; UPDATE li SET o = 7 WHERE o = 8 AND l = 0; INSERT INTO li VALUES (7, 9, 9)`)
	if n, ok := found(cmp(expr.EQ, col(0), c(7))); !ok || n != 5 {
		t.Fatalf("after changes: %d rows, used %v; want 5", n, ok)
	}
	if _, ok := found(cmp(expr.EQ, col(2), c(3))); ok {
		t.Fatal("a column no index leads with was looked up")
	}
	run(`DROP INDEX li_o_l_idx`)
	if _, ok := found(cmp(expr.EQ, col(0), c(7))); ok || len(e.indexes) != 0 {
		t.Fatalf("after DROP INDEX: used %v, %d indexes", ok, len(e.indexes))
	}
}
