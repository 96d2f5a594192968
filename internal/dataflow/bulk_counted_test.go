package dataflow

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestLoadCounted loads a table's rows (id, k, v, text) by id, some ids
// empty, into an index on k with LoadRows and into another with Stage and
// Commit, and compares them as TestLoadTwin does (and with the general
// sort's load, state and all), then after random changes; each case says whether the load must go by counting
// (loadCounted) or by the general sort: keys dense, straddling zero, all
// negative, sparse, a key of more rows than a small run, a NULL key, ids
// not rising, an index ordered by another column.
func TestLoadCounted(t *testing.T) {
	for _, tc := range []struct {
		name    string
		key     func(rng *rand.Rand, id int) value.Value
		shuffle bool // the rows out of id order
		sort    bool // ordered by v, not by the row
		counted bool
	}{
		{"dense", func(rng *rand.Rand, _ int) value.Value { return value.NewInt(value.Int8, rng.Int64N(3000)) }, false, false, true},
		{"straddling-zero", func(rng *rand.Rand, _ int) value.Value { return value.NewInt(value.Int8, rng.Int64N(3000)-1500) }, false, false, true},
		{"negative", func(rng *rand.Rand, _ int) value.Value { return value.NewInt(value.Int8, -1-rng.Int64N(3000)) }, false, false, true},
		{"int4", func(rng *rand.Rand, _ int) value.Value { return value.NewInt(value.Int4, rng.Int64N(5000)) }, false, false, true},
		{"sparse", func(rng *rand.Rand, _ int) value.Value { return value.NewInt(value.Int8, rng.Int64N(1<<40)) }, false, false, false},
		{"big-run", func(rng *rand.Rand, id int) value.Value {
			if id%50 == 0 {
				return value.NewInt(value.Int8, 7)
			}
			return value.NewInt(value.Int8, rng.Int64N(3000))
		}, false, false, false},
		{"null-key", func(rng *rand.Rand, id int) value.Value {
			if id == 777 {
				return value.Null
			}
			return value.NewInt(value.Int8, rng.Int64N(3000))
		}, false, false, false},
		{"null-dropped", func(rng *rand.Rand, id int) value.Value {
			if id%97 == 0 {
				return value.Null
			}
			return value.NewInt(value.Int8, rng.Int64N(3000))
		}, false, false, true},
		{"not-rising", func(rng *rand.Rand, _ int) value.Value { return value.NewInt(value.Int8, rng.Int64N(3000)) }, true, false, false},
		{"other-order", func(rng *rand.Rand, _ int) value.Value { return value.NewInt(value.Int8, rng.Int64N(3000)) }, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(tc.name)), 5))
			spec := ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int8Type}}}
			if tc.name == "int4" {
				spec.Key = []expr.Expr{&expr.Col{Idx: 1, T: value.Int4Type}}
			}
			if tc.sort {
				spec.Sort = []SortKey{{Expr: &expr.Col{Idx: 2, T: value.Int8Type}}}
			}
			spec.DropNullKeys = tc.name == "null-dropped"
			var rs []value.Row
			var rows zset.ZSet
			for id := range 20000 {
				if rng.IntN(10) == 0 {
					rs = append(rs, nil)
					continue
				}
				r := value.Row{value.NewInt(value.Int8, int64(id)), tc.key(rng, id), value.NewInt(value.Int8, rng.Int64N(100)),
					value.NewText(value.Text, fmt.Sprint("row ", id))}
				rs = append(rs, r)
				rows = append(rows, zset.Entry{Row: r, W: 1})
			}
			if tc.shuffle {
				rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
			}
			loaded, staged := NewArrangement(spec), NewArrangement(spec)
			loaded.Claim()
			staged.Claim()
			before, direct := countedLoads.Load(), directCounts.Load()
			if err := loaded.LoadRows(rs); err != nil {
				t.Fatal(err)
			}
			if counted := countedLoads.Load() > before; counted != tc.counted {
				t.Fatalf("loaded by counting: %v, want %v", counted, tc.counted)
			}
			if counted := directCounts.Load() > direct; counted != tc.counted {
				t.Fatalf("counted from the rows: %v, want %v", counted, tc.counted)
			}
			// The count from the sort keys (loadCounted), to which the
			// count straight from the rows is identical, state included.
			fromKeys := NewArrangement(spec)
			fromKeys.Claim()
			directOff = true
			err := fromKeys.LoadRows(rs)
			directOff = false
			if err != nil {
				t.Fatal(err)
			}
			// The general sort's load, to which a load by counting is
			// identical, state included.
			sorted := NewArrangement(spec)
			sorted.Claim()
			countedOff = true
			err = sorted.LoadRows(rs)
			countedOff = false
			if err != nil {
				t.Fatal(err)
			}
			if err := staged.Stage(zset.Consolidate(rows)); err != nil {
				t.Fatal(err)
			}
			staged.Commit()
			compareArrangements(t, loaded, staged)
			compareArrangements(t, loaded, sorted)
			compareArrangements(t, loaded, fromKeys)
			if ls, ss := loaded.State(), sorted.State(); ls != ss {
				t.Fatalf("state loaded %+v, by the general sort %+v", ls, ss)
			}
			if ls, ks := loaded.State(), fromKeys.State(); ls != ks {
				t.Fatalf("state loaded %+v, counted from the sort keys %+v", ls, ks)
			}
			checkBytes(t, loaded)
			// Every key's rows, looked up.
			for k := range 3000 {
				key := value.Row{value.NewInt(value.Int8, int64(k))}
				var gx, gy zset.ZSet
				loaded.Lookup(key, func(r value.Row, w int64) bool { gx = append(gx, zset.Entry{Row: r, W: w}); return true })
				staged.Lookup(key, func(r value.Row, w int64) bool { gy = append(gy, zset.Entry{Row: r, W: w}); return true })
				if len(gx) != len(gy) {
					t.Fatalf("key %d: %d and %d rows", k, len(gx), len(gy))
				}
				for i := range gx {
					if gx[i].W != gy[i].W || zset.CompareRows(gx[i].Row, gy[i].Row) != 0 {
						t.Fatalf("key %d: row %d differs", k, i)
					}
				}
			}
			for round := range 4 {
				var ch zset.ZSet
				for i := range 2000 {
					id := 20000 + round*2000 + i
					ch = append(ch, zset.Entry{Row: value.Row{value.NewInt(value.Int8, int64(id)), tc.key(rng, id),
						value.NewInt(value.Int8, 1), value.NewText(value.Text, "new")}, W: 1})
				}
				n := 0
				loaded.scan(nil, false, func(r value.Row, w int64) bool {
					if n++; n%(3+round) == 0 {
						ch = append(ch, zset.Entry{Row: r, W: -w})
					}
					return true
				})
				ch = zset.Consolidate(ch)
				for _, a := range []*Arrangement{loaded, staged} {
					if err := a.Stage(ch); err != nil {
						t.Fatal(err)
					}
					a.Commit()
				}
				compareArrangements(t, loaded, staged)
				checkBytes(t, loaded)
			}
		})
	}
}

