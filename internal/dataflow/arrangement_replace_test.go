package dataflow

import (
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestReplaceSmall checks when a run kept as a slice takes a new row in
// the entry of the old one: only for an old row of weight one, and a new
// row that orders strictly between the old row's neighbours.
func TestReplaceSmall(t *testing.T) {
	a := NewArrangement(ArrangementSpec{})
	row := func(id int64, s string) value.Row {
		return value.Row{value.NewInt(value.Int8, id), value.NewText(value.Text, s)}
	}
	entry := func(r value.Row, w int64) arrEntry { return arrEntry{k0: mustK0(t, a, r), r: refOf(r), w: w} }
	for _, c := range []struct {
		name  string
		runW  int64    // the old row's weight in the run
		first []string // the texts of the rows of first value 1 beside the old row, (1, "m")
		nw    string   // the new row's text, first value 1
		want  bool
	}{
		{"between others of another first value", 1, nil, "z", true},
		{"between its neighbours", 1, []string{"a", "x"}, "n", true},
		{"past its right neighbour", 1, []string{"a", "x"}, "y", false},
		{"before its left neighbour", 1, []string{"c", "x"}, "b", false},
		{"equal to a neighbour", 1, []string{"a", "x"}, "x", false},
		{"old row held twice", 2, nil, "z", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r run
			old := row(1, "m")
			for _, e := range []arrEntry{entry(row(0, "q"), 1), entry(old, c.runW), entry(row(2, "a"), 1)} {
				r.add(a, e)
			}
			for _, s := range c.first {
				r.add(a, entry(row(1, s), 1))
			}
			before := append([]arrEntry(nil), r.small...)
			nw := row(1, c.nw)
			got := r.replaceSmall(a, entry(old, -1), entry(nw, 1))
			if got != c.want {
				t.Fatalf("replaced %v, want %v", got, c.want)
			}
			if !got {
				if len(r.small) != len(before) {
					t.Fatalf("a refused replacement changed the run: %d entries, had %d", len(r.small), len(before))
				}
				for i := range before {
					if r.small[i] != before[i] {
						t.Fatalf("a refused replacement changed entry %d", i)
					}
				}
				return
			}
			for i := 1; i < len(r.small); i++ {
				if a.cmp(&r.small[i-1], &r.small[i]) >= 0 {
					t.Fatalf("entries %d and %d out of order after the replacement", i-1, i)
				}
			}
			if r.len() != len(before) {
				t.Fatalf("run of %d entries after the replacement, want %d", r.len(), len(before))
			}
		})
	}
}

// TestReplaceInPlace checks an index of a table by a column other than
// its first (a join's index by a foreign key) under steps of
// replacements, small and big, most of which keep the row's key and first
// value and so its place in a small run, others moving the row to another
// key, and some meeting rows of the same first value (a non-unique first
// column) beside which the new row does not fit, or held twice. After
// every step the index holds what the steps' sum holds, with its weights,
// totals and row bytes, each run in order.
func TestReplaceInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	a := NewArrangement(ArrangementSpec{Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int8Type}}})
	a.Claim()
	held := map[string]zset.Entry{}
	live := map[int64]value.Row{} // by id: the rows replaced
	row := func(id, k int64) value.Row {
		return value.Row{value.NewInt(value.Int8, id), value.NewInt(value.Int8, k),
			value.NewText(value.Text, string(rune('a'+rng.IntN(26))))}
	}
	var ids []int64
	for id := range int64(400) {
		live[id] = row(id%350, id%40) // 50 first values shared by two rows
		ids = append(ids, id)
	}
	step := func(delta zset.ZSet) {
		t.Helper()
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
		var total, bytes int64
		for _, e := range held {
			total += e.W
			bytes += RowBytes(e.Row) - rowHeaderBytes
			if got := a.Weight(e.Row); got != e.W {
				t.Fatalf("%s has weight %d, want %d", zset.FormatRow(e.Row), got, e.W)
			}
		}
		if a.Len() != len(held) || a.Total() != total || a.RowBytes() != bytes {
			t.Fatalf("%d rows of total weight %d and %d bytes, want %d, %d and %d",
				a.Len(), a.Total(), a.RowBytes(), len(held), total, bytes)
		}
		var prev value.Row
		a.Scan(nil, false, func(r value.Row, _ int64) bool {
			if prev != nil && value.Compare(prev[1], r[1]) == 0 && a.cmp(&arrEntry{k0: mustK0(t, a, prev), r: refOf(prev)}, &arrEntry{k0: mustK0(t, a, r), r: refOf(r)}) >= 0 {
				t.Fatalf("%v before %v", prev, r)
			}
			prev = r
			return true
		})
	}
	var load zset.ZSet
	for _, id := range ids {
		load = append(load, zset.Entry{Row: live[id], W: 1})
	}
	load = append(load, zset.Entry{Row: live[7], W: 1}) // a row held twice
	step(load)
	for s := range 60 {
		n := 1 + rng.IntN(8)
		if s%2 == 1 {
			n = 65 + rng.IntN(200) // sorted at Stage
		}
		var delta zset.ZSet
		for _, i := range rng.Perm(len(ids))[:n] {
			id := ids[i]
			old := live[id]
			nw := row(old[0].Int(), old[1].Int())
			if rng.IntN(8) == 0 {
				nw[1] = value.NewInt(value.Int8, rng.Int64N(40)) // to another key
			}
			live[id] = nw
			delta = append(delta, zset.Entry{Row: old, W: -1}, zset.Entry{Row: nw, W: 1})
		}
		step(delta)
	}
}
