package op

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestGroupByCountsCollapsed feeds a grouping whose aggregates are all
// count(*) batches of hundreds of changes, whose records are collapsed to
// one a group (collapseRecs) when their keys are dense, and its twin the
// same changes one at a time: each step's delta must be the sum of the
// twin's, and the groups must end alike, on one goroutine and split in
// two. Keys are dense around zero, negative, or sparse (no collapse); some
// batches hold a NULL key or a key of another integer kind (no collapse);
// retractions leave groups empty, or move a group's weight to zero within
// a batch. The test also checks which batches collapse.
func TestGroupByCountsCollapsed(t *testing.T) {
	col := func(i int) expr.Expr { return &expr.Col{Idx: i, T: value.Int8Type} }
	aggs := []Aggregate{{Func: plan.AggCountStar}, {Func: plan.AggCountStar}}
	for _, ways := range []int{1, 2} {
		t.Run(fmt.Sprint("ways=", ways), func(t *testing.T) {
			big, err := NewGroupBy([]expr.Expr{col(1)}, aggs)
			if err != nil {
				t.Fatal(err)
			}
			if !big.countsOnly() {
				t.Fatal("count(*) alone is not countsOnly")
			}
			if ways > 1 {
				big.SetSplit(&goSplit{ways: ways})
			}
			twin, err := NewGroupBy([]expr.Expr{col(1)}, aggs)
			if err != nil {
				t.Fatal(err)
			}
			cb, ct := dataflow.NewCircuit(), dataflow.NewCircuit()
			nb, nt := cb.Add(big, cb.Input("t")), ct.Add(twin, ct.Input("t"))
			rng := rand.New(rand.NewPCG(23, 29))
			var live, odd []value.Row
			collapsed := 0
			for s := range 60 {
				var batch zset.ZSet
				lo, span := int64(-40), int64(100)
				if s%6 == 5 {
					lo, span = -1<<40, 1<<41 // sparse: sorted, not collapsed
				}
				for id := range 150 + rng.IntN(300) {
					// Rows of keys that are not dense leave in sparse
					// steps alone, which do not collapse anyway.
					from := &live
					if s%6 == 5 && len(odd) > 0 {
						from = &odd
					}
					if l := *from; len(l) > 0 && rng.IntN(3) == 0 {
						i := rng.IntN(len(l))
						batch = append(batch, e(l[i], -1))
						l[i] = l[len(l)-1]
						*from = l[:len(l)-1]
						continue
					}
					r := ints(int64(s*1000+id), lo+rng.Int64N(span))
					switch {
					case s%7 == 3 && rng.IntN(50) == 0:
						r[1] = value.Null
					case s%5 == 2 && rng.IntN(50) == 0:
						r[1] = value.NewInt(value.Int4, int64(int32(r[1].Int())))
					}
					if s%6 == 5 || r[1].IsNull() || r[1].Kind() != value.Int8 {
						odd = append(odd, r)
					} else {
						live = append(live, r)
					}
					batch = append(batch, e(r, 1))
				}
				batch = zset.Consolidate(batch)
				// Whether this batch's records collapse, seen on a copy.
				probe, _ := NewGroupBy([]expr.Expr{col(1)}, aggs)
				if err := probe.evalBatch(batch, 1); err != nil {
					t.Fatal(err)
				}
				n := len(probe.recs)
				did := probe.collapseRecs()
				// Keys of one kind, no NULL, spanning fewer values than
				// there are records (rows of a sparse step retracted
				// later widen a dense step's span).
				mixed, kmin, kmax := false, int64(1<<62), int64(-1<<62)
				for _, x := range batch {
					mixed = mixed || x.Row[1].IsNull() || x.Row[1].Kind() != value.Int8
					if !x.Row[1].IsNull() {
						kmin, kmax = min(kmin, x.Row[1].Int()), max(kmax, x.Row[1].Int())
					}
				}
				if want := !mixed && kmax-kmin < int64(n); did != want {
					t.Fatalf("step %d: collapsed %v, want %v", s, did, want)
				}
				if did {
					collapsed++
					if len(probe.recs) >= n {
						t.Fatalf("step %d: %d records collapsed to %d", s, n, len(probe.recs))
					}
				}
				if err := cb.Prepare(map[string]zset.ZSet{"t": batch}); err != nil {
					t.Fatal(err)
				}
				got := fmt.Sprint(cb.Output(nb))
				cb.Commit()
				var sum zset.ZSet
				for _, x := range batch {
					if err := ct.Prepare(map[string]zset.ZSet{"t": {x}}); err != nil {
						t.Fatal(err)
					}
					sum = zset.Add(sum, ct.Output(nt))
					ct.Commit()
				}
				if want := fmt.Sprint(zset.Consolidate(sum)); got != want {
					t.Fatalf("step %d: delta\n%s\nwant\n%s", s, got, want)
				}
				if a, b := big.String(), twin.String(); a != b {
					t.Fatalf("step %d: groups\n%s\nwant\n%s", s, a, b)
				}
			}
			if collapsed < 30 {
				t.Fatalf("only %d steps collapsed", collapsed)
			}
			// More retractions than a group holds fail as before.
			bad := zset.ZSet{e(ints(-1, -40), -1000)}
			for i := range 100 {
				bad = append(bad, e(ints(int64(900_000+i), int64(i%50)), 1))
			}
			bad = zset.Consolidate(bad)
			if err := cb.Prepare(map[string]zset.ZSet{"t": bad}); err == nil {
				t.Fatal("a group left with fewer than no rows did not fail")
			}
			cb.Abort()
		})
	}
}
