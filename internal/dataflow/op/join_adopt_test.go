package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestJoinAdoptedIndex builds an inner join whose left index is filled
// apart with the left input's rows (IndexAdopter) and checks that its
// cold start gives the pairs a join building its own index gives, that
// it reads the index after its Trim, and that a step changing the right
// side once the left has had rows fails rather than miss pairs.
func TestJoinAdoptedIndex(t *testing.T) {
	spec := func() JoinSpec {
		return JoinSpec{
			Left:  JoinSide{Name: "l", Arity: 2, Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int8Type}}},
			Right: JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}},
		}
	}
	var l, r zset.ZSet
	for i := range 3000 {
		key := value.NewInt(value.Int8, int64(i%70))
		if i%101 == 0 {
			key = value.Null
		}
		l = append(l, zset.Entry{Row: value.Row{value.NewInt(value.Int8, int64(i)), key}, W: 1})
	}
	for i := range 60 {
		r = append(r, zset.Entry{Row: ints(int64(i), int64(-i)), W: 1})
	}
	l, r = zset.Consolidate(l), zset.Consolidate(r)
	later := zset.ZSet{{Row: ints(65, 0), W: 1}, {Row: ints(3, -3), W: -1}}
	build := func(adopt bool) (string, *dataflow.Arrangement) {
		c := dataflow.NewCircuit()
		j := NewInnerJoin(spec())
		v := NewIntegrate()
		c.Add(v, c.Add(j, c.Input("l"), c.Input("r")))
		var a *dataflow.Arrangement
		if adopt {
			a = j.Adopt(0, nil)
			if err := a.Load(l); err != nil {
				t.Fatal(err)
			}
		}
		c.DeferLoads()
		if err := c.Step(map[string]zset.ZSet{"r": r}); err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < len(l); lo += 1000 {
			if err := c.Step(map[string]zset.ZSet{"l": l[lo : lo+1000]}); err != nil {
				t.Fatal(err)
			}
		}
		c.Trim()
		// After the cold start, a change of the right side reads the
		// left index, which the caller stages from now on (unchanged
		// here).
		if err := c.Step(map[string]zset.ZSet{"r": later}); err != nil {
			t.Fatal(err)
		}
		var all zset.ZSet
		v.Rows(func(r value.Row, w int64) bool {
			all = append(all, zset.Entry{Row: r, W: w})
			return true
		})
		return zset.Consolidate(all).String(), a
	}
	want, _ := build(false)
	got, a := build(true)
	if got != want {
		t.Fatalf("with an adopted index the view holds\n%s\nwant\n%s", got, want)
	}
	if own := a.Len(); own != len(l)-30 { // 30 NULL keys left out
		t.Fatalf("the adopted index holds %d rows", own)
	}

	// The right side changing after the left's rows: refused.
	c := dataflow.NewCircuit()
	j := NewInnerJoin(spec())
	c.Add(j, c.Input("l"), c.Input("r"))
	if err := j.Adopt(0, nil).Load(l); err != nil {
		t.Fatal(err)
	}
	if err := c.Step(map[string]zset.ZSet{"l": l[:10], "r": r}); err != nil {
		t.Fatalf("the first step, both sides at once: %v", err)
	}
	if err := c.Step(map[string]zset.ZSet{"r": later}); err == nil {
		t.Fatal("a change of the right side after the left's rows was accepted")
	}
}
