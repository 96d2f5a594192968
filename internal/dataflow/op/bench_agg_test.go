package op

import (
	"fmt"
	"github.com/cockroachdb/apd/v3"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

var benchSizes = []int{10_000, 100_000, 1_000_000}

func benchRow(k, v int64) value.Row {
	return value.Row{value.NewInt(value.Int8, k), value.NewInt(value.Int8, v)}
}

// BenchmarkGroupByStep measures single-row changes to a GroupBy computing
// count(*), sum, min and max over N rows in 1,000 groups (loaded in one
// batch): each op retracts the current maximum of a group, or asserts it
// back, alternately. The cost per op should not grow with N.
func BenchmarkGroupByStep(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if n > 100_000 && testing.Short() {
				b.Skip("large N skipped under -short")
			}
			const groups = 1000
			k, v := tcol{i: 0, t: value.Int8Type}, tcol{i: 1, t: value.Int8Type}
			keys := []expr.Expr{k}
			g, err := NewGroupBy(keys, []Aggregate{
				{Func: plan.AggCountStar}, {Func: plan.AggSum, Arg: v},
				{Func: plan.AggMin, Arg: v},
				{Func: plan.AggMax, Arg: v},
			})
			if err != nil {
				b.Fatal(err)
			}
			c := dataflow.NewCircuit()
			c.Add(g, c.Input("t"))
			load := make(zset.ZSet, n)
			for i := range n {
				load[i] = zset.Entry{Row: benchRow(int64(i%groups), int64(i)), W: 1}
			}
			deltas := map[string]zset.ZSet{"t": zset.Consolidate(load)}
			if err := c.Step(deltas); err != nil {
				b.Fatal(err)
			}
			load = nil
			// The maximum of group j is the largest i < n with i ≡ j.
			maxRow := make([]value.Row, groups)
			for j := range groups {
				maxRow[j] = benchRow(int64(j), int64(n-groups+j))
			}
			buf := make(zset.ZSet, 1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				j := (i / 2) * 7 % groups
				w := int64(-1)
				if i%2 == 1 {
					w = 1
				}
				buf[0] = zset.Entry{Row: maxRow[j], W: w}
				deltas["t"] = buf
				if err := c.Step(deltas); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(g.Refills())/float64(b.N), "refills/op")
		})
	}
}

// BenchmarkTopKStep measures single-row changes to ORDER BY v DESC LIMIT
// 50 over N rows (loaded in one batch): each op retracts the first row of
// the window, or asserts it back, alternately.
func BenchmarkTopKStep(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if n > 100_000 && testing.Short() {
				b.Skip("large N skipped under -short")
			}
			v := tcol{i: 1, t: value.Int8Type}
			order := []dataflow.SortKey{{Expr: v, Desc: true, NullsFirst: false}}
			idx := dataflow.NewArrangement(dataflow.ArrangementSpec{Sort: order})
			tk, err := NewTopK(TopKSpec{Order: order, Limit: 50, Index: idx, OwnIndex: true})
			if err != nil {
				b.Fatal(err)
			}
			c := dataflow.NewCircuit()
			c.Add(tk, c.Input("t"))
			load := make(zset.ZSet, n)
			for i := range n {
				load[i] = zset.Entry{Row: benchRow(int64(i), int64(i)), W: 1}
			}
			deltas := map[string]zset.ZSet{"t": zset.Consolidate(load)}
			if err := c.Step(deltas); err != nil {
				b.Fatal(err)
			}
			load = nil
			top := benchRow(int64(n-1), int64(n-1))
			buf := make(zset.ZSet, 1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				w := int64(-1)
				if i%2 == 1 {
					w = 1
				}
				buf[0] = zset.Entry{Row: top, W: w}
				deltas["t"] = buf
				if err := c.Step(deltas); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(tk.Refills())/float64(b.N), "refills/op")
		})
	}
}

// BenchmarkGroupBySumNumeric measures single-row changes to a GroupBy
// computing sum and avg of a numeric(15,2) over 100,000 rows in 1,000
// groups: each op retracts a row, or asserts it back, alternately.
func BenchmarkGroupBySumNumeric(b *testing.B) {
	benchGroupByNumeric(b, func(v expr.Expr) []Aggregate {
		return []Aggregate{{Func: plan.AggSum, Arg: v}, {Func: plan.AggAvg, Arg: v}}
	})
}

// BenchmarkGroupByDistinctNumeric measures single-row changes to
// sum(DISTINCT v) and count(DISTINCT v) over numerics written one way, in
// 1,000 groups of 100 rows: the counts per representation that equal
// numerics printed differently need cost nothing here.
func BenchmarkGroupByDistinctNumeric(b *testing.B) {
	benchGroupByNumeric(b, func(v expr.Expr) []Aggregate {
		return []Aggregate{{Func: plan.AggSum, Arg: v, Distinct: true}, {Func: plan.AggCount, Arg: v, Distinct: true}}
	})
}

// benchGroupByNumeric steps a GroupBy of aggs over a numeric(15,2) column
// v, keyed by k, over 100,000 rows in 1,000 groups: each op retracts a
// row, or asserts it back, alternately.
func benchGroupByNumeric(b *testing.B, aggs func(v expr.Expr) []Aggregate) {
	const n, groups = 100_000, 1000
	k, v := tcol{i: 0, t: value.Int8Type}, tcol{i: 1, t: value.NumericType}
	g, err := NewGroupBy([]expr.Expr{k}, aggs(v))
	if err != nil {
		b.Fatal(err)
	}
	c := dataflow.NewCircuit()
	c.Add(g, c.Input("t"))
	row := func(i int) value.Row {
		return value.Row{value.NewInt(value.Int8, int64(i%groups)), value.NewNumeric(apd.New(int64(i*37%100000), -2))}
	}
	load := make(zset.ZSet, n)
	for i := range n {
		load[i] = zset.Entry{Row: row(i), W: 1}
	}
	deltas := map[string]zset.ZSet{"t": zset.Consolidate(load)}
	if err := c.Step(deltas); err != nil {
		b.Fatal(err)
	}
	buf := make(zset.ZSet, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := int64(-1)
		if i%2 == 1 {
			w = 1
		}
		buf[0] = zset.Entry{Row: row(i / 2 * 7 % n), W: w}
		deltas["t"] = buf
		if err := c.Step(deltas); err != nil {
			b.Fatal(err)
		}
	}
}
