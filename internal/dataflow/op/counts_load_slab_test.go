package op

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestCountsLoadSlab loads batches into empty counts, keyed by their first
// column and not, in order and in halves, with the slab sized for them,
// for many more rows than came, for fewer, and not at all, and checks
// that the counts hold what adding the rows one by one leaves: the same
// rows, weights, totals, bytes and lookups, then the same after changes;
// rows repeated and cancelled are merged, a pile of rows of one key past
// longKey makes the load start again by whole rows, and a slab sized for
// far more rows than came is cut to them.
func TestCountsLoadSlab(t *testing.T) {
	for _, n := range []int{5_000, 50_000} {
		for _, keyed := range []bool{false, true} {
			for _, piled := range []bool{false, true} {
				for _, want := range []int{0, n / 3, n + n/4, 40 * n} {
					name := fmt.Sprintf("n=%d keyed=%v piled=%v want=%d", n, keyed, piled, want)
					t.Run(name, func(t *testing.T) { loadSlab(t, n, keyed, piled, want) })
				}
			}
		}
	}
}

func loadSlab(t *testing.T, n int, keyed, piled bool, want int) {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(want)))
	row := func(i int) value.Row {
		id := i
		if piled && i%97 == 0 {
			id = 7 // rows of one key past longKey, told apart by the rest
		}
		return value.Row{value.NewInt(value.Int8, int64(id)), value.NewInt(value.Int4, int64(i%5)), value.NewText(value.Text, fmt.Sprint("r", i))}
	}
	var rows zset.ZSet
	for i := range n {
		rows = append(rows, zset.Entry{Row: row(i), W: []int64{1, 1, 2}[rng.IntN(3)]})
		if rng.IntN(20) == 0 { // the same row again
			rows = append(rows, zset.Entry{Row: row(i), W: 1})
		}
	}
	for range n / 30 { // cancel some
		e := rows[rng.IntN(len(rows))]
		rows = append(rows, zset.Entry{Row: e.Row, W: -e.W})
	}
	loaded, added := newIdentityCounts(), newIdentityCounts()
	if keyed {
		loaded.keyBy([]int{0})
		added.keyBy([]int{0})
	}
	var l countsLoad
	l.expect(want)
	for i := 0; i < len(rows); i += 4096 {
		l.add(&loaded, rows[i:min(i+4096, len(rows))])
	}
	loaded.load(&l)
	loaded.compact()
	for _, e := range rows {
		added.add(e.Row, e.W)
	}
	if piled && keyed && loaded.key != nil {
		t.Fatal("a pile of one key left the load keyed")
	}
	if !piled && keyed && loaded.key == nil {
		t.Fatal("the load dropped the key")
	}
	if came := len(loaded.slots); cap(loaded.slots) > came+came/16+1024 {
		t.Fatalf("slab of %d slots for %d rows", cap(loaded.slots), came)
	}
	compare := func(when string) {
		t.Helper()
		if loaded.live != added.live || loaded.total != added.total || loaded.bytes != added.bytes || loaded.index.n != loaded.live {
			t.Fatalf("%s: live %d/%d, total %d/%d, bytes %d/%d, index %d", when, loaded.live, added.live, loaded.total, added.total, loaded.bytes, added.bytes, loaded.index.n)
		}
		if loaded.String() != added.String() {
			t.Fatalf("%s: the counts differ", when)
		}
		for _, e := range rows {
			if l, a := loaded.get(e.Row), added.get(e.Row); l != a {
				t.Fatalf("%s: row %v weight %d, want %d", when, e.Row, l, a)
			}
		}
	}
	compare("after the load")
	for range n {
		r := rows[rng.IntN(len(rows))].Row
		w := int64(1)
		if got := added.get(r); got > 0 && rng.IntN(2) == 0 {
			w = -got
		}
		loaded.add(r, w)
		added.add(r, w)
	}
	compare("after changes")
}
