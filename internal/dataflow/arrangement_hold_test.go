package dataflow

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"syscall"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestHoldCommits checks that an arrangement holding its commits reads as
// one that applies each commit at once: the same batches (of 1 to 3,000
// entries, retractions of held rows, rows retracted and asserted again,
// equal rows in several batches, NULL sort values, aborted stages) go into
// both, and after each commit, at random, one read or another of the
// holding one (String, Len, Total, State, RowBytes, ScanFrom, Weight) must give the
// plain one's answer; at the end, several readers at once apply what is
// held.
func TestHoldCommits(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 11))
		spec := ArrangementSpec{Sort: []SortKey{
			{Expr: &expr.Col{Idx: 1, T: value.Int8Type}, Desc: true, NullsFirst: true},
			{Expr: &expr.Col{Idx: 0, T: value.Int8Type}},
		}}
		plain, held := NewArrangement(spec), NewArrangement(spec)
		plain.Claim()
		held.Claim()
		held.HoldCommits()
		if !held.holds {
			t.Fatal("an arrangement of one run with an order does not hold its commits")
		}
		live := map[int64]value.Row{} // id → its row, weight one
		nextID := int64(1)
		for step := range 120 {
			var delta zset.ZSet
			size := 1 + rng.IntN(20)
			if rng.IntN(8) == 0 {
				size = 500 + rng.IntN(2500)
			}
			touched := map[int64]bool{}
			for range size {
				if len(live) > 0 && rng.IntN(2) == 0 {
					// Replace a row: retract it, assert a new value.
					for id, r := range live {
						if touched[id] {
							break
						}
						touched[id] = true
						delta = append(delta, zset.Entry{Row: r, W: -1})
						if rng.IntN(4) > 0 {
							nr := value.Row{value.NewInt(value.Int8, id), sortVal(rng)}
							if rng.IntN(10) == 0 {
								nr = r // retracted and asserted again
							}
							delta = append(delta, zset.Entry{Row: nr, W: 1})
							live[id] = nr
						} else {
							delete(live, id)
						}
						break
					}
					continue
				}
				r := value.Row{value.NewInt(value.Int8, nextID), sortVal(rng)}
				touched[nextID] = true
				live[nextID] = r
				nextID++
				delta = append(delta, zset.Entry{Row: r, W: 1})
			}
			delta = zset.Consolidate(delta)
			if rng.IntN(10) == 0 {
				// A stage aborted leaves nothing behind.
				if err := held.Stage(delta); err != nil {
					t.Fatal(err)
				}
				held.Abort()
			}
			for _, a := range []*Arrangement{plain, held} {
				if err := a.Stage(delta); err != nil {
					t.Fatal(err)
				}
				a.Commit()
			}
			if rng.IntN(3) > 0 {
				continue // read later, after more commits held
			}
			switch rng.IntN(6) {
			case 0:
				if g, w := held.String(), plain.String(); g != w {
					t.Fatalf("seed %d step %d: held reads\n%s\nwant\n%s", seed, step, g, w)
				}
			case 1:
				if g, w := held.Len(), plain.Len(); g != w {
					t.Fatalf("seed %d step %d: Len %d, want %d", seed, step, g, w)
				}
			case 2:
				if g, w := held.Total(), plain.Total(); g != w {
					t.Fatalf("seed %d step %d: Total %d, want %d", seed, step, g, w)
				}
			case 3:
				// The trees' shapes, and so their nodes' bytes, depend on
				// the order of the insertions; the rows do not.
				if g, w := held.State().Rows, plain.State().Rows; g != w {
					t.Fatalf("seed %d step %d: State().Rows %d, want %d", seed, step, g, w)
				}
				if g, w := held.RowBytes(), plain.RowBytes(); g != w {
					t.Fatalf("seed %d step %d: RowBytes %d, want %d", seed, step, g, w)
				}
			case 4:
				from := []value.Value{sortVal(rng), value.NewInt(value.Int8, rng.Int64N(nextID))}
				if g, w := scanFromText(held, from), scanFromText(plain, from); g != w {
					t.Fatalf("seed %d step %d: ScanFrom %v\n%s\nwant\n%s", seed, step, from, g, w)
				}
			case 5:
				for _, r := range live {
					if g, w := held.Weight(r), plain.Weight(r); g != w || g != 1 {
						t.Fatalf("seed %d step %d: Weight(%v) %d, want %d", seed, step, r, g, w)
					}
					break
				}
			}
		}
		// Readers at once: one applies what is held, the others wait for
		// it and read the same.
		var wg sync.WaitGroup
		got := make([]string, 4)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = held.String()
			}()
		}
		wg.Wait()
		want := plain.String()
		for i, g := range got {
			if g != want {
				t.Fatalf("seed %d: reader %d read\n%s\nwant\n%s", seed, i, g, want)
			}
		}
		if held.Len() != len(live) || held.RowBytes() != plain.RowBytes() {
			t.Fatalf("seed %d: %d rows held (%d bytes), want %d (%d)", seed, held.Len(), held.RowBytes(), len(live), plain.RowBytes())
		}
	}
}

