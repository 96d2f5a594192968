package dataflow

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestBoundCommits checks that a bounded arrangement reads as a plain one:
// the same batches (replacements, big and small, held and applied) go
// into both, the bounded one's source being the rows as of its last
// commit; after each commit, a scan from a random place, read to a random
// length, must give the plain one's rows, extending the region when it
// reads past it. Reads also come between a Stage and its Commit, as a
// refill on another worker does, so that an extension makes the Commit
// stage again what it left out.
func TestBoundCommits(t *testing.T) {
	old := SetBoundMin(8)
	defer SetBoundMin(old)
	rng := rand.New(rand.NewPCG(3, 5))
	spec := ArrangementSpec{Sort: []SortKey{
		{Expr: &expr.Col{Idx: 1, T: value.Int8Type}, Desc: true, NullsFirst: true},
		{Expr: &expr.Col{Idx: 0, T: value.Int8Type}},
	}}
	plain, bounded := NewArrangement(spec), NewArrangement(spec)
	plain.Claim()
	bounded.Claim()
	bounded.HoldCommits()
	live := map[int64]value.Row{}
	row := func(id int64) value.Row {
		return value.Row{value.NewInt(value.Int8, id), value.NewInt(value.Int8, int64(rng.IntN(300)))}
	}
	var undo zset.ZSet // the step's change, while it is staged
	bounded.Bound(func() ([]value.Row, zset.ZSet, error) {
		var rows []value.Row
		for _, r := range live {
			rows = append(rows, r)
		}
		return rows, undo, nil
	})
	var initial zset.ZSet
	for id := range int64(400) {
		live[id] = row(id)
		initial = append(initial, zset.Entry{Row: live[id], W: 1})
	}
	for _, a := range []*Arrangement{plain, bounded} {
		if err := a.Load(initial); err != nil {
			t.Fatal(err)
		}
	}
	scan := func(a *Arrangement, from []value.Value, n int) []string {
		var out []string
		a.ScanFrom(nil, from, func(r value.Row, w int64) bool {
			out = append(out, zset.ZSet{{Row: r, W: w}}.String())
			return len(out) < n
		})
		return out
	}
	check := func(step int) {
		t.Helper()
		from := []value.Value{value.NewInt(value.Int8, int64(rng.IntN(320))), value.NewInt(value.Int8, int64(rng.IntN(400)))}
		n := 1 + rng.IntN(40)
		if rng.IntN(10) == 0 {
			from = nil
			n = 1 << 20
		}
		if got, want := scan(bounded, from, n), scan(plain, from, n); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("step %d: read %d rows from %v: got %d rows, want %d\n%v\n%v", step, n, from, len(got), len(want), got, want)
		}
	}
	for step := range 300 {
		var delta zset.ZSet
		size := 1 + rng.IntN(10)
		if rng.IntN(6) == 0 {
			size = 100 + rng.IntN(200)
		}
		touched := map[int64]bool{}
		for range size {
			id := int64(rng.IntN(400))
			if touched[id] {
				continue
			}
			touched[id] = true
			if r, ok := live[id]; ok {
				delta = append(delta, zset.Entry{Row: r, W: -1})
				delete(live, id)
			}
			if rng.IntN(3) > 0 {
				live[id] = row(id)
				delta = append(delta, zset.Entry{Row: live[id], W: 1})
			}
		}
		delta = zset.Consolidate(delta)
		for _, a := range []*Arrangement{plain, bounded} {
			if err := a.Stage(delta); err != nil {
				t.Fatal(err)
			}
		}
		undo = delta
		if rng.IntN(2) == 0 {
			check(step) // between Stage and Commit
		}
		plain.Commit()
		bounded.Commit()
		undo = nil
		check(step)
	}
	if bounded.Extensions() == 0 {
		t.Error("no extension")
	}
	if got, want := bounded.String(), plain.String(); got != want {
		t.Errorf("at the end:\n%s\nwant\n%s", got, want)
	}
}

