package dataflow

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestDeferLoadsTwin feeds the same batches (repeated rows, weights that
// cancel across batches, NULL keys) to an arrangement that defers its
// loads and to one that stages and commits them, reads the deferred one at
// a random point (between batches, between a Stage and its Commit, after
// an aborted batch, never), then goes on with changes to both, and
// compares them after each read: rows in both orders, lookups, counts and
// bytes.
func TestDeferLoadsTwin(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  []expr.Expr
		drop bool
	}{
		{"int-key", []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}, true},
		{"text-key", []expr.Expr{&expr.Col{Idx: 3, T: value.TextType}}, false},
		{"two-columns", []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}, &expr.Col{Idx: 3, T: value.TextType}}, true},
		{"no-key", nil, false},
	} {
		for seed := range 30 {
			t.Run(fmt.Sprintf("%s/%d", tc.name, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(seed), 29))
				row := func() value.Row {
					k := rng.Int64N(300)
					kv, tv := value.NewInt(value.Int8, k), value.NewText(value.Text, fmt.Sprint("k", k%7))
					if rng.IntN(40) == 0 {
						kv, tv = value.Null, value.Null
					}
					return value.Row{kv, value.NewInt(value.Int8, rng.Int64N(50)), value.NewInt(value.Int8, rng.Int64N(5)), tv}
				}
				spec := ArrangementSpec{Key: tc.key, DropNullKeys: tc.drop}
				deferred, staged := NewArrangement(spec), NewArrangement(spec)
				deferred.Claim()
				staged.Claim()
				deferred.DeferLoads()
				if !deferred.deferLoads {
					t.Fatal("an arrangement on columns does not defer its loads")
				}
				var earlier zset.ZSet
				batches := 1 + rng.IntN(8)
				readAt := rng.IntN(batches + 1) // == batches: read only at the end
				midStep := rng.IntN(2) == 0
				for b := range batches {
					var ch zset.ZSet
					for range []int{3, 100, 5000}[rng.IntN(3)] {
						ch = append(ch, zset.Entry{Row: row(), W: []int64{1, 1, 2, -1}[rng.IntN(4)]})
					}
					for i := 0; i < len(earlier) && i < 50; i += 3 { // cancel some earlier rows
						ch = append(ch, zset.Entry{Row: earlier[i].Row, W: -earlier[i].W})
					}
					ch = zset.Consolidate(ch)
					if rng.IntN(4) == 0 { // a batch staged and aborted
						if err := deferred.Stage(ch); err != nil {
							t.Fatal(err)
						}
						deferred.Abort()
					}
					for _, a := range []*Arrangement{deferred, staged} {
						if err := a.Stage(ch); err != nil {
							t.Fatal(err)
						}
						if a == deferred && b == readAt && midStep {
							_ = a.Len() // read between Stage and Commit
						}
						a.Commit()
					}
					if b == readAt && !midStep {
						compareArrangements(t, deferred, staged)
					}
					earlier = append(earlier, ch...)
				}
				compareArrangements(t, deferred, staged)
				checkBytes(t, deferred)
				if deferred.npending != 0 {
					t.Fatalf("%d rows still pending after reads", deferred.npending)
				}
				for range 3 {
					var ch zset.ZSet
					for range 200 {
						ch = append(ch, zset.Entry{Row: row(), W: 1})
					}
					ch = zset.Consolidate(ch)
					for _, a := range []*Arrangement{deferred, staged} {
						if err := a.Stage(ch); err != nil {
							t.Fatal(err)
						}
						a.Commit()
					}
					compareArrangements(t, deferred, staged)
					checkBytes(t, deferred)
				}
			})
		}
	}
}

// TestDeferLoadsKeepsBatches checks that batches committed to an empty
// deferring arrangement are kept aside until a read, which loads them in
// one build, and that a computed key (whose evaluation may fail) does not
// defer.
func TestDeferLoadsKeepsBatches(t *testing.T) {
	a := NewArrangement(ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}})
	a.Claim()
	a.DeferLoads()
	var n int
	for b := range 3 {
		var ch zset.ZSet
		for i := range 1000 {
			ch = append(ch, zset.Entry{Row: value.Row{value.NewInt(value.Int8, int64(i%100)), value.NewInt(value.Int8, int64(b*1000+i))}, W: 1})
		}
		if err := a.Stage(ch); err != nil {
			t.Fatal(err)
		}
		a.Commit()
		n += len(ch)
		if a.npending != n || a.n != 0 || a.run(value.AppendKey(nil, value.NewInt(value.Int8, 1))) != nil {
			t.Fatalf("batch %d: %d pending, %d held", b, a.npending, a.n)
		}
	}
	if a.Len() != n || a.npending != 0 {
		t.Fatalf("after a read: %d held, %d pending", a.Len(), a.npending)
	}
	a.Trim() // ends the deferral
	empty := NewArrangement(ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}})
	empty.Claim()
	empty.DeferLoads()
	empty.Trim()
	if err := empty.Stage(zset.ZSet{{Row: value.Row{value.NewInt(value.Int8, 1)}, W: 1}}); err != nil {
		t.Fatal(err)
	}
	empty.Commit()
	if empty.npending != 0 || empty.n != 1 {
		t.Fatalf("after Trim: %d pending, %d held", empty.npending, empty.n)
	}
	computed := NewArrangement(ArrangementSpec{Key: []expr.Expr{&expr.Arith{Op: expr.OpAdd,
		L: &expr.Col{Idx: 0, T: value.Int8Type}, R: &expr.Const{V: value.NewInt(value.Int8, 1), T: value.Int8Type}, T: value.Int8Type}}})
	computed.DeferLoads()
	if computed.deferLoads {
		t.Fatal("an arrangement on a computed key defers its loads")
	}
}
