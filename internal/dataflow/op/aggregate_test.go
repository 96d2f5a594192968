package op

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"pgregory.net/rapid"
)

// tcol is the column #i with a declared type.
type tcol struct {
	expr.Expr
	i int
	t value.Type
}

func (e tcol) Type() value.Type                      { return e.t }
func (e tcol) Eval(r value.Row) (value.Value, error) { return r[e.i], nil }
func (e tcol) String() string                        { return fmt.Sprintf("#%d", e.i) }
func (e tcol) Volatile() bool                        { return false }

// aggRow is a row of the aggregates' test input: (k, v, s, n, f): a group
// key, a nullable bigint, a text, a nullable numeric and a nullable double.
func aggRow(k int64, v int64, s string, n string, f float64) value.Row {
	r := value.Row{value.NewInt(value.Int8, k), value.Null, value.NewText(value.Text, s), value.Null, value.Null}
	if v >= 0 {
		r[1] = value.NewInt(value.Int8, v)
	}
	if n != "" {
		d, _, err := apd.NewFromString(n)
		if err != nil {
			panic(err)
		}
		r[3] = value.NewNumeric(d)
	}
	if !math.IsNaN(f) {
		r[4] = value.NewFloat(value.Float8, f)
	}
	return r
}

var (
	kCol = tcol{i: 0, t: value.Int8Type}
	vCol = tcol{i: 1, t: value.Int8Type}
	sCol = tcol{i: 2, t: value.TextType}
	nCol = tcol{i: 3, t: value.NumericType}
	fCol = tcol{i: 4, t: value.Float8Type}
)

// testAggs builds one of every aggregate over the test rows, with indexes
// keyed like keys for MIN and MAX of text (those of integers keep their
// groups' values).
func testAggs(keys []expr.Expr) []Aggregate {
	idx := func(arg expr.Expr) *dataflow.Arrangement {
		return dataflow.NewArrangement(dataflow.ArrangementSpec{Key: keys, Sort: []dataflow.SortKey{{Expr: arg}}})
	}
	return []Aggregate{
		{Func: plan.AggCountStar},
		{Func: plan.AggCount, Arg: vCol},
		{Func: plan.AggSum, Arg: vCol},
		{Func: plan.AggAvg, Arg: vCol},
		{Func: plan.AggVarPop, Arg: vCol},
		{Func: plan.AggStddevSamp, Arg: vCol},
		{Func: plan.AggSum, Arg: nCol},
		{Func: plan.AggAvg, Arg: nCol},
		{Func: plan.AggVarSamp, Arg: nCol},
		{Func: plan.AggStddevPop, Arg: nCol},
		{Func: plan.AggSum, Arg: fCol},
		{Func: plan.AggAvg, Arg: fCol},
		{Func: plan.AggVarSamp, Arg: fCol},
		{Func: plan.AggStddevPop, Arg: fCol},
		{Func: plan.AggMin, Arg: vCol},
		{Func: plan.AggMax, Arg: vCol},
		{Func: plan.AggMax, Arg: sCol, Index: idx(sCol), OwnIndex: true},
		{Func: plan.AggMin, Arg: sCol, Index: idx(sCol), OwnIndex: true},
		{Func: plan.AggMin, Arg: vCol, Filter: gt{col: 1, c: 1}},
		{Func: plan.AggCount, Arg: vCol, Distinct: true},
		{Func: plan.AggSum, Arg: vCol, Distinct: true},
		{Func: plan.AggAvg, Arg: nCol, Distinct: true},
		{Func: plan.AggBoolAnd, Arg: gt{col: 1, c: 2}},
		{Func: plan.AggBoolOr, Arg: gt{col: 1, c: 4}},
		{Func: plan.AggSum, Arg: vCol, Filter: gt{col: 1, c: 1}},
		{Func: plan.AggStringAgg, Arg: sCol, Sep: constText{s: "|"}, OrderBy: []dataflow.SortKey{{Expr: vCol, Desc: true, NullsFirst: true}}},
		{Func: plan.AggArrayAgg, Arg: vCol, OrderBy: []dataflow.SortKey{{Expr: sCol}}},
		{Func: plan.AggArrayAgg, Arg: sCol, Distinct: true},
		{Func: plan.AggCount, Arg: vCol, Filter: failOn{col: 0, bad: 13}},
	}
}

