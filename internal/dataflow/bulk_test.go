package dataflow

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestLoadTwin loads random rows (repeated rows, weights that cancel,
// NULL keys, keys of one row and of thousands) into an empty arrangement
// with Load and into another with Stage and Commit, and compares them:
// the rows of every key in both orders, the counts, the state (Load's
// no bigger, and equal to what its runs hold); then applies the same
// random changes to both and compares again.
func TestLoadTwin(t *testing.T) {
	for _, tc := range []struct {
		name   string
		intKey bool
		sort   bool
		desc   bool
		drop   bool
		second int  // a second order component: 1 an integer, 2 a text
		rows   bool // LoadRows of rows of weight one, with holes
	}{
		{"int-key", true, true, false, false, 0, false},
		{"int-key-desc-dropnull", true, true, true, true, 0, false},
		{"text-key", false, true, true, false, 0, false},
		{"no-sort", true, false, false, false, 0, false},
		{"no-key", false, true, true, false, 0, false},
		{"two-int-orders", true, true, true, false, 1, false},
		{"int-then-text-order", true, true, false, false, 2, false},
		{"no-key-two-orders-rows", false, true, true, false, 1, true},
		{"int-key-rows", true, true, false, true, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(tc.name)), 11))
			spec := ArrangementSpec{DropNullKeys: tc.drop}
			switch {
			case tc.name == "no-key":
			case tc.intKey:
				spec.Key = []expr.Expr{&expr.Col{Idx: 0, T: value.Int8Type}}
			default:
				spec.Key = []expr.Expr{&expr.Col{Idx: 3, T: value.TextType}}
			}
			if tc.sort {
				spec.Sort = []SortKey{{Expr: &expr.Col{Idx: 1, T: value.Int8Type}, Desc: tc.desc, NullsFirst: tc.desc}}
			}
			switch tc.second {
			case 1:
				spec.Sort = append(spec.Sort, SortKey{Expr: &expr.Col{Idx: 2, T: value.Int8Type}, Desc: !tc.desc})
			case 2:
				spec.Sort = append(spec.Sort, SortKey{Expr: &expr.Col{Idx: 3, T: value.TextType}, Desc: true, NullsFirst: true})
			}
			row := func() value.Row {
				var k int64
				switch rng.IntN(4) {
				case 0:
					k = 0 // a key of thousands of rows
				case 1:
					k = rng.Int64N(3000) // keys of a row or two
				default:
					k = rng.Int64N(40) // keys of tens to hundreds
				}
				kv, tv := value.NewInt(value.Int8, k), value.NewText(value.Text, fmt.Sprint(strings.Repeat("k", int(k%3)*5+1), k)) // encodings short and long
				if rng.IntN(50) == 0 {
					kv, tv = value.Null, value.Null
				}
				v := value.NewInt(value.Int8, rng.Int64N(500))
				if rng.IntN(30) == 0 {
					v = value.Null
				}
				return value.Row{kv, v, value.NewInt(value.Int8, rng.Int64N(20)), tv}
			}
			var rows zset.ZSet
			for range 40000 {
				rows = append(rows, zset.Entry{Row: row(), W: []int64{1, 1, 1, 2, -1}[rng.IntN(5)]})
			}
			// Some rows twice, once with the opposite weight.
			for i := range 2000 {
				rows = append(rows, zset.Entry{Row: rows[i*7].Row, W: -rows[i*7].W})
			}
			rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
			loaded, staged := NewArrangement(spec), NewArrangement(spec)
			loaded.Claim()
			staged.Claim()
			if tc.rows {
				// A table's rows by id: each once, some ids empty.
				var rs []value.Row
				rows = rows[:0]
				for range 40000 {
					if rng.IntN(10) == 0 {
						rs = append(rs, nil)
						continue
					}
					r := row()
					rs = append(rs, r)
					rows = append(rows, zset.Entry{Row: r, W: 1})
				}
				// On another goroutine: a reader waits for it.
				wait := loaded.LoadRowsAsync(rs)
				loaded.AwaitLoad()
				n := loaded.Len()
				if err := wait(); err != nil {
					t.Fatal(err)
				}
				if n == 0 || loaded.Len() != n {
					t.Fatalf("%d rows after AwaitLoad, %d after the load", n, loaded.Len())
				}
			} else if err := loaded.Load(slices.Clone(rows)); err != nil {
				t.Fatal(err)
			}
			if err := staged.Stage(rows); err != nil {
				t.Fatal(err)
			}
			staged.Commit()
			compareArrangements(t, loaded, staged)
			ls, ss := loaded.State(), staged.State()
			if ls.Rows != ss.Rows || ls.Bytes > ss.Bytes {
				t.Fatalf("state loaded %+v, staged %+v", ls, ss)
			}
			checkBytes(t, loaded)
			for round := range 5 {
				var ch zset.ZSet
				for range 3000 {
					ch = append(ch, zset.Entry{Row: row(), W: 1})
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

func compareArrangements(t *testing.T, x, y *Arrangement) {
	t.Helper()
	if x.Len() != y.Len() || x.Total() != y.Total() || x.RowBytes() != y.RowBytes() {
		t.Fatalf("len %d/%d, total %d/%d, row bytes %d/%d", x.Len(), y.Len(), x.Total(), y.Total(), x.RowBytes(), y.RowBytes())
	}
	for _, desc := range []bool{false, true} {
		var gx, gy zset.ZSet
		x.scan(nil, desc, func(r value.Row, w int64) bool { gx = append(gx, zset.Entry{Row: r, W: w}); return true })
		y.scan(nil, desc, func(r value.Row, w int64) bool { gy = append(gy, zset.Entry{Row: r, W: w}); return true })
		if !slices.EqualFunc(gx, gy, func(a, b zset.Entry) bool { return a.W == b.W && zset.CompareRows(a.Row, b.Row) == 0 }) {
			t.Fatalf("desc=%v: the arrangements differ (%d and %d rows)", desc, len(gx), len(gy))
		}
	}
	for _, e := range []value.Row{{value.NewInt(value.Int8, 0)}, {value.NewInt(value.Int8, 7)}, {value.NewText(value.Text, "k3")}, {value.NewText(value.Text, "kkkkkkkkkkk5")}} {
		var gx, gy []value.Row
		x.Lookup(e, func(r value.Row, _ int64) bool { gx = append(gx, r); return true })
		y.Lookup(e, func(r value.Row, _ int64) bool { gy = append(gy, r); return true })
		if !slices.EqualFunc(gx, gy, func(a, b value.Row) bool { return zset.CompareRows(a, b) == 0 }) {
			t.Fatalf("lookup %v: %d and %d rows", e, len(gx), len(gy))
		}
	}
}

// checkBytes recounts an arrangement's bytes from its runs.
func checkBytes(t *testing.T, a *Arrangement) {
	t.Helper()
	var b int64
	count := func(key []byte, r *run) {
		b += r.storeBytes()
		if _, ok := a.intKey(key); ok {
			b += intRunOverhead
		} else {
			b += runOverhead + AllocBytes(len(key))
		}
		r.scan(false, func(row value.Row, _ int64) bool { b += RowBytes(row); return true })
	}
	for k, r := range a.runs {
		count([]byte(k), r)
	}
	if a.ints != nil {
		kind := a.spec.Key[0].Type().Kind
		a.ints.All(func(n int64, r *run) bool { count(value.AppendKey(nil, value.FromInt(kind, n)), r); return true })
	}
	if b != a.bytes {
		t.Fatalf("bytes %d, recounted %d", a.bytes, b)
	}
}

// TestBuildPrefixTree builds trees bottom-up from sorted entries of every
// size up to several levels, checks their shape, and then grows and
// shrinks them at random with the shape checked.
func TestBuildPrefixTree(t *testing.T) {
	a := NewArrangement(ArrangementSpec{Sort: []SortKey{{Expr: &expr.Col{Idx: 0, T: value.Int8Type}}}})
	entry := func(v, id, w int64) arrEntry {
		row := value.Row{value.NewInt(value.Int8, v), value.NewInt(value.Int8, id)}
		k0, _ := a.k0(row)
		return arrEntry{k0: k0, r: refOf(row), w: w}
	}
	for _, n := range []int{1, 2, ptOrder - 1, ptOrder, ptOrder + 1, ptOrder*(ptOrder+1) - 1, ptOrder * (ptOrder + 1), ptOrder*(ptOrder+1) + 1, 3*ptOrder*(ptOrder+1) + 5, 300000} {
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		twin := map[[2]int64]int64{}
		es := make([]arrEntry, n)
		for i := range es {
			es[i] = entry(int64(i/3), int64(i), int64(1+i%2))
			twin[[2]int64{int64(i / 3), int64(i)}] = int64(1 + i%2)
		}
		tr := buildPrefixTree(es)
		checkPrefixTree(t, a, tr, twin, 0)
		if n > 5000 {
			continue
		}
		for step := 1; step <= 3*n; step++ {
			v, id := rng.Int64N(int64(n/3+2)), rng.Int64N(int64(n+10))
			w := []int64{1, -1, -2}[rng.IntN(3)]
			if w < 0 {
				w = -twin[[2]int64{v, id}]
				if w == 0 {
					w = 1
				}
			}
			tr.add(a, entry(v, id, w))
			k := [2]int64{v, id}
			if twin[k] += w; twin[k] == 0 {
				delete(twin, k)
			}
			if step%(1+n/50) == 0 {
				checkPrefixTree(t, a, tr, twin, step)
			}
		}
		checkPrefixTree(t, a, tr, twin, -1)
	}
}