// TestLoadCountedRowsBytes loads 400,000 rows by counting straight from
// the rows and from the sort keys, and checks that the first allocates at
// least 12 bytes a row less: the sort keys' 32 bytes a row are what it
// leaves out, for 12 of its own and the room it first made for 65,536
// rows (countedProbe).
func TestLoadCountedRowsBytes(t *testing.T) {
	const n = 400_000
	rs := make([]value.Row, n)
	for id := range rs {
		rs[id] = value.Row{value.NewInt(value.Int8, int64(id)), value.NewInt(value.Int8, int64(id%(n/10)))}
	}
	spec := ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int8Type}}}
	allocated := func(off bool) uint64 {
		a := NewArrangement(spec)
		a.Claim()
		var before, after runtime.MemStats
		directOff = off
		defer func() { directOff = false }()
		counted := countedLoads.Load()
		runtime.ReadMemStats(&before)
		if err := a.LoadRows(rs); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if countedLoads.Load() == counted {
			t.Fatal("not loaded by counting")
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	// The least of three loads each way: another goroutine's allocations
	// can only add to a measurement.
	direct, fromKeys := allocated(false), allocated(true)
	for range 2 {
		direct, fromKeys = min(direct, allocated(false)), min(fromKeys, allocated(true))
	}
	t.Logf("allocated: %d bytes from the rows, %d from the sort keys", direct, fromKeys)
	if direct+12*n > fromKeys {
		t.Fatalf("counted from the rows: %d bytes, from the sort keys %d: under 12 bytes a row less", direct, fromKeys)
	}
}
