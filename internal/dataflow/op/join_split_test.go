package op

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
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

// TestJoinSplitKeys steps batches of the left side alone, the right side
// unchanged (a table's replacements against a dimension, as the harness's
// join view receives them), through an inner join that probes every step
// in halves and through one that probes in order: replacements keeping
// the key, moving it, to and from NULL, deletes and inserts of one key in
// a batch, a row retracted and asserted again (nothing to emit), and,
// with a failing key, keys whose computation fails in either half (the
// error names its row, so the one reported shows). Outputs and errors are
// the same entry for entry, and after each commit the view is the join of
// the rows held computed afresh.
func TestJoinSplitKeys(t *testing.T) {
	for _, fail := range []bool{false, true} {
		var key expr.Expr = &expr.Col{Idx: 1, T: value.Int8Type}
		if fail {
			key = failKey{}
		}
		build := func() (*dataflow.Circuit, *InnerJoin, *Integrate, dataflow.NodeID) {
			c := dataflow.NewCircuit()
			ij := NewInnerJoin(JoinSpec{
				Left:  JoinSide{Name: "l", Arity: 3, Key: []expr.Expr{key}},
				Right: JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}},
				Project: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}, &expr.Col{Idx: 2, T: value.Int8Type},
					&expr.Col{Idx: 4, T: value.Int8Type}},
			})
			j := c.Add(ij, c.Input("l"), c.Input("r"))
			v := NewIntegrate()
			v.KeyBy([]int{0})
			c.Add(v, j)
			return c, ij, v, j
		}
		for seed := range int64(4) {
			rng := rand.New(rand.NewPCG(uint64(seed), 11))
			plain, _, plainV, pj := build()
			split, sj, splitV, jj := build()
			s := &countSplit{goSplit: goSplit{ways: 2}}
			sj.SetSplit(s)
			const ids, keys = 3000, 200
			// The right side: keys 0..keys-1, some with two rows, some
			// with none.
			var right zset.ZSet
			for k := range int64(keys) {
				if k%7 == 3 {
					continue
				}
				right = append(right, zset.Entry{Row: ints(k, 1000+k), W: 1})
				if k%5 == 0 {
					right = append(right, zset.Entry{Row: ints(k, 2000+k), W: 1})
				}
			}
			right = zset.Consolidate(right)
			held := map[int64]value.Row{}
			row := func(id int64) value.Row {
				k := value.NewInt(value.Int8, rng.Int64N(keys+20)) // some match nothing
				if rng.IntN(30) == 0 {
					k = value.Null
				}
				return value.Row{value.NewInt(value.Int8, id), k, value.NewInt(value.Int8, rng.Int64N(1e6))}
			}
			for _, c := range []*dataflow.Circuit{plain, split} {
				if err := c.Step(map[string]zset.ZSet{"r": right}); err != nil {
					t.Fatal(err)
				}
			}
			for step := range 30 {
				in := map[string]zset.ZSet{}
				next := map[int64]value.Row{}
				for id, r := range held {
					next[id] = r
				}
				var z zset.ZSet
				for range rng.IntN(1200) + 2 {
					id := rng.Int64N(ids)
					old, ok := next[id]
					switch op := rng.IntN(10); {
					case ok && op < 5: // replaced, the key kept
						nr := slices.Clone(old)
						nr[2] = value.NewInt(value.Int8, rng.Int64N(1e6))
						z = append(z, zset.Entry{Row: old, W: -1}, zset.Entry{Row: nr, W: 1})
						next[id] = nr
					case ok && op < 7: // replaced, the key moved
						nr := row(id)
						z = append(z, zset.Entry{Row: old, W: -1}, zset.Entry{Row: nr, W: 1})
						next[id] = nr
					case ok && op < 8: // retracted and asserted again
						z = append(z, zset.Entry{Row: old, W: -1}, zset.Entry{Row: old, W: 1})
					case ok: // deleted
						z = append(z, zset.Entry{Row: old, W: -1})
						delete(next, id)
					default: // inserted
						nr := row(id)
						if ok {
							z = append(z, zset.Entry{Row: old, W: -1})
						}
						z = append(z, zset.Entry{Row: nr, W: 1})
						next[id] = nr
					}
				}
				in["l"] = zset.Consolidate(z)
				errP, errS := plain.Prepare(in), split.Prepare(in)
				if (errP == nil) != (errS == nil) || errP != nil && errP.Error() != errS.Error() {
					t.Fatalf("fail %v seed %d step %d: errors %v in order, %v in halves", fail, seed, step, errP, errS)
				}
				if errP != nil {
					plain.Abort()
					split.Abort()
					continue
				}
				if a, b := zset.ZSet(plain.Output(pj)).String(), zset.ZSet(split.Output(jj)).String(); a != b {
					t.Fatalf("fail %v seed %d step %d: the output probed in halves differs:\n%s\nin order:\n%s", fail, seed, step, b, a)
				}
				plain.Commit()
				split.Commit()
				held = next
				// The join of the rows held, afresh.
				var want zset.ZSet
				for _, l := range held {
					for _, r := range right {
						if !l[1].IsNull() && l[1].Int() == r.Row[0].Int() {
							want = append(want, zset.Entry{Row: value.Row{l[0], l[2], r.Row[1]}, W: r.W})
						}
					}
				}
				w := zset.Consolidate(want).String()
				for _, v := range []*Integrate{plainV, splitV} {
					var got zset.ZSet
					v.Rows(func(r value.Row, n int64) bool {
						got = append(got, zset.Entry{Row: r, W: n})
						return true
					})
					if g := zset.Consolidate(got).String(); g != w {
						t.Fatalf("fail %v seed %d step %d: the view differs from the join computed afresh", fail, seed, step)
					}
				}
			}
			if s.runs == 0 {
				t.Fatalf("fail %v seed %d: no step was probed in halves", fail, seed)
			}
		}
	}
}

// failKey is #1, failing with division by zero, naming the row's #0, when
// #1 = 13: which row's error a step reports shows.
type failKey struct{ expr.Expr }

func (failKey) Type() value.Type { return value.Int8Type }
func (failKey) Eval(r value.Row) (value.Value, error) {
	if !r[1].IsNull() && r[1].Int() == 13 {
		return value.Null, pgerr.New(pgerr.DivisionByZero, "division by zero in row %d", r[0].Int())
	}
	return r[1], nil
}
func (failKey) String() string { return "#1 / (#1 - 13)" }
func (failKey) Volatile() bool { return false }
