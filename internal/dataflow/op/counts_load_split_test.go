package op

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestCountsLoadHalves loads the same rows (most distinct, some repeated,
// some cancelled) with loadHalves and loadInOrder, into indexes filled up
// to three quarters so that probes run past the halves' ends, and checks
// that both hold the same rows, in the same slots' order, with the same
// weights, totals and bytes, and that later adds and removals (which
// reuse the free slots of rows merged) leave them equal; and that rows
// were put in past their halves' ends in some of the loads.
func TestCountsLoadHalves(t *testing.T) {
	spilled := 0
	for seed := range 8 {
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		n := 3<<14 - 1 - rng.IntN(200) // an index of 1<<16 entries, three quarters full
		row := func() value.Row {
			k := rng.IntN(n * 4)
			if rng.IntN(10) == 0 {
				k %= 64 // a few rows repeated many times
			}
			return value.Row{value.NewInt(value.Int8, int64(k)), value.NewText(value.Text, "r")}
		}
		var rows zset.ZSet
		for range n {
			rows = append(rows, zset.Entry{Row: row(), W: []int64{1, 1, 2}[rng.IntN(3)]})
		}
		for i := 0; i < n/50; i++ { // cancel some
			rows[rng.IntN(n)] = zset.Entry{Row: rows[i].Row, W: -rows[i].W}
		}
		// Each load takes its slab over: one each.
		var l, l2 countsLoad
		for i := 0; i < len(rows); i += 1000 {
			l.add(&counts{}, rows[i:min(i+1000, len(rows))])
			l2.add(&counts{}, rows[i:min(i+1000, len(rows))])
		}
		halves, inOrder := newIdentityCounts(), newIdentityCounts()
		for c, l := range map[*counts]*countsLoad{&halves: &l, &inOrder: &l2} {
			c.index.reserve(l.n)
			c.bytes += l.bytes
			c.slots = l.slots
		}
		cancelled := halves.loadHalves(&l)
		if inOrder.loadInOrder(&l2) != cancelled {
			t.Fatalf("seed %d: cancelled differs", seed)
		}
		for _, c := range []*counts{&halves, &inOrder} {
			c.freeMerged()
			if cancelled {
				for i := range c.slots {
					if s := &c.slots[i]; s.n == 0 && s.p != nil {
						c.remove(c.hashOf(s.rowOf()), int32(i))
					}
				}
			}
		}
		half := len(halves.index.tab) / 2
		for p, e := range halves.index.tab {
			if home := halves.index.home(uint64(e.h)); e.s != 0 && (home < half) != (p < half) {
				spilled++
			}
		}
		compareCounts(t, seed, "after the load", &halves, &inOrder, rows, true)
		for range n {
			r := rows[rng.IntN(len(rows))].Row
			w := int64(1)
			if got := inOrder.get(r); got > 0 && rng.IntN(2) == 0 {
				w = -got
			}
			halves.add(r, w)
			inOrder.add(r, w)
		}
		compareCounts(t, seed, "after changes", &halves, &inOrder, rows, false)
	}
	if spilled == 0 {
		t.Fatal("no row was put in past its half's end")
	}
}

// compareCounts checks that got holds want's rows with the same weights
// and totals, in the same slots' order if sameSlots.
func compareCounts(t *testing.T, seed int, when string, got, want *counts, rows zset.ZSet, sameSlots bool) {
	t.Helper()
	if got.live != want.live || got.total != want.total || got.bytes != want.bytes || got.index.n != got.live {
		t.Fatalf("seed %d %s: live %d/%d, total %d/%d, bytes %d/%d, index %d",
			seed, when, got.live, want.live, got.total, want.total, got.bytes, want.bytes, got.index.n)
	}
	order := func(c *counts) (out []zset.Entry) {
		for _, s := range c.slots {
			if s.p != nil {
				out = append(out, zset.Entry{Row: s.rowOf(), W: s.n})
			}
		}
		return out
	}
	if sameSlots && !slices.EqualFunc(order(got), order(want), func(a, b zset.Entry) bool {
		return a.W == b.W && zset.CompareRows(a.Row, b.Row) == 0
	}) {
		t.Fatalf("seed %d %s: the slots' order differs", seed, when)
	}
	if got.String() != want.String() {
		t.Fatalf("seed %d %s: the counts differ", seed, when)
	}
	for _, e := range rows {
		if g, w := got.get(e.Row), want.get(e.Row); g != w {
			t.Fatalf("seed %d %s: row %v weight %d, want %d", seed, when, e.Row, g, w)
		}
	}
}
