package op

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"pgregory.net/rapid"
)

// le is #a <= #b over integers, NULL when either is NULL.
type le struct {
	expr.Expr
	a, b int
}

func (e le) Type() value.Type { return value.BoolType }
func (e le) Eval(r value.Row) (value.Value, error) {
	if r[e.a].IsNull() || r[e.b].IsNull() {
		return value.Null, nil
	}
	return value.NewBool(r[e.a].Int() <= r[e.b].Int()), nil
}
func (e le) String() string { return fmt.Sprintf("#%d <= #%d", e.a, e.b) }
func (e le) Volatile() bool { return false }

// joinKinds names every join the twin test covers.
var joinKinds = []string{"inner", "cross", "left", "right", "full", "semi", "anti", "notin"}

// newJoinOp builds a join of kind over (k, v) rows on k (no key for a cross
// join), with the residual l.v <= r.v when residual is set.
func newJoinOp(kind string, residual bool, left, right *dataflow.Arrangement) dataflow.Operator {
	spec := JoinSpec{
		Left:  JoinSide{Name: "l", Arity: 2, Key: []expr.Expr{col{i: 0}}, Index: left},
		Right: JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{col{i: 0}}, Index: right},
	}
	if kind == "cross" {
		spec.Left.Key, spec.Right.Key = nil, nil
	}
	if residual && kind != "notin" {
		spec.Residual = le{a: 1, b: 3}
	}
	switch kind {
	case "inner", "cross":
		return NewInnerJoin(spec)
	case "left":
		return NewOuterJoin(LeftOuter, spec)
	case "right":
		return NewOuterJoin(RightOuter, spec)
	case "full":
		return NewOuterJoin(FullOuter, spec)
	case "semi", "anti":
		return NewSemiJoin(spec, kind == "anti")
	case "notin":
		return NewNotInJoin(spec)
	}
	panic(kind)
}

// naiveJoin recomputes a join of kind from the integrated inputs.
func naiveJoin(kind string, residual bool, l, r map[string]zset.Entry) zset.ZSet {
	match := func(a, b value.Row) bool {
		if kind != "cross" && (a[0].IsNull() || b[0].IsNull() || a[0].Int() != b[0].Int()) {
			return false
		}
		if residual && kind != "notin" {
			v, _ := le{a: 1, b: 3}.Eval(append(slices.Clone(a), b...))
			return isTrue(v)
		}
		return true
	}
	null2 := value.Row{value.Null, value.Null}
	var out zset.ZSet
	matchedR := map[string]bool{}
	for _, le := range l {
		var m int64
		for rk, re := range r {
			if match(le.Row, re.Row) {
				m += re.W
				matchedR[rk] = true
				switch kind {
				case "inner", "cross", "left", "right", "full":
					out = append(out, zset.Entry{Row: append(slices.Clone(le.Row), re.Row...), W: le.W * re.W})
				}
			}
		}
		switch kind {
		case "left", "full":
			if m == 0 {
				out = append(out, zset.Entry{Row: append(slices.Clone(le.Row), null2...), W: le.W})
			}
		case "semi":
			if m != 0 {
				out = append(out, le)
			}
		case "anti":
			if m == 0 {
				out = append(out, le)
			}
		case "notin":
			keep := true
			if len(r) > 0 {
				keep = !le.Row[0].IsNull()
				for _, re := range r {
					if re.Row[0].IsNull() || (keep && re.Row[0].Int() == le.Row[0].Int()) {
						keep = false
					}
				}
			}
			if keep {
				out = append(out, le)
			}
		}
	}
	if kind == "right" || kind == "full" {
		for rk, re := range r {
			if !matchedR[rk] {
				out = append(out, zset.Entry{Row: append(slices.Clone(null2), re.Row...), W: re.W})
			}
		}
	}
	return zset.Consolidate(out)
}

// TestJoinTwin steps random batches (some of them big) on both inputs of every join kind, with
// and without a residual, with private indexes or with arrangements shared
// by two joins, and checks after every step that each join's integrated
// output equals the join recomputed from the integrated inputs, that each
// delta is the difference of consecutive results, and that a failing step
// changes nothing.
func TestJoinTwin(t *testing.T) {
	for _, kind := range joinKinds {
		t.Run(kind, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) { joinTwin(rt, kind) })
		})
	}
}