// constText is a text constant.
type constText struct {
	expr.Expr
	s string
}

func (c constText) Type() value.Type                    { return value.TextType }
func (c constText) Eval(value.Row) (value.Value, error) { return value.NewText(value.Text, c.s), nil }
func (c constText) String() string                      { return "'" + c.s + "'" }
func (c constText) Volatile() bool                      { return false }

var _ = expr.Expr(tcol{})

// recompute runs a fresh GroupBy over the whole of input in one step and
// returns its view.
func recompute(t interface{ Fatalf(string, ...any) }, keys []expr.Expr, input zset.ZSet) zset.ZSet {
	g, err := NewGroupBy(keys, testAggs(keys))
	if err != nil {
		t.Fatalf("%v", err)
	}
	view := g.Initial()
	if len(input) > 0 {
		out, err := g.Step([]zset.ZSet{input})
		if err != nil {
			t.Fatalf("recompute: %v", err)
		}
		view = zset.Add(view, out)
		g.Commit()
	}
	return view
}

// checkAggs compares each group's output with independent computations of
// count, sum, min and max over the group's rows.
func checkAggs(t interface{ Fatalf(string, ...any) }, keys []expr.Expr, input zset.ZSet, view zset.ZSet) {
	type naiveGroup struct {
		n, cnt, sum int64
		min, max    int64
		smax        string
	}
	groups := map[int64]*naiveGroup{}
	for _, e := range input {
		k := int64(0)
		if len(keys) > 0 {
			k = e.Row[0].Int()
		}
		g := groups[k]
		if g == nil {
			g = &naiveGroup{min: math.MaxInt64, max: math.MinInt64}
			groups[k] = g
		}
		g.n += e.W
		if s := e.Row[2].Str(); s > g.smax {
			g.smax = s
		}
		if v := e.Row[1]; !v.IsNull() {
			g.cnt += e.W
			g.sum += e.W * v.Int()
			g.min, g.max = min(g.min, v.Int()), max(g.max, v.Int())
		}
	}
	if len(keys) == 0 && len(groups) == 0 {
		groups[0] = &naiveGroup{}
	}
	if len(view) != len(groups) {
		t.Fatalf("%d groups, want %d:\n%s", len(view), len(groups), view)
	}
	nk := len(keys)
	for _, e := range view {
		k := int64(0)
		if nk > 0 {
			k = e.Row[0].Int()
		}
		g := groups[k]
		r := e.Row[nk:]
		if e.W != 1 || g == nil || r[0].Int() != g.n || r[1].Int() != g.cnt {
			t.Fatalf("group %d: %s, want count %d, %d", k, zset.FormatRow(e.Row), g.n, g.cnt)
		}
		if g.cnt == 0 {
			if !r[2].IsNull() || !r[14].IsNull() || !r[15].IsNull() {
				t.Fatalf("group %d: %s, want NULL sum, min, max", k, zset.FormatRow(e.Row))
			}
			continue
		}
		if r[2].Decimal().String() != fmt.Sprint(g.sum) || r[14].Int() != g.min || r[15].Int() != g.max {
			t.Fatalf("group %d: %s, want sum %d, min %d, max %d", k, zset.FormatRow(e.Row), g.sum, g.min, g.max)
		}
		if g.n > 0 && r[16].Str() != g.smax {
			t.Fatalf("group %d: %s, want max(s) %q", k, zset.FormatRow(e.Row), g.smax)
		}
	}
}

