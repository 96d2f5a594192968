package op

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestGroupByBigBatches feeds a grouping batches of hundreds of changes,
// whose records are sorted by radix on an integer key and their values
// gathered in that order (sortRecs), with column references read without
// a call (evalBatch), and its twin the same changes one at a time; the
// groups must end alike. Keys are negative, zero and positive, differ in
// one byte or in several; some batches hold a NULL key, or a key of
// another integer kind, which the radix sort leaves to the comparison
// sort. With held set, the build is a cold start's (DeferLoads until
// Trim), whose value sets are sorted once.
func TestGroupByBigBatches(t *testing.T) {
	keys := []int64{-70000, -256, -1, 0, 1, 255, 256, 300, 65536, 1 << 40, math.MinInt64, math.MaxInt64}
	for _, held := range []bool{false, true} {
		col := func(i int) expr.Expr { return &expr.Col{Idx: i, T: value.Int8Type} }
		aggs := func(v expr.Expr) []Aggregate {
			return []Aggregate{{Func: plan.AggCountStar}, {Func: plan.AggSum, Arg: v},
				{Func: plan.AggMin, Arg: v}, {Func: plan.AggMax, Arg: v}}
		}
		// The key second: a consolidated batch is in the order of its
		// rows, which must not be the keys' order.
		big, err := NewGroupBy([]expr.Expr{col(1)}, aggs(col(0)))
		if err != nil {
			t.Fatal(err)
		}
		twin, err := NewGroupBy([]expr.Expr{tcol{i: 1, t: value.Int8Type}}, aggs(tcol{i: 0, t: value.Int8Type}))
		if err != nil {
			t.Fatal(err)
		}
		cb, ct := dataflow.NewCircuit(), dataflow.NewCircuit()
		cb.Add(big, cb.Input("t"))
		ct.Add(twin, ct.Input("t"))
		if held {
			cb.DeferLoads()
		}
		rng := rand.New(rand.NewPCG(11, 13))
		var live []value.Row
		for s := range 40 {
			var batch zset.ZSet
			for range 200 + rng.IntN(400) {
				if len(live) > 0 && rng.IntN(4) == 0 {
					i := rng.IntN(len(live))
					batch = append(batch, e(live[i], -1))
					live[i] = live[len(live)-1]
					live = live[:len(live)-1]
					continue
				}
				r := ints(rng.Int64N(2_000_001)-1_000_000, keys[rng.IntN(len(keys))])
				switch {
				case s%7 == 3 && rng.IntN(50) == 0:
					r[1] = value.Null
				case s%5 == 2 && rng.IntN(50) == 0:
					r[1] = value.NewInt(value.Int4, int64(int32(r[1].Int())))
				case rng.IntN(20) == 0:
					r[0] = value.Null
				}
				live = append(live, r)
				batch = append(batch, e(r, 1))
			}
			batch = zset.Consolidate(batch)
			step(t, cb, "t", batch)
			for _, x := range batch {
				step(t, ct, "t", zset.ZSet{x})
			}
		}
		if held {
			cb.Trim()
		}
		if got, want := big.String(), twin.String(); got != want {
			t.Fatalf("held=%v: groups\n%s\nwant\n%s", held, got, want)
		}
	}
}

// TestSortLog checks a value set's log sort, by comparison and by radix,
// against the standard library's: negative values, extremes, ties.
func TestSortLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	var scr setScratch
	for _, n := range []int{0, 1, 5, 24, 25, 26, 64, 100, radixMin - 1, radixMin, radixMin + 1, 1000, 5000} {
		for _, span := range []int64{1, 10, 1 << 20, math.MaxInt64} {
			log := make([]valCount, n)
			for i := range log {
				log[i] = valCount{k: rng.Int64N(span) - span/2, n: int64(i)}
				if rng.IntN(100) == 0 {
					log[i].k = [...]int64{math.MinInt64, math.MaxInt64, 0}[rng.IntN(3)]
				}
			}
			switch rng.IntN(4) { // runs in order, or against it
			case 0:
				slices.SortFunc(log, func(a, b valCount) int { return cmp.Compare(a.k, b.k) })
			case 1:
				slices.SortFunc(log, func(a, b valCount) int { return cmp.Compare(b.k, a.k) })
			}
			want := slices.Clone(log)
			slices.SortStableFunc(want, func(a, b valCount) int { return cmp.Compare(a.k, b.k) })
			sortLog(log, &scr)
			for i := range log {
				if log[i].k != want[i].k {
					t.Fatalf("n=%d span=%d: entry %d is %d, want %d", n, span, i, log[i].k, want[i].k)
				}
			}
		}
	}
}
