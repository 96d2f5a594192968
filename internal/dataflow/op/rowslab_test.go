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

// A join's retractions outside a cold start take their rows from a slab,
// a hundred or so an allocation, and nothing is reused: every row a step
// hands downstream still holds what it held when a later step has run.
func TestJoinRetractionRowsApart(t *testing.T) {
	c := dataflow.NewCircuit()
	j := c.Add(NewInnerJoin(JoinSpec{
		Left:    JoinSide{Name: "l", Arity: 3, Key: []expr.Expr{col{i: 1}}},
		Right:   JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{col{i: 0}}},
		Project: []expr.Expr{col{i: 0}, col{i: 2}, col{i: 4}},
	}), c.Input("l"), c.Input("r"))
	v := NewIntegrate()
	c.Add(v, j)
	const nl, nr = 2000, 50
	r := make(zset.ZSet, nr)
	for i := range r {
		r[i] = zset.Entry{Row: ints(int64(i), int64(i*7)), W: 1}
	}
	l := make(zset.ZSet, nl)
	vals := make([]int64, nl)
	for i := range l {
		l[i] = zset.Entry{Row: ints(int64(i), int64(i%nr), 0), W: 1}
	}
	for _, in := range []map[string]zset.ZSet{{"r": r}, {"l": l}} {
		if err := c.Step(in); err != nil {
			t.Fatal(err)
		}
		c.Commit()
	}
	type kept struct {
		row  value.Row
		w    int64
		text string
	}
	var all []kept
	rng := uint64(1)
	for step := range 200 {
		// Steps of 1 to 64 replacements of distinct ids, in id order.
		n := 1 + step%64
		var d zset.ZSet
		for id := (step * 37) % nl; len(d) < 2*n && id < nl; id += 1 + int(rng%5) {
			rng = rng*6364136223846793005 + 1442695040888963407
			old := ints(int64(id), int64(id%nr), vals[id])
			vals[id] = int64(rng >> 40)
			d = append(d, zset.Entry{Row: old, W: -1}, zset.Entry{Row: ints(int64(id), int64(id%nr), vals[id]), W: 1})
		}
		if err := c.Step(map[string]zset.ZSet{"l": zset.Consolidate(d)}); err != nil {
			t.Fatal(err)
		}
		out := c.Output(j)
		retracted := 0
		for _, e := range out {
			all = append(all, kept{e.Row, e.W, zset.ZSet{e}.String()})
			if e.W < 0 {
				retracted++
			}
		}
		if retracted != len(d)/2 {
			t.Fatalf("step %d: %d retractions for %d replacements: %v", step, retracted, len(d)/2, out)
		}
		c.Commit()
	}
	for i, k := range all {
		if got := (zset.ZSet{{Row: k.row, W: k.w}}).String(); got != k.text {
			t.Fatalf("output row %d changed after its step: %s, was %s", i, got, k.text)
		}
	}
	var want zset.ZSet
	for id := range nl {
		want = append(want, zset.Entry{Row: ints(int64(id), vals[id], int64(id%nr*7)), W: 1})
	}
	var got zset.ZSet
	v.Rows(func(r value.Row, w int64) bool {
		got = append(got, zset.Entry{Row: r, W: w})
		return true
	})
	if zset.Consolidate(got).String() != zset.Consolidate(want).String() {
		t.Fatal("the view's rows differ from the join recomputed")
	}
	// A step of one replacement allocates the assertion's row, not the
	// retraction's (but for one slab in a hundred steps or so).
	const runs = 500
	ins := make([]map[string]zset.ZSet, runs+1)
	for i := range ins {
		id := 7 + i%(nl-7)
		old := vals[id]
		vals[id]++
		ins[i] = map[string]zset.ZSet{"l": zset.Consolidate(zset.ZSet{
			{Row: ints(int64(id), int64(id%nr), old), W: -1},
			{Row: ints(int64(id), int64(id%nr), vals[id]), W: 1},
		})}
	}
	next := 0
	allocs := testing.AllocsPerRun(runs, func() {
		if err := c.Step(ins[next]); err != nil {
			t.Fatal(err)
		}
		c.Commit()
		next++
	})
	if allocs > 1.1 {
		t.Fatalf("a step of one replacement allocates %.2f times, want about 1 (the asserted row)", allocs)
	}
}
