package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// TestCastPlanAfterAlter checks that the plan of a table's casts, kept
// from one ReplaceRows or Replace call to the next, is made again when the
// table changes between them: a NOT NULL, then a CHECK added by ALTER
// TABLE must fail the next calls' rows, in a batch made a Replace a call
// (whose later calls take the kept plan) and in one ReplaceRows.
func TestCastPlanAfterAlter(t *testing.T) {
	e := engine.New()
	s := e.NewSession()
	exec := func(q string) {
		t.Helper()
		if err := s.ExecScript(q, func(engine.Result) error { return nil }); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE t (id int PRIMARY KEY, a int, b text);
		INSERT INTO t SELECT g, g, 'x' FROM generate_series(1, 10) g`)
	i4 := func(n int64) value.Value { return value.NewInt(value.Int4, n) }
	row := func(id int64, a value.Value) []value.Value {
		return []value.Value{i4(id), a, value.NewText(value.Text, "y")}
	}
	// Each row a call, in a transaction: the second and later calls cast
	// with the plan kept.
	batch := func(a value.Value) error {
		t.Helper()
		if err := s.Begin(); err != nil {
			t.Fatal(err)
		}
		var err error
		for id := int64(1); id <= 3 && err == nil; id++ {
			v := i4(id)
			if id == 3 {
				v = a
			}
			err = s.Replace("t", row(id, v))
		}
		if err != nil {
			s.Rollback()
			return err
		}
		return s.Commit()
	}
	if err := batch(i4(3)); err != nil { // the plan kept, before the change
		t.Fatalf("before SET NOT NULL: %v", err)
	}
	exec(`ALTER TABLE t ALTER COLUMN a SET NOT NULL`)
	if err := batch(value.Null); pgerr.Code(err) != pgerr.NotNullViolation {
		t.Fatalf("NULL after SET NOT NULL, a Replace a row: %v, want 23502", err)
	}
	if err := s.ReplaceRows("t", [][]value.Value{row(4, i4(4)), row(5, value.Null)}); pgerr.Code(err) != pgerr.NotNullViolation {
		t.Fatalf("NULL after SET NOT NULL, ReplaceRows: %v, want 23502", err)
	}
	if err := batch(i4(7)); err != nil {
		t.Fatalf("before the CHECK: %v", err)
	}
	exec(`ALTER TABLE t ADD CONSTRAINT pos CHECK (a > 0)`)
	if err := batch(i4(-1)); pgerr.Code(err) != pgerr.CheckViolation {
		t.Fatalf("-1 after the CHECK, a Replace a row: %v, want 23514", err)
	}
	if err := s.ReplaceRows("t", [][]value.Value{row(4, i4(4)), row(5, i4(-5))}); pgerr.Code(err) != pgerr.CheckViolation {
		t.Fatalf("-5 after the CHECK, ReplaceRows: %v, want 23514", err)
	}
}
