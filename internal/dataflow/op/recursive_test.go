package op

import (
	"fmt"
	"maps"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"pgregory.net/rapid"
)

// closureCircuit is the maintained transitive closure of edges (src, dst):
// WITH RECURSIVE t(a, b) AS (SELECT src, dst FROM e UNION [ALL]
// SELECT t.a, e.dst FROM t JOIN e ON t.b = e.src).
func closureCircuit(all bool, bound int) (*dataflow.Circuit, *Integrate) {
	inner := dataflow.NewCircuit()
	rec, e := inner.Input("$rec"), inner.Input("e")
	// rec row: a, b, round; e row: src, dst.
	join := NewInnerJoin(JoinSpec{
		Left:    JoinSide{Name: "$rec", Arity: 3, Key: []expr.Expr{col{i: 1}}},
		Right:   JoinSide{Name: "e", Arity: 2, Key: []expr.Expr{col{i: 0}}},
		Project: []expr.Expr{col{i: 0}, col{i: 4}, col{i: 2}},
	})
	out := inner.Add(join, rec, e)
	c := dataflow.NewCircuit()
	in := c.Input("e")
	r := c.Add(NewRecursive(RecursiveSpec{Name: "t", All: all, Inner: inner, Out: out, RecInput: "$rec", Relations: []string{"e"}, Arity: 2, Bound: bound}), in, in)
	v := NewIntegrate()
	c.Add(v, r)
	return c, v
}

func edgeRow(a, b int) value.Row {
	return value.Row{value.NewInt(value.Int8, int64(a)), value.NewInt(value.Int8, int64(b))}
}

// naiveClosure is the closure by rounds: under UNION each pair once, under
// UNION ALL each walk (which must be finite: a DAG).
func naiveClosure(edges map[[2]int]int, all bool) map[[2]int]int64 {
	out := map[[2]int]int64{}
	work := map[[2]int]int64{}
	for e, n := range edges {
		if n > 0 {
			work[e] += int64(n)
		}
	}
	if !all {
		for e := range work {
			work[e] = 1
		}
	}
	for len(work) > 0 {
		for p, n := range work {
			out[p] += n
		}
		next := map[[2]int]int64{}
		for p, n := range work {
			for e, m := range edges {
				if m > 0 && e[0] == p[1] {
					next[[2]int{p[0], e[1]}] += n * int64(m)
				}
			}
		}
		if !all {
			for p := range next {
				if out[p] > 0 {
					delete(next, p)
				} else {
					next[p] = 1
				}
			}
		}
		work = next
	}
	return out
}

func contents(v *Integrate) map[[2]int]int64 {
	out := map[[2]int]int64{}
	v.Rows(func(r value.Row, w int64) bool {
		out[[2]int{int(r[0].Int()), int(r[1].Int())}] += w
		return true
	})
	return out
}

// TestRecursiveClosure checks the maintained closure against the naive one
// after every step of random edge insertions and deletions, cycles
// included under UNION and a DAG under UNION ALL, and that a step that
// leaves the closure as it was emits nothing.
func TestRecursiveClosure(t *testing.T) {
	for _, all := range []bool{false, true} {
		t.Run(fmt.Sprintf("all=%v", all), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				c, v := closureCircuit(all, 100)
				edges := map[[2]int]int{}
				for step := range 30 {
					var batch zset.ZSet
					for range rapid.IntRange(1, 4).Draw(rt, "changes") {
						a, b := rapid.IntRange(0, 5).Draw(rt, "a"), rapid.IntRange(0, 5).Draw(rt, "b")
						if all && a >= b {
							continue // UNION ALL terminates on a DAG only
						}
						e := [2]int{a, b}
						w := int64(1)
						if edges[e] > 0 && rapid.Bool().Draw(rt, "delete") {
							w = -1
						}
						edges[e] += int(w)
						batch = append(batch, zset.Entry{Row: edgeRow(a, b), W: w})
					}
					before := contents(v)
					if err := c.Step(map[string]zset.ZSet{"e": batch}); err != nil {
						rt.Fatalf("step %d: %v", step, err)
					}
					want := naiveClosure(edges, all)
					got := contents(v)
					if !maps.Equal(got, want) {
						rt.Fatalf("step %d: closure\n got %v\nwant %v", step, got, want)
					}
					if maps.Equal(before, got) && len(c.Output(dataflow.NodeID(c.Len()-1))) != 0 {
						rt.Fatalf("step %d: the closure did not change, yet the view got %v", step, c.Output(dataflow.NodeID(c.Len()-1)))
					}
				}
			})
		})
	}
}

// TestRecursiveBoundAbort checks that a UNION ALL recursion over a cycle
// fails at its bound with 54000, and that the failed step leaves the
// operator and its inner circuit as they were: the next steps are exact.
func TestRecursiveBoundAbort(t *testing.T) {
	c, v := closureCircuit(true, 20)
	step := func(rows ...zset.Entry) error { return c.Step(map[string]zset.ZSet{"e": rows}) }
	if err := step(zset.Entry{Row: edgeRow(0, 1), W: 1}, zset.Entry{Row: edgeRow(1, 2), W: 1}); err != nil {
		t.Fatal(err)
	}
	err := step(zset.Entry{Row: edgeRow(2, 0), W: 1})
	if e, ok := err.(*pgerr.Error); !ok || e.Code != pgerr.ProgramLimitExceeded {
		t.Fatalf("cycle: %v, want 54000", err)
	}
	c.Abort()
	if err := step(zset.Entry{Row: edgeRow(2, 3), W: 1}); err != nil {
		t.Fatal(err)
	}
	want := naiveClosure(map[[2]int]int{{0, 1}: 1, {1, 2}: 1, {2, 3}: 1}, true)
	if got := contents(v); !maps.Equal(got, want) {
		t.Fatalf("after the failed step: got %v, want %v", got, want)
	}
}
