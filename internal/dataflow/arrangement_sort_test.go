package dataflow

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestCommitBig checks that steps of hundreds of changes (sorted by
// sortStaged before they are applied) leave an arrangement holding what
// their sum holds, key by key and in order, for an integer key with NULLs,
// a text key, and no key; every row's weight and the totals too.
func TestCommitBig(t *testing.T) {
	keys := map[string]func(rng *rand.Rand) value.Value{
		"int": func(rng *rand.Rand) value.Value {
			if rng.IntN(20) == 0 {
				return value.Null
			}
			return value.NewInt(value.Int8, rng.Int64N(40)-20)
		},
		"text": func(rng *rand.Rand) value.Value {
			return value.NewText(value.Text, fmt.Sprintf("key-%02d", rng.IntN(40)))
		},
		"none": nil,
	}
	for name, kv := range keys {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			spec := ArrangementSpec{Sort: []SortKey{{Expr: &expr.Col{Idx: 1, T: value.Int8Type}, Desc: true, NullsFirst: true}}}
			if kv != nil {
				typ := value.Int8Type
				if name == "text" {
					typ = value.TextType
				}
				spec.Key = []expr.Expr{&expr.Col{Idx: 0, T: typ}}
			}
			a := NewArrangement(spec)
			a.Claim()
			held := map[string]zset.Entry{}
			var pool []value.Row
			for step := range 30 {
				var delta zset.ZSet
				for range 50 + rng.IntN(400) {
					if len(pool) > 0 && rng.IntN(3) == 0 {
						delta = append(delta, zset.Entry{Row: pool[rng.IntN(len(pool))], W: -1})
						continue
					}
					k := value.Null
					if kv != nil {
						k = kv(rng)
					}
					v := value.NewInt(value.Int8, rng.Int64N(30))
					if rng.IntN(15) == 0 {
						v = value.Null
					}
					r := value.Row{k, v, value.NewInt(value.Int8, rng.Int64N(5))}
					pool = append(pool, r)
					delta = append(delta, zset.Entry{Row: r, W: 1 + rng.Int64N(2)})
				}
				delta = zset.Consolidate(delta)
				if err := a.Stage(delta); err != nil {
					t.Fatal(err)
				}
				a.Commit()
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
				var total int64
				for _, e := range held {
					total += e.W
					if got := a.Weight(e.Row); got != e.W {
						t.Fatalf("step %d: %s has weight %d, want %d", step, zset.FormatRow(e.Row), got, e.W)
					}
				}
				if a.Len() != len(held) || a.Total() != total {
					t.Fatalf("step %d: %d rows of total weight %d, want %d and %d", step, a.Len(), a.Total(), len(held), total)
				}
				var prev value.Row
				a.Scan(nil, false, func(r value.Row, _ int64) bool {
					if prev != nil && value.Compare(prev[0], r[0]) == 0 && a.cmp(&arrEntry{k0: mustK0(t, a, prev), r: refOf(prev)}, &arrEntry{k0: mustK0(t, a, r), r: refOf(r)}) >= 0 {
						t.Fatalf("step %d: %v before %v", step, prev, r)
					}
					prev = r
					return true
				})
			}
		})
	}
}

func mustK0(t *testing.T, a *Arrangement, r value.Row) uint64 {
	k, err := a.k0(r)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestCommitBigRunsExact checks that a big step leaves each small run it
// creates with room for its entries and no more: a cold start's runs would
// otherwise keep the slack of a slice grown by doubling.
func TestCommitBigRunsExact(t *testing.T) {
	for _, typ := range []value.Type{value.Int8Type, value.TextType} {
		spec := ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 0, T: typ}}}
		a := NewArrangement(spec)
		a.Claim()
		var delta zset.ZSet
		for i := range 1000 {
			k := value.NewInt(value.Int8, int64(i%200))
			if typ == value.TextType {
				k = value.NewText(value.Text, fmt.Sprint(i%200))
			}
			delta = append(delta, zset.Entry{Row: value.Row{k, value.NewInt(value.Int8, int64(i))}, W: 1})
		}
		if err := a.Stage(delta); err != nil {
			t.Fatal(err)
		}
		a.Commit()
		var runs []*run
		for _, r := range a.runs {
			runs = append(runs, r)
		}
		if a.ints != nil {
			a.ints.All(func(_ int64, r *run) bool { runs = append(runs, r); return true })
		}
		if len(runs) != 200 {
			t.Fatalf("%s: %d runs, want 200", typ.Kind, len(runs))
		}
		for _, r := range runs {
			if len(r.small) != 5 || cap(r.small) != 5 {
				t.Fatalf("%s: a run of %d entries has room for %d", typ.Kind, len(r.small), cap(r.small))
			}
		}
	}
}
