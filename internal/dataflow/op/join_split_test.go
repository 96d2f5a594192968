package op

import (
	"math/rand/v2"
	"runtime"
	"slices"
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

// countSplit is a goSplit that counts the steps it ran in parts.
type countSplit struct {
	goSplit
	runs int
}

func (s *countSplit) Run(fns ...func()) {
	s.runs++
	s.goSplit.Run(fns...)
}

// TestJoinSplitSteps steps random changes of both sides (insertions,
// retractions of rows held, weights other than 1, NULL keys, keys held
// by many rows and by none, both sides changing in one step) through an
// inner join whose output is columns alone and that probes every step of
// two entries or more in halves, each on a goroutine (a commit's step
// that the engine lets split), and through one that probes in order:
// every step's output is the same, entry for entry and in order, and so
// are the views, whether the steps commit or abort.
func TestJoinSplitSteps(t *testing.T) {
	build := func() (*dataflow.Circuit, *InnerJoin, *Integrate, dataflow.NodeID) {
		c := dataflow.NewCircuit()
		ij := NewInnerJoin(JoinSpec{
			Left:  JoinSide{Name: "l", Arity: 2, Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int8Type}}},
			Right: JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}},
			Project: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}, &expr.Col{Idx: 3, T: value.Int8Type},
				&expr.Col{Idx: 1, T: value.Int8Type}},
		})
		j := c.Add(ij, c.Input("l"), c.Input("r"))
		v := NewIntegrate()
		c.Add(v, j)
		return c, ij, v, j
	}
	viewOf := func(v *Integrate) string {
		var all zset.ZSet
		v.Rows(func(r value.Row, w int64) bool {
			all = append(all, zset.Entry{Row: r, W: w})
			return true
		})
		return zset.Consolidate(all).String()
	}
	for seed := range int64(6) {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		plain, _, plainV, pj := build()
		split, sj, splitV, jj := build()
		s := &countSplit{goSplit: goSplit{ways: 2}}
		sj.SetSplit(s)
		keys := int64(40 + rng.IntN(400))
		var heldL, heldR []value.Row
		batch := func(held *[]value.Row, n int, left bool) zset.ZSet {
			var z zset.ZSet
			for range n {
				if len(*held) > 0 && rng.IntN(3) == 0 {
					i := rng.IntN(len(*held))
					z = append(z, zset.Entry{Row: (*held)[i], W: -1})
					(*held)[i] = (*held)[len(*held)-1]
					*held = (*held)[:len(*held)-1]
					continue
				}
				k := value.NewInt(value.Int8, rng.Int64N(keys))
				if rng.IntN(50) == 0 {
					k = value.Null
				}
				var r value.Row
				if left {
					r = value.Row{value.NewInt(value.Int8, rng.Int64N(1<<40)), k}
				} else {
					r = value.Row{k, value.NewInt(value.Int8, rng.Int64N(1<<40))}
				}
				*held = append(*held, r)
				z = append(z, zset.Entry{Row: r, W: 1})
			}
			return zset.Consolidate(z)
		}
		for step := range 40 {
			in := map[string]zset.ZSet{}
			kl, kr := heldL, heldR
			heldL, heldR = slices.Clone(heldL), slices.Clone(heldR)
			if step == 0 || rng.IntN(4) == 0 {
				in["r"] = batch(&heldR, rng.IntN(100), false)
			}
			if step > 0 && rng.IntN(5) > 0 {
				in["l"] = batch(&heldL, rng.IntN(1500), true)
			}
			commit := rng.IntN(6) > 0
			for _, c := range []*dataflow.Circuit{plain, split} {
				if err := c.Prepare(in); err != nil {
					t.Fatal(err)
				}
			}
			if a, b := zset.ZSet(plain.Output(pj)).String(), zset.ZSet(split.Output(jj)).String(); a != b {
				t.Fatalf("seed %d step %d: the output probed in halves differs:\n%s\nin order:\n%s", seed, step, b, a)
			}
			for _, c := range []*dataflow.Circuit{plain, split} {
				if commit {
					c.Commit()
				} else {
					c.Abort()
				}
			}
			if !commit {
				heldL, heldR = kl, kr
			}
			if step%8 != 7 {
				continue
			}
			if a, b := viewOf(plainV), viewOf(splitV); a != b {
				t.Fatalf("seed %d step %d: the views differ", seed, step)
			}
		}
		if s.runs == 0 {
			t.Fatalf("seed %d: no step was probed in halves", seed)
		}
	}
}
