package dataflow

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestPackedPairOrder checks an arrangement that summarises its first two
// sort values in k0 (two int4 columns) against a plain sort, for every
// direction and place of NULLs: values at and beyond the codes' ends
// (NULL, the 32-bit extremes), many rows sharing both sort values, loaded
// whole and then changed by steps small and big, its rows in order, each
// row's weight, and reads from bounds (ScanFrom).
func TestPackedPairOrder(t *testing.T) {
	vals := []value.Value{value.Null,
		value.NewInt(value.Int4, math.MinInt32), value.NewInt(value.Int4, math.MinInt32+1), value.NewInt(value.Int4, math.MinInt32+2),
		value.NewInt(value.Int4, -1), value.NewInt(value.Int4, 0), value.NewInt(value.Int4, 1), value.NewInt(value.Int4, 7),
		value.NewInt(value.Int4, math.MaxInt32-2), value.NewInt(value.Int4, math.MaxInt32-1), value.NewInt(value.Int4, math.MaxInt32)}
	for _, hold := range []bool{false, true} {
		for mode := range 4 {
			name := fmt.Sprintf("desc=%v,nullsfirst=%v,hold=%v", mode&1 == 1, mode&2 == 2, hold)
			t.Run(name, func(t *testing.T) {
				order := []SortKey{
					{Expr: &expr.Col{Idx: 0, T: value.Int4Type}, Desc: mode&1 == 1, NullsFirst: mode&2 == 2},
					{Expr: &expr.Col{Idx: 1, T: value.Int4Type}, Desc: mode&1 == 0, NullsFirst: mode&2 == 0},
				}
				a := NewArrangement(ArrangementSpec{Sort: order})
				if !a.pack {
					t.Fatal("the arrangement does not pack its order")
				}
				a.Claim()
				if hold {
					a.HoldCommits()
				}
				rng := rand.New(rand.NewPCG(3, uint64(mode)))
				newRow := func() value.Row {
					return value.Row{vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))], value.NewInt(value.Int8, rng.Int64N(4))}
				}
				held := map[string]zset.Entry{}
				var pool []value.Row
				add := func(delta zset.ZSet) {
					for _, e := range delta {
						f := zset.FormatRow(e.Row)
						x := held[f]
						x.Row, x.W = e.Row, x.W+e.W
						if x.W == 0 {
							delete(held, f)
						} else {
							held[f] = x
						}
					}
				}
				var load zset.ZSet
				for range 3000 {
					load = append(load, zset.Entry{Row: newRow(), W: 1})
				}
				loaded := zset.Consolidate(load)
				if err := a.Load(loaded); err != nil {
					t.Fatal(err)
				}
				add(loaded)
				for _, e := range loaded {
					pool = append(pool, e.Row)
				}
				cmpRows := func(x, y value.Row) int {
					for i := range order {
						u, _ := order[i].Expr.Eval(x)
						v, _ := order[i].Expr.Eval(y)
						if c := compareSort(&order[i], u, v); c != 0 {
							return c
						}
					}
					return zset.CompareRows(x, y)
				}
				for step := range 40 {
					var delta zset.ZSet
					n := 1 + rng.IntN(5)
					if step%3 == 0 {
						n = 100 + rng.IntN(600)
					}
					for range n {
						if rng.IntN(2) == 0 {
							r := pool[rng.IntN(len(pool))]
							if x, ok := held[zset.FormatRow(r)]; ok && x.W > 0 {
								delta = append(delta, zset.Entry{Row: r, W: -1})
								continue
							}
						}
						r := newRow()
						pool = append(pool, r)
						delta = append(delta, zset.Entry{Row: r, W: 1})
					}
					delta = zset.Consolidate(delta)
					if err := a.Stage(delta); err != nil {
						t.Fatal(err)
					}
					a.Commit()
					add(delta)
					want := make([]zset.Entry, 0, len(held))
					for _, e := range held {
						want = append(want, e)
					}
					slices.SortFunc(want, func(x, y zset.Entry) int { return cmpRows(x.Row, y.Row) })
					var got []zset.Entry
					a.Scan(nil, false, func(r value.Row, w int64) bool {
						got = append(got, zset.Entry{Row: r, W: w})
						return true
					})
					if g, w := zset.ZSet(got).String(), zset.ZSet(want).String(); g != w {
						t.Fatalf("step %d: the arrangement holds, in order,\n%s\nwant\n%s", step, g, w)
					}
					for _, e := range want {
						if w := a.Weight(e.Row); w != e.W {
							t.Fatalf("step %d: weight of %s is %d, want %d", step, zset.FormatRow(e.Row), w, e.W)
						}
					}
					for range 5 {
						from := newRow()[:2]
						var gotFrom []value.Row
						a.ScanFrom(nil, from, func(r value.Row, _ int64) bool {
							gotFrom = append(gotFrom, r)
							return len(gotFrom) < 20
						})
						var wantFrom []value.Row
						for _, e := range want {
							before := false
							for i := range order {
								u, _ := order[i].Expr.Eval(e.Row)
								if c := compareSort(&order[i], u, from[i]); c != 0 {
									before = c < 0
									break
								}
							}
							if !before && len(wantFrom) < 20 {
								wantFrom = append(wantFrom, e.Row)
							}
						}
						if g, w := fmt.Sprint(gotFrom), fmt.Sprint(wantFrom); g != w {
							t.Fatalf("step %d: from %s read %s, want %s", step, zset.FormatRow(from), g, w)
						}
					}
				}
			})
		}
	}
}