// closeViews compares two views, floats within a relative 1e-12.
func closeViews(a, b zset.ZSet) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].W != b[i].W || len(a[i].Row) != len(b[i].Row) {
			return false
		}
		for j, x := range a[i].Row {
			y := b[i].Row[j]
			if x.Kind() == value.Float8 && y.Kind() == value.Float8 {
				fx, fy := x.Float(), y.Float()
				if fx != fy && !(math.IsNaN(fx) && math.IsNaN(fy)) && math.Abs(fx-fy) > 1e-12*math.Max(math.Abs(fx), math.Abs(fy)) {
					return false
				}
				continue
			}
			if !identical(x, y) {
				return false
			}
		}
	}
	return true
}

// TestGroupByTwin steps random batches through a GroupBy with every
// aggregate and checks, after every step, that the delta is the difference
// of consecutive recomputed views, that the integrated output equals a
// fresh recomputation from the integrated input and independent counts,
// sums, minima and maxima, and that failed steps change nothing. Batches
// delete the current extremes, empty groups, move rows between groups and
// update values; it runs with reserves of 1 (refills all the time) and 8,
// grouped and global.
func TestGroupByTwin(t *testing.T) {
	for _, reserve := range []int{1, 8} {
		for _, global := range []bool{false, true} {
			t.Run(fmt.Sprintf("reserve=%d/global=%v", reserve, global), func(t *testing.T) {
				old := DefaultReserve
				DefaultReserve = reserve
				defer func() { DefaultReserve = old }()
				var refills int64
				rapid.Check(t, func(rt *rapid.T) { refills += groupByTwin(rt, global) })
				if reserve == 1 && refills == 0 {
					t.Fatal("no refills with a reserve of 1")
				}
				t.Logf("%d refills", refills)
			})
		}
	}
}

var (
	twinTexts    = []string{"a", "b c", "", "NULL", "x\"y"}
	twinNumerics = []string{"", "1", "1.5", "2.25", "0.10", "-3"}
	twinFloats   = []float64{math.NaN(), 0.375, 2.5, -3, 1e10} // the twin sums in float64: keep its sums exact
)

