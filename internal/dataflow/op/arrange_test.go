package op

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

func rowsOf(scan func(fn func(value.Row, int64) bool)) string {
	var b strings.Builder
	scan(func(r value.Row, w int64) bool {
		fmt.Fprintf(&b, "%d%s ", w, zset.FormatRow(r))
		return true
	})
	return b.String()
}

// TestArrangementOrder checks lookups by key and ordered scans within a key
// (ascending, and descending with NULLs low: DESC NULLS LAST) and over
// everything.
func TestArrangementOrder(t *testing.T) {
	a := dataflow.NewArrangement(dataflow.ArrangementSpec{
		Name: "t", Key: []expr.Expr{col{i: 0}},
		Sort: []dataflow.SortKey{{Expr: col{i: 1}, Desc: true, NullsFirst: false}},
	})
	a.Claim()
	z := zset.ZSet{
		e(ints(1, 5), 1), e(ints(1, 7), 2), e(value.Row{value.NewInt(value.Int8, 1), value.Null}, 1),
		e(ints(2, 1), 1), e(value.Row{value.Null, value.NewInt(value.Int8, 3)}, 1),
	}
	if err := a.Stage(zset.Consolidate(z)); err != nil {
		t.Fatal(err)
	}
	if a.Len() != 0 {
		t.Fatal("staged rows visible before Commit")
	}
	a.Commit()
	scan := func(key value.Row, desc bool) string {
		return rowsOf(func(fn func(value.Row, int64) bool) { a.Scan(key, desc, fn) })
	}
	for _, tc := range []struct {
		key  value.Row
		desc bool
		want string
	}{
		{ints(1), false, "2(1, 7) 1(1, 5) 1(1, NULL) "},
		{ints(1), true, "1(1, NULL) 1(1, 5) 2(1, 7) "},
		{ints(2), false, "1(2, 1) "},
		{ints(3), false, ""},
		{value.Row{value.Null}, false, "1(NULL, 3) "},
		{value.Row{value.Null}, true, "1(NULL, 3) "},
		{nil, false, "2(1, 7) 1(1, 5) 1(1, NULL) 1(2, 1) 1(NULL, 3) "},
		{nil, true, "1(NULL, 3) 1(2, 1) 1(1, NULL) 1(1, 5) 2(1, 7) "},
	} {
		if got := scan(tc.key, tc.desc); got != tc.want {
			t.Errorf("Scan(%v, desc=%v) = %q, want %q", tc.key, tc.desc, got, tc.want)
		}
	}
	if got := rowsOf(func(fn func(value.Row, int64) bool) { a.Lookup(ints(1), fn) }); got != scan(ints(1), false) {
		t.Errorf("Lookup = %q", got)
	}
	if a.Weight(ints(1, 7)) != 2 || a.Weight(ints(1, 8)) != 0 || a.Total() != 6 || a.Len() != 5 {
		t.Errorf("Weight %d, Total %d, Len %d", a.Weight(ints(1, 7)), a.Total(), a.Len())
	}
	// Retractions remove entries; an aborted stage changes nothing.
	if err := a.Stage(zset.ZSet{e(ints(1, 7), -2), e(ints(1, 9), 1)}); err != nil {
		t.Fatal(err)
	}
	a.Abort()
	if got := scan(ints(1), false); got != "2(1, 7) 1(1, 5) 1(1, NULL) " {
		t.Errorf("after Abort: %q", got)
	}
	before := a.State()
	if err := a.Stage(zset.ZSet{e(ints(1, 7), -2), e(ints(1, 9), 1)}); err != nil {
		t.Fatal(err)
	}
	a.Commit()
	if got := scan(ints(1), false); got != "1(1, 9) 1(1, 5) 1(1, NULL) " {
		t.Errorf("after Commit: %q", got)
	}
	if st := a.State(); st.Rows != before.Rows || st.Bytes != before.Bytes {
		t.Errorf("state %+v, want %+v (one row replaced by one of the same size)", st, before)
	}
	if got, want := a.Describe(), "index of t on (#0) ordered by #1 DESC NULLS LAST"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

// TestArrangementOwnership checks that an arrangement has one owner and is
// staged at most once per step.
func TestArrangementOwnership(t *testing.T) {
	a := dataflow.NewArrangement(dataflow.ArrangementSpec{Key: []expr.Expr{col{i: 0}}})
	NewArrange(a)
	mustPanic(t, "second owner", func() { NewArrange(a) })
	if err := a.Stage(zset.ZSet{e(ints(1), 1)}); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "staged twice", func() { _ = a.Stage(zset.ZSet{e(ints(1), 1)}) })
	a.Commit()
	a.Retain()
	a.Retain()
	if a.Release() != 1 || a.Refs() != 1 {
		t.Fatal("refs")
	}
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Fatalf("%s: no panic", what)
		}
	}()
	f()
}

