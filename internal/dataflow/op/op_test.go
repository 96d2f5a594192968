package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

func step(t *testing.T, c *dataflow.Circuit, name string, z zset.ZSet) {
	t.Helper()
	if err := c.Step(map[string]zset.ZSet{name: z}); err != nil {
		t.Fatal(err)
	}
}

func wantZ(t *testing.T, what string, got zset.ZSet, want string) {
	t.Helper()
	if s := got.String(); s != want {
		t.Fatalf("%s:\n%swant\n%s", what, s, want)
	}
}

func TestFilterRowStopsMatching(t *testing.T) {
	c := dataflow.NewCircuit()
	f := c.Add(NewFilter(gt{col: 1, c: 10}), c.Input("t"))
	v := NewIntegrate()
	c.Add(v, f)

	step(t, c, "t", zset.ZSet{e(ints(1, 20), 1)})
	wantZ(t, "insert", c.Output(f), "+1 (1, 20)\n")
	step(t, c, "t", zset.ZSet{e(ints(1, 20), -1), e(ints(1, 5), 1)})
	wantZ(t, "update out", c.Output(f), "-1 (1, 20)\n")
	if v.Len() != 0 {
		t.Fatalf("the view kept the row:\n%s", v)
	}
	step(t, c, "t", zset.ZSet{e(ints(1, 5), -1), e(ints(1, 15), 1)})
	wantZ(t, "update in", c.Output(f), "+1 (1, 15)\n")
	wantZ(t, "update in", zsetOf(v), "+1 (1, 15)\n")
}

func zsetOf(v *Integrate) zset.ZSet {
	var z zset.ZSet
	v.Rows(func(r value.Row, w int64) bool {
		z = append(z, zset.Entry{Row: r, W: w})
		return true
	})
	return z
}

func TestDistinctCountsDuplicates(t *testing.T) {
	c := dataflow.NewCircuit()
	d := NewDistinct()
	n := c.Add(d, c.Input("t"))
	step(t, c, "t", zset.ZSet{e(ints(1), 3)})
	wantZ(t, "insert 3", c.Output(n), "+1 (1)\n")
	step(t, c, "t", zset.ZSet{e(ints(1), -2)})
	wantZ(t, "delete 2 of 3", c.Output(n), "")
	if got := d.State(); got.Rows != 1 {
		t.Fatalf("state %+v", got)
	}
	step(t, c, "t", zset.ZSet{e(ints(1), -1)})
	wantZ(t, "delete the last", c.Output(n), "-1 (1)\n")
	if got := d.State(); got != (dataflow.StateSize{}) {
		t.Fatalf("state %+v after the last copy left", got)
	}
}

// TestCancellation checks that changes summing to zero emit nothing from
// every operator, whether they cancel in the input batch, in a projection,
// across inputs of a union, or through a negation.
func TestCancellation(t *testing.T) {
	c := dataflow.NewCircuit()
	a, b := c.Input("a"), c.Input("b")
	f := c.Add(NewFilter(gt{col: 1, c: 0}), a)
	m := c.Add(NewMap([]expr.Expr{col{i: 1}}), f) // (k, v) → (v)
	nb := c.Add(NewNegate(), b)                   // -b
	u := c.Add(NewUnion(2), m, nb)                // m - b
	d := c.Add(NewDistinct(), u)
	v := NewIntegrate()
	iv := c.Add(v, d)
	all := []dataflow.NodeID{f, m, nb, u, d, iv}

	// Some state first.
	if err := c.Step(map[string]zset.ZSet{"a": {e(ints(1, 7), 1)}}); err != nil {
		t.Fatal(err)
	}
	wantZ(t, "view", zsetOf(v), "+1 (7)\n")

	cases := []struct {
		name   string
		deltas map[string]zset.ZSet
	}{
		{"insert and delete", map[string]zset.ZSet{"a": {e(ints(2, 8), 1), e(ints(2, 8), -1)}}},
		{"update undone", map[string]zset.ZSet{"a": {
			e(ints(1, 7), -1), e(ints(1, 9), 1), e(ints(1, 9), -1), e(ints(1, 7), 1)}}},
		{"projection merges", map[string]zset.ZSet{"a": {e(ints(1, 7), -1), e(ints(3, 7), 1)}}},
		{"union of opposites", map[string]zset.ZSet{"a": {e(ints(4, 5), 1)}, "b": {e(ints(5), 1)}}},
	}
	for _, tc := range cases {
		before := v.State()
		if err := c.Step(tc.deltas); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, id := range all {
			if out := c.Output(id); len(out) > 0 && id != f && id != m && id != nb {
				t.Fatalf("%s: node %d (%s) emitted\n%s", tc.name, id, c.Node(id).Info().Kind, out)
			}
		}
		if got := v.State(); got != before {
			t.Fatalf("%s: view state changed from %+v to %+v", tc.name, before, got)
		}
	}
	wantZ(t, "view", zsetOf(v), "+1 (7)\n")
	if s := c.Stats(iv); s.Steps != 1 {
		t.Fatalf("integrate stepped %d times, want 1", s.Steps)
	}
}

