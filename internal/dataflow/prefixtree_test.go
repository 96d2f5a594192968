package dataflow

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestPrefixTreeTwin drives a prefixTree and a plain weighted set with the
// same random adds, in phases that grow the tree, add in order, and shrink
// it to nothing, and compares them after every step: the returned weights,
// lookups, both scan orders, and the tree's shape (every leaf at one depth,
// every node but the root and the last leaf at least ptMin full, separators between their
// children, node counts).
func TestPrefixTreeTwin(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			a := NewArrangement(ArrangementSpec{
				Sort: []SortKey{{Expr: &expr.Col{Idx: 0, T: value.Int8Type}, Desc: seed%2 == 1}},
			})
			tr := newPrefixTree()
			twin := map[[2]int64]int64{}
			entry := func(v, id int64, w int64) arrEntry {
				row := value.Row{value.NewInt(value.Int8, v), value.NewInt(value.Int8, id)}
				k0, err := a.k0(row)
				if err != nil {
					t.Fatal(err)
				}
				return arrEntry{k0: k0, r: refOf(row), w: w}
			}
			step := 0
			apply := func(v, id, w int64) {
				step++
				key := [2]int64{v, id}
				if got, want := tr.add(a, entry(v, id, w)), twin[key]; got != want {
					t.Fatalf("step %d: add(%d, %d, %+d) returned %d, want %d", step, v, id, w, got, want)
				}
				if twin[key] += w; twin[key] == 0 {
					delete(twin, key)
				}
				if len(twin) < 200 || (step%97 == 0 && len(twin) < 3000) || step%1999 == 0 {
					checkPrefixTree(t, a, tr, twin, step)
				}
			}
			// Few distinct values, so that many entries tie on k0.
			vals := int64(50)
			for range 6000 {
				apply(rng.Int64N(vals), rng.Int64N(400), []int64{1, 1, 2, -1}[rng.IntN(4)])
			}
			for id := range int64(20000) { // in order, as a cold start adds
				apply(vals+id/3, id, 1)
			}
			checkPrefixTree(t, a, tr, twin, step)
			if tr.height < 2 {
				t.Fatalf("the tree grew to height %d only", tr.height)
			}
			keys := make([][2]int64, 0, len(twin))
			for k := range twin {
				keys = append(keys, k)
			}
			slices.SortFunc(keys, func(x, y [2]int64) int { return int(x[0]-y[0])*1000 + int(x[1]-y[1]) })
			rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
			for _, k := range keys {
				apply(k[0], k[1], -twin[k])
			}
			checkPrefixTree(t, a, tr, twin, step)
			if tr.len() != 0 || tr.height != 0 || tr.leaves != 1 || tr.inner != 0 {
				t.Fatalf("emptied tree: len %d, height %d, leaves %d, inner %d", tr.len(), tr.height, tr.leaves, tr.inner)
			}
		})
	}
}

