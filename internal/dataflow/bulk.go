package dataflow

import (
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// bulkSplit is the size from which Load sorts the two halves of its rows
// on two goroutines and merges them.
const bulkSplit = 1 << 14

// loadKey is a row's place in Load's sort: its key's summary kk, of a
// class, and its first order component. Load groups rows by key in some
// order consistent with key equality, not necessarily the encodings'
// (the runs are found by hashing), so the summary is exact for most keys.
type loadKey struct {
	kk  uint64
	k0  uint64
	i   int32
	cls uint8
}

// The classes of key summaries: the integer of a key of one integer; an
// encoding of up to 7 bytes, with its length; the first 8 bytes of a
// longer one, whose ties are broken by the encodings.
const (
	keyInt uint8 = iota
	keyShort
	keyLong
)

// Load fills an empty arrangement with rows, leaving what Stage and
// Commit of them would leave, in one build: each row's key and first
// order component are evaluated once, the rows are sorted by key and
// order (the halves of a big load on two cores, then merged), equal rows
// merged, and each key's run made at once, its B+tree built bottom-up
// from full leaves. Only the owner calls it, between steps. On error
// nothing is loaded. An arrangement that holds rows is loaded by Stage
// and Commit instead.
func (a *Arrangement) Load(rows zset.ZSet) error {
	if a.n != 0 || a.isSet || len(rows) < 2*ptOrder || len(rows) >= 1<<31 {
		if err := a.Stage(rows); err != nil {
			return err
		}
		a.Commit()
		return nil
	}
	var arena []byte
	offs := make([]int, 0, len(rows)+1)
	keys := make([]loadKey, 0, len(rows))
	for i, e := range rows {
		off := len(arena)
		var null bool
		var err error
		arena, null, err = a.AppendKey(arena, e.Row)
		if err != nil {
			return err
		}
		offs = append(offs, off)
		if null && a.spec.DropNullKeys {
			arena = arena[:off]
			continue
		}
		k0, err := a.k0(e.Row)
		if err != nil {
			return err
		}
		lk := loadKey{k0: k0, i: int32(i)}
		if n, ok := a.intKey(arena[off:]); ok {
			lk.kk = uint64(n)
		} else if k := arena[off:]; len(k) < 8 {
			var b [8]byte
			copy(b[:], k)
			b[7] = byte(len(k))
			lk.kk, lk.cls = binary.BigEndian.Uint64(b[:]), keyShort
		} else {
			lk.kk, lk.cls = binary.BigEndian.Uint64(k), keyLong
		}
		keys = append(keys, lk)
	}
	offs = append(offs, len(arena))
	key := func(j int32) []byte { return arena[offs[j]:offs[j+1]] }
	sameKey := func(x, y loadKey) bool {
		return x.kk == y.kk && x.cls == y.cls && (x.cls != keyLong || string(key(x.i)) == string(key(y.i)))
	}
	// byKey orders by key, then by the first order component; what ties
	// is ordered afterwards, a tie at a time, on one goroutine, since
	// evaluating sort expressions may not be safe on two.
	byKey := func(x, y loadKey) int {
		if x.kk != y.kk {
			return cmp.Compare(x.kk, y.kk)
		}
		if x.cls != y.cls {
			return cmp.Compare(x.cls, y.cls)
		}
		if x.cls == keyLong {
			if c := strings.Compare(unsafeString(key(x.i)), unsafeString(key(y.i))); c != 0 {
				return c
			}
		}
		return cmp.Compare(x.k0, y.k0)
	}
	keys = sortHalves(keys, byKey)
	entry := func(lk loadKey) arrEntry {
		e := rows[lk.i]
		return arrEntry{k0: lk.k0, r: refOf(e.Row), w: e.W}
	}
	// A tie's rows with their sort values, evaluated once.
	type tieRec struct {
		off int
		e   arrEntry
	}
	var ties []tieRec
	var tvals []value.Value
	ns := len(a.spec.Sort)
	cmpTie := func(x, y tieRec) int {
		for s := range ns {
			if c := compareSort(&a.spec.Sort[s], tvals[x.off+s], tvals[y.off+s]); c != 0 {
				return c
			}
		}
		return zset.CompareRows(x.e.row(), y.e.row())
	}
	var es []arrEntry
	for i := 0; i < len(keys); {
		k := key(keys[i].i)
		j := i + 1
		for j < len(keys) && sameKey(keys[i], keys[j]) {
			j++
		}
		es = es[:0]
		if cap(es) < j-i {
			es = make([]arrEntry, 0, j-i) // a top-k's index is one run of every row
		}
		for p := i; p < j; {
			q := p + 1
			for q < j && keys[q].k0 == keys[p].k0 {
				q++
			}
			if q == p+1 {
				es = append(es, entry(keys[p]))
				p = q
				continue
			}
			ties, tvals = ties[:0], tvals[:0]
			for _, lk := range keys[p:q] {
				e := entry(lk)
				off := len(tvals)
				for _, sk := range a.spec.Sort {
					v, _ := sk.Expr.Eval(e.row()) // as cmp evaluates them
					tvals = append(tvals, v)
				}
				ties = append(ties, tieRec{off: off, e: e})
			}
			slices.SortFunc(ties, cmpTie)
			for t, tr := range ties {
				if t > 0 && cmpTie(ties[t-1], tr) == 0 {
					es[len(es)-1].w += tr.e.w
					continue
				}
				es = append(es, tr.e)
			}
			p = q
		}
		i = j
		// Rows whose weights cancelled are not held.
		kept := es[:0]
		for _, e := range es {
			if e.w != 0 {
				kept = append(kept, e)
			}
		}
		if len(kept) == 0 {
			continue
		}
		r := a.newRun(k)
		if len(kept) > maxSmallRun {
			r.tr = buildPrefixTree(kept)
		} else {
			r.small = slices.Clone(kept)
		}
		a.bytes += r.storeBytes()
		for _, e := range kept {
			a.n++
			a.total += e.w
			b := RowBytes(e.row())
			a.bytes += b
			a.rowsB += b
		}
	}
	return nil
}

// sortHalves sorts xs by cmp: a big slice in two halves on two
// goroutines, merged into a new slice.
func sortHalves[T any](xs []T, cmp func(x, y T) int) []T {
	if len(xs) < bulkSplit || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(xs, cmp)
		return xs
	}
	h := len(xs) / 2
	lo, hi := xs[:h], xs[h:]
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(lo, cmp) })
	slices.SortFunc(hi, cmp)
	wg.Wait()
	out := make([]T, 0, len(xs))
	i, j := 0, 0
	for i < len(lo) && j < len(hi) {
		if cmp(hi[j], lo[i]) < 0 {
			out = append(out, hi[j])
			j++
		} else {
			out = append(out, lo[i])
			i++
		}
	}
	out = append(out, lo[i:]...)
	return append(out, hi[j:]...)
}