func groupByTwin(rt *rapid.T, global bool) int64 {
	var keys []expr.Expr
	if !global {
		keys = []expr.Expr{kCol}
	}
	g, err := NewGroupBy(keys, testAggs(keys))
	if err != nil {
		rt.Fatalf("%v", err)
	}
	c := dataflow.NewCircuit()
	node := c.Add(g, c.Input("t"))
	view := g.Initial()
	var input zset.ZSet // integrated, weights > 0
	drawRow := func(label string) value.Row {
		return aggRow(rapid.Int64Range(0, 3).Draw(rt, label+".k"), rapid.Int64Range(-1, 6).Draw(rt, label+".v"),
			rapid.SampledFrom(twinTexts).Draw(rt, label+".s"), rapid.SampledFrom(twinNumerics).Draw(rt, label+".n"),
			rapid.SampledFrom(twinFloats).Draw(rt, label+".f"))
	}
	steps := rapid.IntRange(1, 25).Draw(rt, "steps")
	for s := 0; s < steps; s++ {
		var batch zset.ZSet
		pick := func() (value.Row, bool) {
			if len(input) == 0 {
				return nil, false
			}
			return input[rapid.IntRange(0, len(input)-1).Draw(rt, "pick")].Row, true
		}
		switch kind := rapid.IntRange(0, 6).Draw(rt, "kind"); kind {
		case 0: // inserts
			for i, n := 0, rapid.IntRange(1, 5).Draw(rt, "n"); i < n; i++ {
				batch = append(batch, zset.Entry{Row: drawRow("ins"), W: rapid.Int64Range(1, 2).Draw(rt, "w")})
			}
		case 1: // delete the current maximum (and minimum) of v in a group
			k := rapid.Int64Range(0, 3).Draw(rt, "k")
			var hi, lo *zset.Entry
			for i := range input {
				e := &input[i]
				if (global || e.Row[0].Int() == k) && !e.Row[1].IsNull() {
					if hi == nil || e.Row[1].Int() > hi.Row[1].Int() {
						hi = e
					}
					if lo == nil || e.Row[1].Int() < lo.Row[1].Int() {
						lo = e
					}
				}
			}
			if hi != nil {
				batch = append(batch, zset.Entry{Row: hi.Row, W: -hi.W})
				if lo != hi && rapid.Bool().Draw(rt, "lo") {
					batch = append(batch, zset.Entry{Row: lo.Row, W: -1})
				}
			}
		case 2: // empty a group, maybe refill it
			k := rapid.Int64Range(0, 3).Draw(rt, "k")
			for _, e := range input {
				if e.Row[0].Int() == k {
					batch = append(batch, zset.Entry{Row: e.Row, W: -e.W})
				}
			}
			if rapid.Bool().Draw(rt, "refill") {
				batch = append(batch, zset.Entry{Row: drawRow("refill"), W: 1})
			}
		case 3: // move rows between groups, or update a value
			for i, n := 0, rapid.IntRange(1, 3).Draw(rt, "n"); i < n; i++ {
				r, ok := pick()
				if !ok {
					break
				}
				nr := slices.Clone(r)
				if rapid.Bool().Draw(rt, "move") {
					nr[0] = value.NewInt(value.Int8, rapid.Int64Range(0, 3).Draw(rt, "to"))
				} else {
					nr[1] = value.NewInt(value.Int8, rapid.Int64Range(0, 9).Draw(rt, "v"))
				}
				batch = append(batch, zset.Entry{Row: r, W: -1}, zset.Entry{Row: nr, W: 1})
			}
		case 4: // a change that cancels
			r := drawRow("cancel")
			batch = append(batch, zset.Entry{Row: r, W: 1}, zset.Entry{Row: r, W: -1})
			if o, ok := pick(); ok {
				batch = append(batch, zset.Entry{Row: o, W: -1}, zset.Entry{Row: o, W: 1})
			}
		case 5: // random deletes
			for i, n := 0, rapid.IntRange(1, 4).Draw(rt, "n"); i < n; i++ {
				if r, ok := pick(); ok {
					batch = append(batch, zset.Entry{Row: r, W: -1})
				}
			}
		case 6: // enough inserts to be sorted by prefix
			for range 2 * prefixSortMin {
				batch = append(batch, zset.Entry{Row: drawRow("bulk"), W: 1})
			}
		}
		batch = zset.Consolidate(batch)
		// Don't retract more than is there.
		next := zset.Add(input, batch)
		for _, e := range next {
			if e.W < 0 {
				batch = zset.Add(batch, zset.ZSet{{Row: e.Row, W: -e.W}})
			}
		}
		bad := rapid.IntRange(0, 7).Draw(rt, "bad")
		switch bad {
		case 0: // more retractions than a group holds
			var total int64
			for _, e := range zset.Add(input, batch) {
				total += e.W
			}
			batch = zset.Add(batch, zset.ZSet{{Row: aggRow(99, 1, "a", "", 1), W: -total - 1}})
		case 1: // an expression that fails
			batch = zset.Add(batch, zset.ZSet{{Row: aggRow(13, 1, "a", "", 1), W: 1}})
		}
		before := g.String()
		beforeState := g.State()
		err := c.Step(map[string]zset.ZSet{"t": batch})
		if bad <= 1 {
			if err == nil {
				rt.Fatalf("step %d: a bad step succeeded", s)
			}
			if pgerr.Code(err) != pgerr.Internal && pgerr.Code(err) != pgerr.DivisionByZero {
				rt.Fatalf("step %d: %v", s, err)
			}
			if after := g.String(); after != before || g.State() != beforeState {
				rt.Fatalf("step %d: a failed step changed the state:\n%s\nwas\n%s", s, after, before)
			}
			continue
		}
		if err != nil {
			rt.Fatalf("step %d: %v", s, err)
		}
		input = zset.Add(input, batch)
		delta := c.Output(node)
		if !zset.IsConsolidated(delta) {
			rt.Fatalf("step %d: delta not consolidated:\n%s", s, delta)
		}
		view = zset.Add(view, delta)
		want := recompute(rt, keys, input)
		if !closeViews(view, want) {
			rt.Fatalf("step %d: batch\n%sview\n%swant\n%s", s, batch, view, want)
		}
		checkAggs(rt, keys, input, view)
		if len(batch) > 0 && zset.Equal(zset.Add(input, batch.Negate()), input) {
			rt.Fatalf("unreachable")
		}
	}
	return g.Refills()
}

