package dataflow

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// spy is an operator that passes on the sum of its inputs, records the
// calls it gets, and fails when told to.
type spy struct {
	t                      *testing.T
	steps, commits, aborts int
	fail                   bool
	staged, state          int64 // entries seen, staged and committed
}

func (s *spy) Step(in []zset.ZSet) (zset.ZSet, error) {
	s.steps++
	var all zset.ZSet
	for _, b := range in {
		all = append(all, b...)
	}
	if len(all) == 0 {
		s.t.Errorf("Step called with all inputs empty")
	}
	if s.fail {
		return nil, pgerr.New(pgerr.DivisionByZero, "division by zero")
	}
	s.staged = int64(len(all))
	return zset.Consolidate(all), nil
}
func (s *spy) Commit()          { s.commits++; s.state += s.staged; s.staged = 0 }
func (s *spy) Abort()           { s.aborts++; s.staged = 0 }
func (s *spy) Info() Info       { return Info{Kind: "Spy", State: "entries seen", Cost: "O(change)"} }
func (s *spy) State() StateSize { return StateSize{Rows: s.state} }

func r(n int64) value.Row { return value.Row{value.NewInt(value.Int8, n)} }

func TestNoStepOnEmptyInputs(t *testing.T) {
	c := NewCircuit()
	a, b := c.Input("a"), c.Input("b")
	s1 := &spy{t: t}
	n1 := c.Add(s1, a, b)
	s2 := &spy{t: t}
	c.Add(s2, n1)

	steps := []struct {
		deltas       map[string]zset.ZSet
		wantSteps    int
		wantUpstream int
	}{
		{map[string]zset.ZSet{"a": {e(r(1), 1)}}, 1, 1},
		{nil, 1, 1},
		{map[string]zset.ZSet{"b": {}}, 1, 1},
		// Consolidates to nothing at the input.
		{map[string]zset.ZSet{"b": {e(r(1), 1), e(r(1), -1)}}, 1, 1},
		{map[string]zset.ZSet{"b": {e(r(2), 1)}}, 2, 2},
	}
	for i, st := range steps {
		if err := c.Step(st.deltas); err != nil {
			t.Fatal(err)
		}
		if s1.steps != st.wantUpstream || s2.steps != st.wantSteps {
			t.Fatalf("step %d: steps %d, %d; want %d, %d", i, s1.steps, s2.steps, st.wantUpstream, st.wantSteps)
		}
		if s1.commits != s1.steps || s1.aborts != 0 {
			t.Fatalf("step %d: %d commits, %d aborts for %d steps", i, s1.commits, s1.aborts, s1.steps)
		}
	}
	if got := c.Stats(n1); got != (NodeStats{Steps: 2, EntriesIn: 2, EntriesOut: 2}) {
		t.Fatalf("stats %+v", got)
	}
}

func TestStepErrorAbortsAll(t *testing.T) {
	c := NewCircuit()
	in := c.Input("t")
	ok1 := &spy{t: t}
	n1 := c.Add(ok1, in)
	bad := &spy{t: t, fail: true}
	c.Add(bad, n1)
	after := &spy{t: t}
	c.Add(after, in)

	if err := c.Step(map[string]zset.ZSet{"t": {e(r(1), 1)}}); pgerr.Code(err) != pgerr.DivisionByZero {
		t.Fatalf("err = %v", err)
	}
	if ok1.aborts != 1 || bad.aborts != 1 || ok1.commits != 0 || bad.commits != 0 {
		t.Fatalf("aborts %d, %d; commits %d, %d", ok1.aborts, bad.aborts, ok1.commits, bad.commits)
	}
	if after.steps != 0 || after.aborts != 0 {
		t.Fatalf("a node after the failure was stepped or aborted")
	}
	if c.Output(n1) != nil || c.Stats(n1) != (NodeStats{}) {
		t.Fatalf("a failed step left output or counters")
	}

	bad.fail = false
	if err := c.Step(map[string]zset.ZSet{"t": {e(r(1), 1)}}); err != nil {
		t.Fatal(err)
	}
	if ok1.state != 1 || after.state != 1 || len(c.Output(n1)) != 1 {
		t.Fatalf("state %d, %d, output %v", ok1.state, after.state, c.Output(n1))
	}
}

// A batch for a name that is not an input is ignored: one map of every
// relation's changes feeds every view's circuit.
func TestUnknownInputIgnored(t *testing.T) {
	c := NewCircuit()
	in := c.Input("t")
	if err := c.Step(map[string]zset.ZSet{"u": {e(r(1), 1)}}); err != nil {
		t.Fatal(err)
	}
	if out := c.Output(in); len(out) != 0 {
		t.Fatalf("input t saw %v", out)
	}
}

func TestCircuitString(t *testing.T) {
	c := NewCircuit()
	a, b := c.Input("a"), c.Input("b")
	c.Add(&spy{t: t}, a, b)
	want := "0 Input a\n1 Input b\n2 Spy <- 0 1  state: entries seen  cost: O(change)\n"
	if got := c.String(); got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
	if !strings.Contains(c.DebugString(), "2 Spy steps=0") {
		t.Fatalf("DebugString:\n%s", c.DebugString())
	}
}

func TestRowBytes(t *testing.T) {
	row := value.Row{value.NewInt(value.Int8, 1), value.NewText(value.Text, "hello"), value.Null}
	if got, want := RowBytes(row), rowHeaderBytes+3*valueBytes+8; got != want {
		t.Fatalf("RowBytes = %d, want %d", got, want)
	}
}

func e(r value.Row, w int64) zset.Entry { return zset.Entry{Row: r, W: w} }