func checkPrefixTree(t *testing.T, a *Arrangement, tr *prefixTree, twin map[[2]int64]int64, step int) {
	t.Helper()
	var want []arrEntry
	for k, w := range twin {
		row := value.Row{value.NewInt(value.Int8, k[0]), value.NewInt(value.Int8, k[1])}
		k0, _ := a.k0(row)
		want = append(want, arrEntry{k0: k0, r: refOf(row), w: w})
	}
	slices.SortFunc(want, func(x, y arrEntry) int { return a.cmp(&x, &y) })
	var got []arrEntry
	tr.scan(false, func(row value.Row, w int64) bool {
		got = append(got, arrEntry{r: refOf(row), w: w})
		return true
	})
	if tr.len() != len(want) || len(got) != len(want) {
		t.Fatalf("step %d: len %d, scanned %d, want %d", step, tr.len(), len(got), len(want))
	}
	for i := range want {
		if zset.CompareRows(got[i].row(), want[i].row()) != 0 || got[i].w != want[i].w {
			t.Fatalf("step %d: entry %d is %v×%d, want %v×%d", step, i, got[i].row(), got[i].w, want[i].row(), want[i].w)
		}
		if e, ok := tr.get(a, &want[i]); !ok || e.w != want[i].w {
			t.Fatalf("step %d: get(%v) = %d, %v", step, want[i].row(), e.w, ok)
		}
	}
	var rev []value.Row
	tr.scan(true, func(row value.Row, _ int64) bool {
		rev = append(rev, row)
		return true
	})
	for i := range rev {
		if zset.CompareRows(rev[i], want[len(want)-1-i].row()) != 0 {
			t.Fatalf("step %d: reverse scan differs at %d", step, i)
		}
	}
	leaves, inner := 0, 0
	var walk func(nd *ptNode, height int, last bool, lo, hi *arrEntry)
	walk = func(nd *ptNode, height int, last bool, lo, hi *arrEntry) {
		if nd != tr.root && nd.n < ptMin && !(height == 0 && last && nd.n > 0) {
			t.Fatalf("step %d: a node holds %d, under %d", step, nd.n, ptMin)
		}
		if (height == 0) != (nd.kids == nil) {
			t.Fatalf("step %d: a leaf at height %d", step, height)
		}
		for i := range nd.n {
			e := arrEntry{k0: nd.keys[i], r: nd.rows[i]}
			if lo != nil && a.cmp(&e, lo) < 0 || hi != nil && a.cmp(&e, hi) >= 0 {
				t.Fatalf("step %d: %v is outside its node's bounds", step, e.row())
			}
			if i > 0 && a.cmpAt(nd, i-1, &e) >= 0 {
				t.Fatalf("step %d: a node is out of order at %d", step, i)
			}
		}
		if height == 0 {
			leaves++
			return
		}
		inner++
		for i := range nd.n + 1 {
			clo, chi := lo, hi
			if i > 0 {
				clo = &arrEntry{k0: nd.keys[i-1], r: nd.rows[i-1]}
			}
			if i < nd.n {
				chi = &arrEntry{k0: nd.keys[i], r: nd.rows[i]}
			}
			walk(nd.kids[i], height-1, last && i == nd.n, clo, chi)
		}
	}
	walk(tr.root, tr.height, true, nil, nil)
	if leaves != tr.leaves || inner != tr.inner {
		t.Fatalf("step %d: %d leaves and %d inner nodes, counted %d and %d", step, leaves, inner, tr.leaves, tr.inner)
	}
}

// TestPrefixTreeSortedBatches adds sorted batches through addFrom, one
// finger per batch, to a tree and to a plain weighted set: batches that
// insert, delete and change weights at random places, dense ones that
// fill and split leaves, and ones that empty whole leaves, so that the
// finger meets splits and merges. The tree must equal the set and keep its
// shape.
func TestPrefixTreeSortedBatches(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 11))
			a := NewArrangement(ArrangementSpec{
				Sort: []SortKey{{Expr: &expr.Col{Idx: 0, T: value.Int8Type}, Desc: seed%2 == 1}},
			})
			tr := newPrefixTree()
			twin := map[[2]int64]int64{}
			for batch := range 300 {
				n := 1 + rng.IntN(400)
				span := int64(50 + rng.IntN(5000)) // dense or sparse
				keys := map[[2]int64]int64{}
				for range n {
					k := [2]int64{rng.Int64N(span), rng.Int64N(30)}
					switch w := twin[k]; {
					case w != 0 && (batch%7 == 6 || rng.IntN(2) == 0):
						keys[k] = -w // delete
					default:
						keys[k] = []int64{1, 2, -1}[rng.IntN(3)]
					}
				}
				var es []arrEntry
				for k, w := range keys {
					row := value.Row{value.NewInt(value.Int8, k[0]), value.NewInt(value.Int8, k[1])}
					k0, _ := a.k0(row)
					es = append(es, arrEntry{k0: k0, r: refOf(row), w: w})
				}
				slices.SortFunc(es, func(x, y arrEntry) int { return a.cmp(&x, &y) })
				var f ptFinger
				for _, e := range es {
					k := [2]int64{e.row()[0].Int(), e.row()[1].Int()}
					if got, want := tr.addFrom(a, e, &f), twin[k]; got != want {
						t.Fatalf("batch %d: addFrom(%v, %+d) returned %d, want %d", batch, k, e.w, got, want)
					}
					if twin[k] += e.w; twin[k] == 0 {
						delete(twin, k)
					}
				}
				if batch%10 == 0 || batch == 299 || len(twin) < 500 {
					checkPrefixTree(t, a, tr, twin, batch)
				}
			}
			if tr.height < 2 {
				t.Fatalf("the tree grew to height %d only", tr.height)
			}
		})
	}
}
