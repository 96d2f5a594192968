package op

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestCountsCompact checks that counts that shrank give their slab back
// and still find, count and order every row left.
func TestCountsCompact(t *testing.T) {
	c := newIdentityCounts()
	row := func(i int) value.Row { return value.Row{value.NewInt(value.Int8, int64(i))} }
	for i := range 10000 {
		c.add(row(i), 2)
	}
	for i := range 10000 {
		if i%100 != 0 {
			c.add(row(i), -2)
		}
	}
	c.compact()
	if len(c.slots) != 100 || c.live != 100 || c.total != 200 {
		t.Fatalf("after compaction: %d slots, %d live, total %d; want 100, 100, 200", len(c.slots), c.live, c.total)
	}
	for i := range 10000 {
		want := int64(0)
		if i%100 == 0 {
			want = 2
		}
		if got := c.get(row(i)); got != want {
			t.Fatalf("row %d: weight %d, want %d", i, got, want)
		}
	}
	prev := -1
	c.scan(func(r value.Row, w int64) bool {
		if int(r[0].Int()) <= prev {
			t.Fatalf("scan out of order: %d after %d", r[0].Int(), prev)
		}
		prev = int(r[0].Int())
		return true
	})
	c.add(row(5), 1) // the slab grows again from its compacted size
	if c.get(row(5)) != 1 || c.live != 101 {
		t.Fatalf("insert after compaction: weight %d, %d live", c.get(row(5)), c.live)
	}
}

// TestCountsLoadTwin loads random rows (repeated, with weights that sum
// to zero, -0 and 0 as two Z-set rows) into empty counts with load and
// into others one add at a time, and compares them: every row's weight,
// the counts' totals and state; then applies the same random adds and
// removals to both (which move entries of the index) and compares again.
func TestCountsLoadTwin(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 3000, 70000} {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		row := func() value.Row {
			k := rng.IntN(n/2 + 1)
			v := value.NewFloat(value.Float8, float64(k%3))
			if k%3 == 0 && rng.IntN(2) == 0 {
				v = value.NewFloat(value.Float8, math.Copysign(0, -1))
			}
			return value.Row{value.NewInt(value.Int8, int64(k)), v}
		}
		var rows zset.ZSet
		for range n {
			rows = append(rows, zset.Entry{Row: row(), W: []int64{1, 1, 2, 3}[rng.IntN(4)]})
		}
		for i := 0; i < len(rows); i += 5 { // cancel some
			rows = append(rows, zset.Entry{Row: rows[i].Row, W: -rows[i].W})
		}
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		loaded, added := newIdentityCounts(), newIdentityCounts()
		var l countsLoad
		for i := 0; i < len(rows); i += 1000 { // in batches
			l.add(&counts{}, rows[i:min(i+1000, len(rows))])
		}
		loaded.load(&l)
		for _, e := range rows {
			added.add(e.Row, e.W)
		}
		compare := func(when string) {
			t.Helper()
			if loaded.live != added.live || loaded.total != added.total || loaded.bytes != added.bytes || loaded.index.n != loaded.live {
				t.Fatalf("n=%d %s: live %d/%d, total %d/%d, bytes %d/%d, index %d", n, when, loaded.live, added.live, loaded.total, added.total, loaded.bytes, added.bytes, loaded.index.n)
			}
			// The load sizes the index for every row given, repeated ones
			// included: its state is the same rows, not always the same bytes.
			if ls, as := loaded.state(), added.state(); ls.Rows != as.Rows {
				t.Fatalf("n=%d %s: state loaded %+v, added %+v", n, when, ls, as)
			}
			if loaded.String() != added.String() {
				t.Fatalf("n=%d %s: the counts differ", n, when)
			}
			for _, e := range rows {
				if l, a := loaded.get(e.Row), added.get(e.Row); l != a {
					t.Fatalf("n=%d %s: row %v weight %d, want %d", n, when, e.Row, l, a)
				}
			}
		}
		compare("after the load")
		for range 2 * n {
			r := rows[rng.IntN(len(rows))].Row
			w := int64(1)
			if got := added.get(r); got > 0 && rng.IntN(2) == 0 {
				w = -got
			}
			loaded.add(r, w)
			added.add(r, w)
		}
		if n > 0 {
			compare("after changes")
		}
	}
}

// TestIntegrateDeferLoads feeds the same batches to an Integrate that
// defers its loads and to one that does not: batches of assertions (kept
// aside), then a batch with a retraction (the rows kept aside are loaded
// first, and a retraction of a row never asserted still fails); the
// contents agree after each, and after Trim the deferral is over.
func TestIntegrateDeferLoads(t *testing.T) {
	row := func(i int) value.Row { return value.Row{value.NewInt(value.Int8, int64(i))} }
	batch := func(from, to int, w int64) zset.ZSet {
		var z zset.ZSet
		for i := from; i < to; i++ {
			z = append(z, zset.Entry{Row: row(i), W: w})
		}
		return z
	}
	deferred, plain := NewIntegrate(), NewIntegrate()
	deferred.DeferLoads()
	step := func(z zset.ZSet) {
		t.Helper()
		for _, g := range []*Integrate{deferred, plain} {
			if _, err := g.Step([]zset.ZSet{z}); err != nil {
				t.Fatal(err)
			}
			g.Commit()
		}
	}
	step(batch(0, 5000, 1))
	step(batch(2500, 7000, 2))
	if deferred.pending.n != 9500 || deferred.counts.live != 0 {
		t.Fatalf("assertions into an empty Integrate: %d pending, %d held", deferred.pending.n, deferred.counts.live)
	}
	step(zset.Consolidate(append(batch(0, 10, -1), batch(7000, 7100, 1)...)))
	if deferred.pending.n != 0 || deferred.String() != plain.String() || deferred.Len() != plain.Len() {
		t.Fatalf("after a retraction: %d pending, contents differ: %v", deferred.pending.n, deferred.String() != plain.String())
	}
	if _, err := deferred.Step([]zset.ZSet{batch(9000, 9001, -1)}); err == nil {
		t.Fatal("a retraction of a row never asserted did not fail")
	}
	deferred.Abort()

	again := NewIntegrate()
	again.DeferLoads()
	if _, err := again.Step([]zset.ZSet{batch(0, 5000, 1)}); err != nil {
		t.Fatal(err)
	}
	again.Commit()
	if _, err := again.Step([]zset.ZSet{batch(5000, 5010, 1)}); err != nil { // small: applied as it comes
		t.Fatal(err)
	}
	again.Commit()
	if again.pending.n != 0 || again.counts.live != 5010 {
		t.Fatalf("a small batch: %d pending, %d held", again.pending.n, again.counts.live)
	}
	again.Trim()
	if again.pending.n != 0 || again.counts.live != 5010 {
		t.Fatalf("after Trim: %d pending, %d held", again.pending.n, again.counts.live)
	}
	if _, err := again.Step([]zset.ZSet{batch(6000, 11000, 1)}); err != nil {
		t.Fatal(err)
	}
	again.Commit()
	if again.pending.n != 0 || again.counts.live != 10010 {
		t.Fatalf("a batch after Trim: %d pending, %d held", again.pending.n, again.counts.live)
	}
}
