package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// The rows of a slab are apart: writing one, or appending to it, leaves
// the others as they were; a row too wide for a slab's quarter is its own
// allocation.
func TestRowSlab(t *testing.T) {
	var s rowSlab
	var rows []value.Row
	for i := range 1000 {
		r := s.row(3)
		if len(r) != 3 || cap(r) != 3 {
			t.Fatalf("row %d: len %d cap %d", i, len(r), cap(r))
		}
		for j := range r {
			if !r[j].IsNull() {
				t.Fatalf("row %d is not all NULL: %v", i, r)
			}
			r[j] = value.NewInt(value.Int8, int64(i*3+j))
		}
		rows = append(rows, r)
	}
	grown := append(rows[0], value.NewInt(value.Int8, -1))
	grown[0] = value.NewInt(value.Int8, -2)
	for i, r := range rows {
		for j := range r {
			if n := r[j].Int(); n != int64(i*3+j) {
				t.Fatalf("row %d column %d is %d", i, j, n)
			}
		}
	}
	if r := s.row(0); r == nil || len(r) != 0 {
		t.Fatalf("a row of no columns: %#v", r)
	}
	wide := s.row(slabValues)
	if len(wide) != slabValues || &wide[0] == &s.row(1)[0] {
		t.Fatal("a wide row shares the slab")
	}
}

// A join's output during a cold start is the same as without: rows from
// the slab, the output sized to its probes and reused from step to step
// (a step of 1 << 15 probes keeps its buffer for the next one).
func TestJoinColdStartOutput(t *testing.T) {
	const nl, nr, step = 3 << 15, 1000, 1 << 15
	build := func(deferred bool) (zset.ZSet, int) {
		c := dataflow.NewCircuit()
		j := c.Add(NewInnerJoin(JoinSpec{
			Left:    JoinSide{Name: "l", Arity: 2, Key: []expr.Expr{col{i: 1}}},
			Right:   JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{col{i: 0}}},
			Project: []expr.Expr{col{i: 0}, col{i: 3}},
		}), c.Input("l"), c.Input("r"))
		v := NewIntegrate()
		c.Add(v, j)
		if deferred {
			c.DeferLoads()
		}
		r := make(zset.ZSet, nr)
		for i := range r {
			r[i] = zset.Entry{Row: ints(int64(i), int64(i*i)), W: 1}
		}
		if err := c.Step(map[string]zset.ZSet{"r": r}); err != nil {
			t.Fatal(err)
		}
		var firsts []*zset.Entry
		for lo := 0; lo < nl; lo += step {
			l := make(zset.ZSet, step)
			for i := range l {
				id := int64(lo + i)
				l[i] = zset.Entry{Row: ints(id, id%nr), W: 1}
			}
			if err := c.Step(map[string]zset.ZSet{"l": l}); err != nil {
				t.Fatal(err)
			}
			out := c.Output(j)
			if len(out) != step {
				t.Fatalf("a step of %d probes made %d rows", step, len(out))
			}
			firsts = append(firsts, &out[:1][0])
		}
		reused := 0
		for i := 1; i < len(firsts); i++ {
			if firsts[i] == firsts[i-1] {
				reused++
			}
		}
		c.Trim()
		var all zset.ZSet
		v.Rows(func(r value.Row, w int64) bool {
			all = append(all, zset.Entry{Row: r, W: w})
			return true
		})
		return all, reused
	}
	got, reused := build(true)
	want, _ := build(false)
	if len(got) != nl || got.String() != want.String() {
		t.Fatalf("cold start output differs: %d rows against %d", len(got), len(want))
	}
	if reused != nl/step-1 {
		t.Fatalf("the output buffer was reused in %d of %d steps", reused, nl/step-1)
	}
}
