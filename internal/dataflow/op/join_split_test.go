package op

import (
	"runtime"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestJoinSplitProbes builds an inner join whose output is columns alone
// through a cold start's steps, with one core and with two, and checks
// that every step's output and the view are the same: batches probed in
// two halves (each a multiple of the split's minimum, keys of many rows
// on either side of the halves' boundary, keys that match nothing, NULL
// keys, weights other than 1), against the same batches probed in order.
func TestJoinSplitProbes(t *testing.T) {
	const nl, nr, step = 5 << 15, 700, 1 << 15
	build := func(procs int) (steps []string, view string) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := dataflow.NewCircuit()
		j := c.Add(NewInnerJoin(JoinSpec{
			Left:  JoinSide{Name: "l", Arity: 2, Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int8Type}}},
			Right: JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}},
			Project: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}, &expr.Col{Idx: 3, T: value.Int8Type},
				&expr.Col{Idx: 1, T: value.Int8Type}},
		}), c.Input("l"), c.Input("r"))
		v := NewIntegrate()
		c.Add(v, j)
		c.DeferLoads()
		r := make(zset.ZSet, 0, 2*nr)
		for i := range nr {
			r = append(r, zset.Entry{Row: ints(int64(i), int64(i*i)), W: 1})
			if i%3 == 0 { // a second row of the key
				r = append(r, zset.Entry{Row: ints(int64(i), -int64(i)), W: 2})
			}
		}
		if err := c.Step(map[string]zset.ZSet{"r": zset.Consolidate(r)}); err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < nl; lo += step {
			l := make(zset.ZSet, step)
			for i := range l {
				id := int64(lo + i)
				// Runs of keys: 50 rows a key, past the end of r's
				// keys for some; a NULL key every 1,000 rows.
				key := value.NewInt(value.Int8, id/50%(nr+100))
				if id%1000 == 7 {
					key = value.Null
				}
				l[i] = zset.Entry{Row: value.Row{value.NewInt(value.Int8, id), key}, W: 1 + id%2}
			}
			if err := c.Step(map[string]zset.ZSet{"l": l}); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, zset.ZSet(c.Output(j)).String())
		}
		c.Trim()
		var all zset.ZSet
		v.Rows(func(r value.Row, w int64) bool {
			all = append(all, zset.Entry{Row: r, W: w})
			return true
		})
		return steps, all.String()
	}
	one, oneView := build(1)
	two, twoView := build(2)
	for i := range one {
		if one[i] != two[i] {
			t.Fatalf("step %d: the output probed in two halves differs from the output probed in order", i)
		}
	}
	if oneView != twoView {
		t.Fatal("the views differ")
	}
}