// probe reads a shared arrangement in its Step and records what it saw.
type probe struct {
	a    *dataflow.Arrangement
	seen []int64 // the arrangement's total weight at each Step
}

func (p *probe) Step(in []zset.ZSet) (zset.ZSet, error) {
	p.seen = append(p.seen, p.a.Total())
	return nil, nil
}
func (p *probe) Commit()                   {}
func (p *probe) Abort()                    {}
func (p *probe) Info() dataflow.Info       { return dataflow.Info{Kind: "Probe"} }
func (p *probe) State() dataflow.StateSize { return dataflow.StateSize{} }

// TestSharedArrangementPreStep shares one arrangement among two readers of
// one circuit, one before and one after the Arrange node, and a reader of
// another circuit prepared in the same transaction: each sees the state
// before the step, and the input is absorbed once.
func TestSharedArrangementPreStep(t *testing.T) {
	a := dataflow.NewArrangement(dataflow.ArrangementSpec{Name: "t", Key: []expr.Expr{col{i: 0}}})
	c1 := dataflow.NewCircuit()
	in := c1.Input("t")
	before := &probe{a: a}
	c1.Add(before, in)
	arr := c1.Add(NewArrange(a), in)
	after := &probe{a: a}
	c1.Add(after, arr)
	c2 := dataflow.NewCircuit()
	other := &probe{a: a}
	c2.Add(other, c2.Input("t"))

	for i := 1; i <= 3; i++ {
		d := map[string]zset.ZSet{"t": {e(ints(int64(i)), 2)}}
		if err := c1.Prepare(d); err != nil {
			t.Fatal(err)
		}
		if err := c2.Prepare(d); err != nil {
			t.Fatal(err)
		}
		c1.Commit()
		c2.Commit()
	}
	want := "[0 2 4]"
	for _, p := range []*probe{before, after, other} {
		if got := fmt.Sprint(p.seen); got != want {
			t.Errorf("reader saw %s, want %s", got, want)
		}
	}
	if a.Total() != 6 || a.Len() != 3 {
		t.Fatalf("arrangement holds total %d in %d rows, want 6 in 3 (staged once per step)", a.Total(), a.Len())
	}
}

// TestArrangementBytesHonest compares an arrangement's accounted bytes with
// the heap growth the Go runtime measures while it fills.
func TestArrangementBytesHonest(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates")
	}
	for _, scattered := range []bool{false, true} {
		t.Run(fmt.Sprintf("scattered=%v", scattered), func(t *testing.T) {
			const n = 200_000
			before := heapInUse()
			a := dataflow.NewArrangement(dataflow.ArrangementSpec{Key: []expr.Expr{col{i: 1}}})
			c := dataflow.NewCircuit()
			c.Add(NewArrange(a), c.Input("t"))
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
						value.NewInt(value.Int8, k%1000),
						value.NewText(value.Text, "customer "+strconv.Itoa(j)),
					}, W: 1})
				}
				if err := c.Step(map[string]zset.ZSet{"t": buf}); err != nil {
					t.Fatal(err)
				}
			}
			buf = nil
			got := heapInUse() - before
			acc := a.State().Bytes
			ratio := float64(acc) / float64(got)
			t.Logf("%d rows: accounted %d bytes (%.1f/row), heap grew %d bytes (%.1f/row), ratio %.2f",
				n, acc, float64(acc)/n, got, float64(got)/n, ratio)
			if ratio < 0.8 || ratio > 1.25 {
				t.Fatalf("accounted bytes off by more than 20%%: ratio %.2f", ratio)
			}
			if a.Len() != n {
				t.Fatal("lost rows")
			}
		})
	}
}