// TestGroupByCancellation checks that steps whose changes cancel, inside
// a group or across groups, emit nothing.
func TestGroupByCancellation(t *testing.T) {
	keys := []expr.Expr{kCol}
	g, err := NewGroupBy(keys, testAggs(keys))
	if err != nil {
		t.Fatal(err)
	}
	c := dataflow.NewCircuit()
	n := c.Add(g, c.Input("t"))
	step(t, c, "t", zset.Consolidate(zset.ZSet{
		e(aggRow(1, 5, "a", "1.5", 2), 1), e(aggRow(1, 7, "b", "2", 3), 1), e(aggRow(2, 1, "c", "", 1), 1)}))
	before := g.String()
	for _, b := range []zset.ZSet{
		{e(aggRow(1, 9, "z", "7.125", 4), 1), e(aggRow(1, 9, "z", "7.125", 4), -1)},
		// Two rows of the group swap their doubles: every aggregate is the
		// same.
		{e(aggRow(1, 5, "a", "1.5", 2), -1), e(aggRow(1, 7, "b", "2", 3), -1),
			e(aggRow(1, 5, "a", "1.5", 3), 1), e(aggRow(1, 7, "b", "2", 2), 1)},
		// The maximum is deleted and asserted again.
		{e(aggRow(1, 7, "b", "2", 3), -1), e(aggRow(1, 7, "b", "2", 3), 1)},
	} {
		step(t, c, "t", zset.Consolidate(b))
		if out := c.Output(n); len(out) > 0 {
			t.Fatalf("a cancelling step emitted\n%s", out)
		}
	}
	if s := c.Stats(n); s.Steps != 2 {
		t.Fatalf("stepped %d times", s.Steps)
	}
	_ = before
}