func joinTwin(rt *rapid.T, kind string) {
	residual := rapid.Bool().Draw(rt, "residual")
	shared := rapid.Bool().Draw(rt, "shared")
	c := dataflow.NewCircuit()
	lin, rin := c.Input("l"), c.Input("r")
	type view struct {
		v    *Integrate
		node dataflow.NodeID
		kind string
	}
	var views []view
	if shared {
		// Two joins read one pair of arrangements, staged once by Arrange
		// nodes that pass the batches on.
		key := []expr.Expr{col{i: 0}}
		if kind == "cross" {
			key = nil
		}
		al := dataflow.NewArrangement(dataflow.ArrangementSpec{Name: "l", Key: key})
		ar := dataflow.NewArrangement(dataflow.ArrangementSpec{Name: "r", Key: key})
		ln, rn := c.Add(NewArrange(al), lin), c.Add(NewArrange(ar), rin)
		other := "inner"
		if kind == "inner" {
			other = "full"
		}
		if kind == "cross" {
			other = "cross"
		}
		for _, k := range []string{kind, other} {
			j := c.Add(newJoinOp(k, residual, al, ar), ln, rn)
			v := NewIntegrate()
			views = append(views, view{v: v, node: c.Add(v, j), kind: k})
		}
	} else {
		j := c.Add(newJoinOp(kind, residual, nil, nil), lin, rin)
		v := NewIntegrate()
		views = append(views, view{v: v, node: c.Add(v, j), kind: kind})
	}
	// A node stepped after the joins that fails when a left row has v = 9:
	// the joins are stepped, then aborted.
	c.Add(NewMap([]expr.Expr{failOn{col: 1, bad: 9}}), lin)

	L, R := map[string]zset.Entry{}, map[string]zset.Entry{}
	keyv := func(label string) value.Value {
		k := rapid.IntRange(-1, 2).Draw(rt, label)
		if k < 0 {
			return value.Null
		}
		return value.NewInt(value.Int8, int64(k))
	}
	batch := func(side string, state map[string]zset.Entry) zset.ZSet {
		var z zset.ZSet
		pending := map[string]int64{}
		n, vmin, vmax := rapid.IntRange(0, 5).Draw(rt, "n"+side), int64(0), int64(2)
		if rapid.IntRange(0, 5).Draw(rt, "big"+side) == 0 {
			// A big batch (its lookups reuse the last key's matches):
			// values above the failing one.
			n, vmin, vmax = rapid.IntRange(150, 250).Draw(rt, "nbig"+side), 10, 90
		}
		for i := 0; i < n; i++ {
			row := value.Row{keyv(side + ".k"), value.NewInt(value.Int8, rapid.Int64Range(vmin, vmax).Draw(rt, side+".v"))}
			s := zset.FormatRow(row)
			w := rapid.Int64Range(-2, 2).Draw(rt, "w"+side)
			if have := state[s].W + pending[s]; have+w < 0 {
				w = -have // keep the inputs' weights nonnegative
			}
			pending[s] += w
			z = append(z, zset.Entry{Row: row, W: w})
		}
		return z
	}
	apply := func(state map[string]zset.Entry, z zset.ZSet) {
		for _, e := range z {
			s := zset.FormatRow(e.Row)
			n := state[s].W + e.W
			if n == 0 {
				delete(state, s)
			} else {
				state[s] = zset.Entry{Row: e.Row, W: n}
			}
		}
	}
	steps := rapid.IntRange(1, 25).Draw(rt, "steps")
	for s := 0; s < steps; s++ {
		bl, br := batch("l", L), batch("r", R)
		bad := rapid.IntRange(0, 7).Draw(rt, "bad") == 0
		if bad {
			bl = append(bl, zset.Entry{Row: ints(5, 9), W: 1})
		}
		var old []zset.ZSet
		for _, v := range views {
			old = append(old, naiveJoin(v.kind, residual, L, R))
		}
		err := c.Step(map[string]zset.ZSet{"l": slices.Clone(bl), "r": slices.Clone(br)})
		if bad {
			if pgerr.Code(err) != pgerr.DivisionByZero {
				rt.Fatalf("step %d: err = %v, want 22012", s, err)
			}
		} else {
			if err != nil {
				rt.Fatalf("step %d: %v", s, err)
			}
			apply(L, bl)
			apply(R, br)
		}
		for i, v := range views {
			want := naiveJoin(v.kind, residual, L, R)
			if got := zsetOf(v.v); !zset.Equal(got, want) {
				rt.Fatalf("step %d: %s join holds\n%swant\n%sL:\n%vR:\n%v", s, v.kind, got, want, L, R)
			}
			if !bad {
				if got, wantD := c.Output(v.node), zset.Add(want, old[i].Negate()); !zset.Equal(got, wantD) {
					rt.Fatalf("step %d: %s join delta\n%swant\n%s", s, v.kind, got, wantD)
				}
			}
		}
	}
}