// buildPrefixTree returns a tree of es (in the arrangement's order, rows
// distinct, weights nonzero) built bottom-up: leaves filled in order, the
// last one with the rest, as adds in order leave them, then each inner
// level over the one below with its children shared out evenly, so that
// every node but the root and the last leaf holds at least ptMin.
func buildPrefixTree(es []arrEntry) *prefixTree {
	if len(es) == 0 {
		return newPrefixTree()
	}
	t := &prefixTree{n: len(es)}
	level := make([]*ptNode, 0, (len(es)+ptOrder-1)/ptOrder)
	for i := 0; i < len(es); i += ptOrder {
		nd := &ptNode{n: min(ptOrder, len(es)-i)}
		for k, e := range es[i : i+nd.n] {
			nd.keys[k], nd.rows[k], nd.ws[k] = e.k0, e.r, e.w
		}
		level = append(level, nd)
	}
	t.leaves = len(level)
	// The first entry under each node of the level: its separator in the
	// level above.
	firstK := make([]uint64, len(level))
	firstR := make([]rowRef, len(level))
	for i, nd := range level {
		firstK[i], firstR[i] = nd.keys[0], nd.rows[0]
	}
	for len(level) > 1 {
		m := len(level)
		nodes := (m + ptOrder) / (ptOrder + 1)
		next := make([]*ptNode, 0, nodes)
		nk, nr := make([]uint64, 0, nodes), make([]rowRef, 0, nodes)
		start := 0
		for j := range nodes {
			kids := m / nodes
			if j < m%nodes {
				kids++
			}
			nd := &ptNode{n: kids - 1, kids: new([ptOrder + 1]*ptNode)}
			copy(nd.kids[:], level[start:start+kids])
			copy(nd.keys[:], firstK[start+1:start+kids])
			copy(nd.rows[:], firstR[start+1:start+kids])
			nk, nr = append(nk, firstK[start]), append(nr, firstR[start])
			next = append(next, nd)
			start += kids
		}
		t.inner += len(next)
		t.height++
		level, firstK, firstR = next, nk, nr
	}
	t.root = level[0]
	return t
}