// TestMinMaxStateBounded checks that MIN and MAX refilling from an
// arrangement keep at most k values per group however many rows the groups
// hold.
func TestMinMaxStateBounded(t *testing.T) {
	keys := []expr.Expr{kCol}
	idx := dataflow.NewArrangement(dataflow.ArrangementSpec{Key: keys, Sort: []dataflow.SortKey{{Expr: sCol}}})
	g, err := NewGroupBy(keys, []Aggregate{
		{Func: plan.AggMin, Arg: sCol, Index: idx, OwnIndex: true, Reserve: 4},
		{Func: plan.AggMax, Arg: sCol, Index: idx, Reserve: 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := dataflow.NewCircuit()
	c.Add(g, c.Input("t"))
	const groups = 10
	var sizes []int64
	for round := 0; round < 5; round++ {
		var b zset.ZSet
		for i := 0; i < 2000; i++ {
			b = append(b, e(aggRow(int64(i%groups), 0, fmt.Sprintf("%05d", round*2000+i), "", 0), 1))
		}
		step(t, c, "t", zset.Consolidate(b))
		sizes = append(sizes, g.State().Bytes)
	}
	for _, s := range sizes[1:] {
		if s != sizes[0] {
			t.Fatalf("state grew with the input: %v", sizes)
		}
	}
	if per := sizes[0] / groups; per > 1200 {
		t.Fatalf("%d bytes per group", per)
	}
	if idx.State().Rows != 10000 {
		t.Fatalf("index holds %d rows", idx.State().Rows)
	}
	wantZ(t, "min/max", zset.ZSet{}, "")
	if s := g.String(); !strings.HasPrefix(s, "(0, '00000', '09990') rows=1000\n") {
		t.Fatalf("groups:\n%s", s)
	}
}

// TestMinMaxValueSets moves integer values in and out of two groups big
// enough for their value sets to become trees and shrink back to arrays,
// with reserves of 1 and 8, and checks each group's MIN, MAX and count
// against the multiset after every step; and the same with the first
// three quarters of the steps a cold start's (DeferLoads: the sets' logs
// held, and read by refills, then merged at Trim).
func TestMinMaxValueSets(t *testing.T) {
	const vals, grow, steps = 20000, 2400, 7000
	trees := func(g *GroupBy) (n int) {
		g.ints.All(func(_ int64, gr *group) bool {
			if g.sets(gr)[0].tr != nil {
				n++
			}
			return true
		})
		for _, gr := range g.groups {
			if g.sets(gr)[0].tr != nil {
				n++
			}
		}
		return n
	}
	for _, tc := range []struct {
		reserve int
		held    bool
	}{{1, false}, {8, false}, {1, true}, {8, true}} {
		reserve := tc.reserve
		t.Run(fmt.Sprint("reserve=", reserve, "/held=", tc.held), func(t *testing.T) {
			keys := []expr.Expr{kCol}
			g, err := NewGroupBy(keys, []Aggregate{
				{Func: plan.AggMin, Arg: vCol, Reserve: reserve},
				{Func: plan.AggMax, Arg: vCol, Reserve: reserve},
				{Func: plan.AggCountStar},
			})
			if err != nil {
				t.Fatal(err)
			}
			c := dataflow.NewCircuit()
			c.Add(g, c.Input("t"))
			if tc.held {
				c.DeferLoads()
			}
			rng := rand.New(rand.NewPCG(7, uint64(reserve)))
			held := [2]map[int64]int64{{}, {}}
			for s := 0; s < steps; s++ {
				if tc.held && s == steps*3/4 {
					refills := g.Refills()
					c.Trim()
					for _, gr := range g.groups {
						if l := len(g.sets(gr)[0].log); l > 0 {
							t.Fatalf("a log of %d changes after Trim", l)
						}
					}
					g.ints.All(func(_ int64, gr *group) bool {
						if l := len(g.sets(gr)[0].log); l > 0 {
							t.Fatalf("a log of %d changes after Trim", l)
						}
						return true
					})
					if refills == 0 {
						t.Fatal("no refills while the logs were held")
					}
				}
				var b zset.ZSet
				for range rng.IntN(8) + 1 {
					// Grow, then drain: the sets pass maxFlat both ways.
					k, v := rng.Int64N(2), rng.Int64N(vals)
					if s < grow || rng.IntN(6) == 0 || len(held[k]) == 0 {
						held[k][v]++
						b = append(b, e(aggRow(k, v, "", "", 0), 1))
						continue
					}
					for held[k][v] == 0 {
						v = (v + 1) % vals
					}
					if held[k][v]--; held[k][v] == 0 {
						delete(held[k], v)
					}
					b = append(b, e(aggRow(k, v, "", "", 0), -1))
				}
				step(t, c, "t", zset.Consolidate(b))
				if s == grow-1 && !tc.held && trees(g) == 0 {
					t.Fatalf("groups of %d and %d values, no tree", len(held[0]), len(held[1]))
				}
				var want strings.Builder
				for k, m := range held {
					if len(m) == 0 {
						continue
					}
					lo, hi, n := int64(math.MaxInt64), int64(math.MinInt64), int64(0)
					for v, c := range m {
						lo, hi, n = min(lo, v), max(hi, v), n+c
					}
					fmt.Fprintf(&want, "(%d, %d, %d, %d) rows=%d\n", k, lo, hi, n, n)
				}
				if got := g.String(); got != want.String() {
					t.Fatalf("step %d:\n%swant\n%s", s, got, want.String())
				}
			}
			if g.Refills() == 0 {
				t.Fatal("no refills")
			}
			if n := trees(g); n > 0 {
				t.Fatalf("%d trees left in groups of %d and %d values", n, len(held[0]), len(held[1]))
			}
		})
	}
}

// TestGroupByScratchZeroPastLength checks what lets a step clear its
// scratch only up to the length it used: after steps of every size, with
// DISTINCT aggregates and MIN/MAX reserves shrinking and growing, each
// scratch buffer holds only zeros past its length, so that nothing it held
// stays reachable.
func TestGroupByScratchZeroPastLength(t *testing.T) {
	keys := []expr.Expr{kCol}
	g, err := NewGroupBy(keys, testAggs(keys))
	if err != nil {
		t.Fatal(err)
	}
	c := dataflow.NewCircuit()
	c.Add(g, c.Input("t"))
	rng := rand.New(rand.NewPCG(3, 4))
	live := map[int64]value.Row{}
	next := int64(0)
	for round, size := range []int{3000, 1, 2, 700, 1, 40, 2000, 3, 1} {
		var b zset.ZSet
		for range size {
			if len(live) > 0 && rng.IntN(3) == 0 {
				for id, r := range live {
					b = append(b, e(r, -1))
					delete(live, id)
					break
				}
				continue
			}
			next++
			// Few groups, so that one group's changes are many.
			r := aggRow(rng.Int64N(4), rng.Int64N(50), fmt.Sprintf("s%d", next), "", float64(next%7))
			live[next] = r
			b = append(b, e(r, 1))
		}
		step(t, c, "t", zset.Consolidate(b))
		zeroPast(t, round, "chs", g.chs)
		zeroPast(t, round, "staged", g.staged)
		zeroPast(t, round, "arena", g.arena)
		zeroPast(t, round, "res", g.ctx.res)
		zeroPast(t, round, "pend", g.ctx.pend)
		zeroPast(t, round, "inner", g.ctx.inner)
	}
}

func zeroPast[T any](t *testing.T, round int, name string, s []T) {
	t.Helper()
	var zero T
	for i, x := range s[len(s):cap(s)] {
		if !reflect.DeepEqual(x, zero) {
			t.Fatalf("step %d: %s[%d] past its length %d is not zero", round, name, len(s)+i, len(s))
		}
	}
}

// TestGroupByIntKeyAndNull groups by one integer column holding NULL, 0
// and other integers: the integers find their groups by value, NULL by its
// encoding, and neither is taken for the other; groups leave both maps.
func TestGroupByIntKeyAndNull(t *testing.T) {
	g, err := NewGroupBy([]expr.Expr{kCol}, []Aggregate{{Func: plan.AggCountStar}, {Func: plan.AggSum, Arg: vCol}})
	if err != nil {
		t.Fatal(err)
	}
	c := dataflow.NewCircuit()
	out := c.Add(g, c.Input("t"))
	null := value.Row{value.Null, value.NewInt(value.Int8, 5)}
	step(t, c, "t", zset.ZSet{e(null, 1), e(ints(0, 2), 1), e(ints(1, 3), 1), e(ints(0, 4), 1)})
	wantZ(t, "insert", c.Output(out), "+1 (0, 2, 6)\n+1 (1, 1, 3)\n+1 (NULL, 1, 5)\n")
	if st := g.State(); st.Rows != 3 {
		t.Fatalf("%d groups, want 3", st.Rows)
	}
	step(t, c, "t", zset.ZSet{e(ints(0, 2), -1), e(ints(0, 4), -1), e(null, -1)})
	wantZ(t, "delete", c.Output(out), "-1 (0, 2, 6)\n-1 (NULL, 1, 5)\n")
	step(t, c, "t", zset.ZSet{e(null, 1), e(ints(0, 7), 1)})
	wantZ(t, "again", c.Output(out), "+1 (0, 1, 7)\n+1 (NULL, 1, 5)\n")
	if s := g.String(); s != "(0, 1, 7) rows=1\n(1, 1, 3) rows=1\n(NULL, 1, 5) rows=1\n" {
		t.Fatalf("groups:\n%s", s)
	}
}
