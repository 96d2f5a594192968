package op

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"pgregory.net/rapid"
)

// naive holds a non-incremental twin of the circuits below: the integrated
// inputs, from which each view is recomputed from scratch.
type naive struct {
	t map[[2]int64]int64 // rows (k, v) → weight, never negative
	u map[[2]int64]int64 // any weights
}

// view recomputes Integrate(t) as a Z-set.
func (n *naive) view() zset.ZSet {
	var z zset.ZSet
	for k, w := range n.t {
		if w != 0 {
			z = append(z, zset.Entry{Row: ints(k[0], k[1]), W: w})
		}
	}
	return zset.Consolidate(z)
}

// distinctView recomputes distinct(map[#1](filter[#0 > 1](u))).
func (n *naive) distinctView() zset.ZSet {
	proj := map[int64]int64{}
	for k, w := range n.u {
		if k[0] > 1 {
			proj[k[1]] += w
		}
	}
	var z zset.ZSet
	for v, w := range proj {
		if w > 0 {
			z = append(z, zset.Entry{Row: ints(v), W: 1})
		}
	}
	return zset.Consolidate(z)
}

// TestIntegrateDifferentiateTwin steps random batches through two circuits,
//
//	t → Integrate
//	u → Filter #0 > 1 → Map #1 → Distinct → Integrate
//
// and checks after every step that each Integrate holds what the naive twin
// recomputes from the summed inputs (integrate ∘ differentiate = id), that
// each step's delta is the difference of consecutive views, and that a
// failing step changes nothing.
func TestIntegrateDifferentiateTwin(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := dataflow.NewCircuit()
		tin, uin := c.Input("t"), c.Input("u")
		vt := NewIntegrate()
		nt := c.Add(vt, tin)
		f := c.Add(NewFilter(gt{col: 0, c: 1}), uin)
		m := c.Add(NewMap([]expr.Expr{col{i: 1}}), f)
		d := c.Add(NewDistinct(), m)
		vu := NewIntegrate()
		nu := c.Add(vu, d)

		tw := naive{t: map[[2]int64]int64{}, u: map[[2]int64]int64{}}
		key := func(label string) [2]int64 {
			return [2]int64{rapid.Int64Range(0, 4).Draw(rt, label+".k"), rapid.Int64Range(0, 3).Draw(rt, label+".v")}
		}
		steps := rapid.IntRange(1, 30).Draw(rt, "steps")
		for s := 0; s < steps; s++ {
			var bt, bu zset.ZSet
			pending := map[[2]int64]int64{}
			for i, n := 0, rapid.IntRange(0, 6).Draw(rt, "nt"); i < n; i++ {
				k := key("t")
				w := rapid.Int64Range(-2, 2).Draw(rt, "wt")
				if w < 0 && tw.t[k]+pending[k]+w < 0 {
					w = -(tw.t[k] + pending[k]) // keep t's weights nonnegative
				}
				pending[k] += w
				bt = append(bt, zset.Entry{Row: ints(k[0], k[1]), W: w})
			}
			for i, n := 0, rapid.IntRange(0, 6).Draw(rt, "nu"); i < n; i++ {
				k := key("u")
				bu = append(bu, zset.Entry{Row: ints(k[0], k[1]), W: rapid.Int64Range(-2, 2).Draw(rt, "wu")})
			}
			bad := rapid.IntRange(0, 9).Draw(rt, "bad") == 0
			if bad {
				// Retract a row t does not hold: the step must fail and
				// change nothing.
				bt = append(bt, zset.Entry{Row: ints(99, 0), W: -1})
			}
			oldT, oldU := tw.view(), tw.distinctView()
			err := c.Step(map[string]zset.ZSet{"t": slices.Clone(bt), "u": slices.Clone(bu)})
			if bad {
				if pgerr.Code(err) != pgerr.Internal {
					rt.Fatalf("step %d: err = %v, want XX000", s, err)
				}
			} else {
				if err != nil {
					rt.Fatalf("step %d: %v", s, err)
				}
				for _, e := range bt {
					tw.t[[2]int64{e.Row[0].Int(), e.Row[1].Int()}] += e.W
				}
				for _, e := range bu {
					tw.u[[2]int64{e.Row[0].Int(), e.Row[1].Int()}] += e.W
				}
				// Each delta is the difference of consecutive views.
				if got, want := c.Output(nt), zset.Add(tw.view(), oldT.Negate()); !zset.Equal(got, want) {
					rt.Fatalf("step %d: t delta\n%swant\n%s", s, got, want)
				}
				if got, want := c.Output(nu), zset.Add(tw.distinctView(), oldU.Negate()); !zset.Equal(got, want) {
					rt.Fatalf("step %d: distinct delta\n%swant\n%s", s, got, want)
				}
			}
			if got, want := zsetOf(vt), tw.view(); !zset.Equal(got, want) {
				rt.Fatalf("step %d: integrate holds\n%swant\n%s", s, got, want)
			}
			if got, want := zsetOf(vu), tw.distinctView(); !zset.Equal(got, want) {
				rt.Fatalf("step %d: distinct view holds\n%swant\n%s", s, got, want)
			}
			var total int64
			for _, e := range tw.view() {
				total += e.W
			}
			if vt.Len() != total || vt.State().Rows != int64(len(tw.view())) {
				rt.Fatalf("step %d: Len %d, rows %d; want %d, %d", s, vt.Len(), vt.State().Rows, total, len(tw.view()))
			}
		}
	})
}

// TestStateBytesHonest compares an Integrate's accounted bytes with the
// heap growth the Go runtime measures while it fills, with rows arriving in
// order (a cold start) and scattered.
func TestStateBytesHonest(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates")
	}
	for _, scattered := range []bool{false, true} {
		t.Run(fmt.Sprintf("scattered=%v", scattered), func(t *testing.T) {
			const n = 200_000
			before := heapInUse()
			c := dataflow.NewCircuit()
			v := NewIntegrate()
			c.Add(v, c.Input("t"))
			const batch = 1000
			buf := make(zset.ZSet, 0, batch)
			for i := 0; i < n; i += batch {
				buf = buf[:0]
				for j := i; j < i+batch; j++ {
					k := int64(j)
					if scattered {
						k = k * 7919 % n
					}
					buf = append(buf, zset.Entry{Row: value.Row{
						value.NewInt(value.Int8, k),
						value.NewText(value.Text, "customer "+strconv.Itoa(j)),
					}, W: 1})
				}
				if err := c.Step(map[string]zset.ZSet{"t": buf}); err != nil {
					t.Fatal(err)
				}
			}
			buf = nil
			got := heapInUse() - before
			acc := v.State().Bytes
			ratio := float64(acc) / float64(got)
			t.Logf("%d rows: accounted %d bytes (%.1f/row), heap grew %d bytes (%.1f/row), ratio %.2f",
				n, acc, float64(acc)/n, got, float64(got)/n, ratio)
			if ratio < 0.8 || ratio > 1.25 {
				t.Fatalf("accounted bytes off by more than 20%%: ratio %.2f", ratio)
			}
			if v.Len() != n {
				t.Fatal("lost rows")
			}
		})
	}
}