// TestHoldCommitsApplies checks that held entries are applied by a
// commit once they reach a quarter of the rows held, without a read.
func TestHoldCommitsApplies(t *testing.T) {
	a := NewArrangement(ArrangementSpec{Sort: []SortKey{{Expr: &expr.Col{Idx: 0, T: value.Int8Type}}}})
	a.Claim()
	a.HoldCommits()
	var rows zset.ZSet
	for i := range 40_000 {
		rows = append(rows, zset.Entry{Row: value.Row{value.NewInt(value.Int8, int64(i))}, W: 1})
	}
	if err := a.Stage(rows); err != nil {
		t.Fatal(err)
	}
	a.Commit()
	if a.nheld.Load() != 0 || a.n != 40_000 {
		t.Fatalf("a first batch of 40,000 rows was not applied: %d held, %d rows", a.nheld.Load(), a.n)
	}
	for i := range 9_999 {
		if err := a.Stage(zset.ZSet{{Row: rows[i].Row, W: -1}}); err != nil {
			t.Fatal(err)
		}
		a.Commit()
	}
	if a.nheld.Load() != 9_999 || a.n != 40_000 {
		t.Fatalf("9,999 retractions: %d held, %d rows; want all held", a.nheld.Load(), a.n)
	}
	if err := a.Stage(zset.ZSet{{Row: rows[9_999].Row, W: -1}}); err != nil {
		t.Fatal(err)
	}
	a.Commit()
	if a.nheld.Load() != 0 || a.n != 30_000 {
		t.Fatalf("10,000 retractions: %d held, %d rows; want them applied", a.nheld.Load(), a.n)
	}
}

func sortVal(rng *rand.Rand) value.Value {
	if rng.IntN(20) == 0 {
		return value.Null
	}
	return value.NewInt(value.Int8, rng.Int64N(50))
}

func scanFromText(a *Arrangement, from []value.Value) string {
	var z zset.ZSet
	a.ScanFrom(nil, from, func(row value.Row, w int64) bool {
		z = append(z, zset.Entry{Row: row, W: w})
		return len(z) < 40
	})
	return z.String()
}

// BenchmarkHoldCommits replaces rows of an index of 500,000 rows ordered
// by a value (a top-k's reserve index: one run, a B+tree), a row's old
// version retracted and its new one asserted, in batches of 1, 100 and
// 10,000 changes, with commits held and applied at once; an op is one
// change, and cpu-ns/op the process's CPU time per change.
func BenchmarkHoldCommits(b *testing.B) {
	const n = 500_000
	spec := ArrangementSpec{Sort: []SortKey{
		{Expr: &expr.Col{Idx: 1, T: value.Int8Type}, Desc: true, NullsFirst: true},
		{Expr: &expr.Col{Idx: 0, T: value.Int8Type}},
	}}
	for _, hold := range []bool{false, true} {
		for _, size := range []int{1, 100, 10_000} {
			b.Run(fmt.Sprintf("hold=%v/batch=%d", hold, size), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(3, 4))
				rows := make([]value.Row, n)
				for i := range rows {
					rows[i] = value.Row{value.NewInt(value.Int8, int64(i)), value.NewInt(value.Int8, rng.Int64N(1_000_000))}
				}
				a := NewArrangement(spec)
				a.Claim()
				if hold {
					a.HoldCommits()
				}
				if err := a.LoadRows(rows); err != nil {
					b.Fatal(err)
				}
				delta := make(zset.ZSet, 0, 2*size)
				runtime.GC()
				b.ResetTimer()
				cpu0 := cpuTime()
				for i := 0; i < b.N; {
					delta = delta[:0]
					for ; len(delta) < 2*size && i < b.N; i++ {
						id := rng.IntN(n)
						nr := value.Row{rows[id][0], value.NewInt(value.Int8, rng.Int64N(1_000_000))}
						delta = append(delta, zset.Entry{Row: rows[id], W: -1}, zset.Entry{Row: nr, W: 1})
						rows[id] = nr
					}
					// Distinct ids in a batch: the retractions are of held rows.
					delta = zset.Consolidate(delta)
					if err := a.Stage(delta); err != nil {
						b.Fatal(err)
					}
					a.Commit()
				}
				if a.Len() != n {
					b.Fatalf("%d rows held, want %d", a.Len(), n)
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// cpuTime returns the CPU time the process has used, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