// TestBoundLoadRegion checks a bounded arrangement's load, which sorts
// only the rows its first cut keeps: loaded from the same rows as a plain
// arrangement, it holds the target first of them in order (fewer when
// equal rows merge), its frontier at the last, and reads as the plain one
// from any place, extending past its region. The rows tie often on the
// first order value, are sometimes equal, NULL or texts whose summaries
// tie, so that the selection meets ties at its boundary.
func TestBoundLoadRegion(t *testing.T) {
	old := SetBoundMin(8)
	defer SetBoundMin(old)
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 60 {
		n := 1 + rng.IntN(3000)
		text := round%3 == 2
		typ := value.Int8Type
		if text {
			typ = value.TextType
		}
		spec := ArrangementSpec{Sort: []SortKey{
			{Expr: &expr.Col{Idx: 1, T: typ}, Desc: round%2 == 0, NullsFirst: round%4 < 2},
			{Expr: &expr.Col{Idx: 0, T: value.Int8Type}},
		}}
		distinct := 1 + rng.IntN(n)
		rows := make([]value.Row, 0, n+1)
		rows = append(rows, nil) // a hole, as a table's id 0
		for range n {
			id, v := value.NewInt(value.Int8, int64(rng.IntN(n))), value.Null
			if rng.IntN(20) > 0 {
				x := int64(rng.IntN(distinct))
				v = value.NewInt(value.Int8, x)
				if text {
					v = value.NewText(value.Text, fmt.Sprintf("a long shared prefix %06d", x))
				}
			}
			rows = append(rows, value.Row{id, v})
		}
		plain, bounded := NewArrangement(spec), NewArrangement(spec)
		plain.Claim()
		bounded.Claim()
		bounded.Bound(func() ([]value.Row, zset.ZSet, error) { return rows, nil, nil })
		if err := plain.LoadRows(rows); err != nil {
			t.Fatal(err)
		}
		if err := bounded.LoadRows(rows); err != nil {
			t.Fatal(err)
		}
		if target := max(8, n/16); n > target && bounded.n > target {
			t.Fatalf("round %d: %d rows loaded, region of %d, want at most %d", round, n, bounded.n, target)
		}
		var want []string
		plain.ScanFrom(nil, nil, func(r value.Row, w int64) bool {
			want = append(want, zset.ZSet{{Row: r, W: w}}.String())
			return true
		})
		var got []string
		bounded.ScanFrom(nil, nil, func(r value.Row, w int64) bool {
			got = append(got, zset.ZSet{{Row: r, W: w}}.String())
			return len(got) <= bounded.n // past the region: an extension
		})
		if len(want) > len(got) {
			want = want[:len(got)]
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d (%d rows): read\n%v\nwant\n%v", round, n, got, want)
		}
		if bounded.Len() != plain.Len() || bounded.Total() != plain.Total() {
			t.Fatalf("round %d: %d entries of weight %d, want %d of %d", round, bounded.Len(), bounded.Total(), plain.Len(), plain.Total())
		}
	}
}

// TestSelectFirst checks the bounded load's selection against a sort,
// over keys periodic (as a table's column i % m gives in id order),
// sorted, reversed, all equal and random: the keys it returns are those
// whose summary is at most the n-th smallest. (Pivots taken at fixed
// places made TestTopKReserveMemory's load quadratic.)
func TestSelectFirst(t *testing.T) {
	const size = 200_000
	rng := rand.New(rand.NewPCG(1, 2))
	orders := map[string]func(i int) uint64{
		"saw":      func(i int) uint64 { return uint64(i % (size / 10)) },
		"saw down": func(i int) uint64 { return uint64(size/10-i%(size/10))<<32 | uint64(i) },
		"sorted":   func(i int) uint64 { return uint64(i) },
		"reversed": func(i int) uint64 { return uint64(size - i) },
		"equal":    func(int) uint64 { return 7 },
		"random":   func(int) uint64 { return rng.Uint64N(1000) },
	}
	for name, k0 := range orders {
		for _, n := range []int{1, 4096, size / 16, size - 1, size} {
			keys := make([]loadKey, size)
			for i := range keys {
				keys[i] = loadKey{k0: k0(i), i: int32(i)}
			}
			sorted := slices.Clone(keys)
			slices.SortFunc(sorted, func(x, y loadKey) int { return cmp.Compare(x.k0, y.k0) })
			limit := sorted[n-1].k0
			want := 0
			for _, lk := range sorted {
				if lk.k0 <= limit {
					want++
				}
			}
			got := selectFirst(keys, n)
			if len(got) != want {
				t.Fatalf("%s, n = %d: %d keys selected, want %d", name, n, len(got), want)
			}
			for _, lk := range got {
				if lk.k0 > limit {
					t.Fatalf("%s, n = %d: key %d selected past %d", name, n, lk.k0, limit)
				}
			}
		}
	}
}
