package expr_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// TestAsTemporal checks which comparisons with the clock a temporal
// filter maintains, with the row on either side, and the reasons for the
// others.
func TestAsTemporal(t *testing.T) {
	def, _, _, err := expr.ResolveFunc("now", nil)
	if err != nil {
		t.Fatal(err)
	}
	tz := value.TimestampTZType
	now := &expr.Func{Def: def, T: tz}
	ts := &expr.Col{Idx: 0, T: tz, Name: "ts"}
	n := &expr.Col{Idx: 1, T: value.IntervalType, Name: "n"}
	iv := func(months, days int32, us int64) expr.Expr {
		return &expr.Const{V: value.NewInterval(value.Span{Months: months, Days: days, Micros: us}), T: value.IntervalType}
	}
	minus := func(l, r expr.Expr) expr.Expr { return &expr.Arith{Op: expr.OpSub, L: l, R: r, T: tz} }
	plus := func(l, r expr.Expr) expr.Expr { return &expr.Arith{Op: expr.OpAdd, L: l, R: r, T: tz} }
	for _, c := range []struct {
		e      expr.Expr
		op     expr.CmpOp // with the row on the left
		refuse string     // part of the reason, when refused
	}{
		{e: &expr.Cmp{Op: expr.GT, L: ts, R: minus(now, iv(0, 0, 3600e6))}, op: expr.GT},
		{e: &expr.Cmp{Op: expr.LT, L: minus(now, iv(0, 1, 0)), R: ts}, op: expr.GT},
		{e: &expr.Cmp{Op: expr.GE, L: now, R: plus(ts, iv(1, 0, 0))}, op: expr.LE},
		{e: &expr.Cmp{Op: expr.EQ, L: ts, R: plus(iv(0, 2, 0), now)}, op: expr.EQ},
		{e: &expr.Cmp{Op: expr.NE, L: ts, R: now}, refuse: "leave and enter again"},
		{e: &expr.Cmp{Op: expr.GT, L: ts, R: minus(now, n)}, refuse: "must not read columns"},
		{e: &expr.Cmp{Op: expr.GT, L: ts, R: minus(now, iv(1, 0, 0))}, refuse: "months"},
		{e: &expr.Cmp{Op: expr.GT, L: &expr.Arith{Op: expr.OpSub, L: ts, R: now, T: value.IntervalType}, R: iv(0, 0, 1)}, refuse: "must not read columns"},
		{e: &expr.Cmp{Op: expr.GT, L: now, R: minus(now, iv(0, 0, 1))}, refuse: "one side"},
		{e: &expr.Or{Args: []expr.Expr{&expr.Cmp{Op: expr.GT, L: ts, R: now}, boolc(true)}}, refuse: "compared with"},
	} {
		if !expr.ReadsClock(c.e) {
			t.Fatalf("%s: does not read the clock", c.e)
		}
		tc, why := expr.AsTemporal(c.e)
		switch {
		case c.refuse != "" && tc != nil:
			t.Errorf("%s: accepted, want refused (%s)", c.e, c.refuse)
		case c.refuse != "" && !strings.Contains(why, c.refuse):
			t.Errorf("%s: refused with %q, want %q", c.e, why, c.refuse)
		case c.refuse == "" && tc == nil:
			t.Errorf("%s: refused: %s", c.e, why)
		case c.refuse == "" && tc.Op != c.op:
			t.Errorf("%s: row %s bound, want %s", c.e, tc.Op, c.op)
		}
	}
	if expr.ReadsClock(&expr.Cmp{Op: expr.GT, L: ts, R: iv(0, 0, 1)}) {
		t.Error("a comparison without the clock reads it")
	}
}