// TestAbortLeavesStateUnchanged fails a step after stateful operators were
// stepped, and checks they are as before.
func TestAbortLeavesStateUnchanged(t *testing.T) {
	c := dataflow.NewCircuit()
	in := c.Input("t")
	d := NewDistinct()
	nd := c.Add(d, in)
	v := NewIntegrate()
	c.Add(v, nd)
	fm := c.Add(NewMap([]expr.Expr{failOn{col: 0, bad: 13}}), in)
	v2 := NewIntegrate()
	c.Add(v2, fm)

	step(t, c, "t", zset.ZSet{e(ints(1), 1), e(ints(2), 2)})
	snapshot := func() string { return d.String() + "|" + v.String() + "|" + v2.String() }
	before, beforeState := snapshot(), v.State()

	err := c.Step(map[string]zset.ZSet{"t": {e(ints(1), -1), e(ints(3), 1), e(ints(13), 1)}})
	if pgerr.Code(err) != pgerr.DivisionByZero {
		t.Fatalf("err = %v", err)
	}
	if after := snapshot(); after != before || v.State() != beforeState {
		t.Fatalf("state changed by a failed step:\n%s\nvs\n%s", after, before)
	}
	// A retraction of an absent row fails in Integrate, with XX000.
	err = c.Step(map[string]zset.ZSet{"t": {e(ints(1), -1), e(ints(5), -1)}})
	if pgerr.Code(err) != pgerr.Internal {
		t.Fatalf("err = %v", err)
	}
	if after := snapshot(); after != before {
		t.Fatalf("state changed by a failed step:\n%s\nvs\n%s", after, before)
	}
	// And the circuit goes on.
	step(t, c, "t", zset.ZSet{e(ints(1), -1)})
	wantZ(t, "view", zsetOf(v), "+1 (2)\n")
	wantZ(t, "view 2", zsetOf(v2), "+2 (2)\n")
}

func TestIntegrateAccessors(t *testing.T) {
	c := dataflow.NewCircuit()
	v := NewIntegrate()
	c.Add(v, c.Input("t"))
	step(t, c, "t", zset.ZSet{e(ints(2), 2), e(ints(1), 1)})
	if v.Len() != 3 || v.Lookup(ints(2)) != 2 || v.Lookup(ints(9)) != 0 {
		t.Fatalf("Len %d, Lookup %d, %d", v.Len(), v.Lookup(ints(2)), v.Lookup(ints(9)))
	}
	wantZ(t, "rows", zsetOf(v), "+1 (1)\n+2 (2)\n")
	if st := v.State(); st.Rows != 2 || st.Bytes <= 2*dataflow.RowBytes(ints(1)) {
		t.Fatalf("state %+v", st)
	}
	info := v.Info()
	if info.Kind != "Integrate" || info.State == "" || info.Cost == "" {
		t.Fatalf("info %+v", info)
	}
}
