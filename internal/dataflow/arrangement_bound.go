package dataflow

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Bounded indexes. A top-k's reserve index over a table (docs/reserves.md)
// is one run of every row of the table that passes the view's filter, and
// refills read it only from the last kept row on: the first 66 of 500,000
// rows in the benchmark's top-k. Bounded (Bound), the index keeps in order
// only its first rows, up to a frontier entry (the region); a change of a
// row past the frontier costs its summary and a comparison at Stage and is
// not kept. The rows past the frontier stay where they are anyway, in the
// table, unordered.
//
// A read that reaches the frontier without having read all it wanted (a
// refill reading past the region, because deletions drained it or because
// a view re-applies a filter that skips most rows) extends the region: the
// index is rebuilt from its source (the table's rows as of the index's last
// commit) with four times the rows, and the read goes on where it stopped.
// A read that needs every row (a descending scan, Weight, Len,
// Total, String) extends the region to the whole relation first. State
// reports the region.
//
// The region is first cut to a sixteenth of its rows (4,096 rows at
// least): by Load, which sorts only those (loadRegion), or at the first
// commit after the index is built some other way; a commit that leaves it
// more than twice that target cuts it back, so that rows entering at the
// top (ORDER BY ts DESC over a growing log) do not make it a full index
// again. What it costs: an extension reads and sorts the table's rows, as
// the index's cold start did; it comes only after as many rows as the
// region holds have left it from the top, each of which a full index would
// have paid a B+tree update for.

// BoundSource returns the rows an index holds as of its last commit: rows,
// each of weight one (nil ones skipped), from which undo (a change rows
// includes and the index has not absorbed yet: the commit in progress's)
// is taken back. It may be called by readers during a step, beside the
// owner's Stage.
type BoundSource func() (rows []value.Row, undo zset.ZSet, err error)

// boundMin is the fewest rows the region is cut to (SetBoundMin).
var boundMin atomic.Int64

func init() { boundMin.Store(4096) }

// SetBoundMin sets the fewest rows a region is cut to and returns the
// setting before. Tests set it low to make extensions frequent.
func SetBoundMin(n int) (old int) { return int(boundMin.Swap(int64(n))) }

type bounds struct {
	src BoundSource
	// mu is held by a reader for the whole of a scan, and by Stage while
	// it reads the frontier: one reader extends at a time, and a Stage
	// beside it sees the frontier before or after, with its generation.
	mu     sync.Mutex
	target int      // the rows the region is cut to
	front  arrEntry // the region's last entry, when not whole
	whole  bool     // the index holds every row (before the first cut too)
	cut    bool     // the first cut is done
	gen    int64    // counts the frontier's moves
	extend int64    // extensions, counted

	// The owner's: the frontier Stage filtered by, and the delta staged
	// (with its filter), staged again at Commit when a reader moved the
	// frontier meanwhile.
	stagedGen int64
	delta     zset.ZSet
	keep      func(value.Row) bool
}

// frontier is what Stage filters a delta by.
type frontier struct {
	front arrEntry
	whole bool
	gen   int64
}

// Bound makes the arrangement keep only its first rows in order, as
// described above, rebuilding more of them from src when a read needs
// them. Only the owner calls it, on an arrangement of one run (no key,
// and sort expressions); it has no effect on others.
func (a *Arrangement) Bound(src BoundSource) {
	if len(a.spec.Key) == 0 && len(a.spec.Sort) > 0 {
		a.bnd = &bounds{src: src, whole: true}
	}
}

// Extensions returns how many times a bounded arrangement's region was
// rebuilt from its source for a read.
func (a *Arrangement) Extensions() int64 {
	if a.bnd == nil {
		return 0
	}
	a.bnd.mu.Lock()
	defer a.bnd.mu.Unlock()
	return a.bnd.extend
}

// stageFrontier returns the frontier a Stage filters by, and false when
// it keeps every entry.
func (a *Arrangement) stageFrontier(delta zset.ZSet, keep func(value.Row) bool) (frontier, bool) {
	b := a.bnd
	if b == nil {
		return frontier{}, false
	}
	b.mu.Lock()
	f := frontier{front: b.front, whole: b.whole, gen: b.gen}
	b.mu.Unlock()
	b.stagedGen, b.delta, b.keep = f.gen, delta, keep
	return f, !f.whole
}

// past reports whether the entry (k0, row) orders after the frontier.
func (a *Arrangement) past(f *frontier, k0 uint64, row value.Row) bool {
	if k0 != f.front.k0 {
		return k0 > f.front.k0
	}
	return a.cmp(&arrEntry{k0: k0, r: refOf(row)}, &f.front) > 0
}

// restage stages again the delta of a Stage whose frontier a reader has
// moved since (an extension): the entries it left out may now be held.
func (a *Arrangement) restage() {
	b := a.bnd
	if b == nil || !a.isSet {
		return
	}
	b.mu.Lock()
	moved := b.gen != b.stagedGen
	b.mu.Unlock()
	if moved {
		d, keep := b.delta, b.keep
		a.Abort()
		// The delta was staged without error once.
		_ = a.StageWhere(d, keep)
	}
}

// afterCommit makes the first cut, and cuts a region that has grown to
// more than twice its target back to it.
func (a *Arrangement) afterCommit() {
	b := a.bnd
	if b == nil {
		return
	}
	b.delta, b.keep = nil, nil
	switch {
	case !b.cut:
		a.settle()
		b.cut = true
		b.target = max(int(boundMin.Load()), a.n/16)
	case a.n+len(a.held) <= 2*b.target:
		return
	}
	a.settle()
	b.mu.Lock()
	a.cutTo(b.target)
	b.mu.Unlock()
}

// loadRegion returns, of the keys of a Load into a bounded arrangement
// not yet cut, those of the rows its first cut would keep, with the
// cut's target: the rows whose first order summary is at most the
// target-th smallest, selected in one pass (about twice over the keys)
// instead of sorting every row to keep a sixteenth. Rows that tie with
// the last of them on the summary are all kept, for Load to order; the
// cut (cutLoaded) then leaves the target first. It returns keys and 0
// when the load is not cut.
func (a *Arrangement) loadRegion(keys []loadKey) ([]loadKey, int) {
	b := a.bnd
	if b == nil || b.cut {
		return keys, 0
	}
	target := max(int(boundMin.Load()), len(keys)/16)
	if len(keys) <= target {
		return keys, 0
	}
	return selectFirst(keys, target), target
}

// selectFirst reorders keys so that those whose k0 is at most the n-th
// smallest k0 (0 < n ≤ len(keys)) come first, and returns them: a
// quickselect partitioning three ways around the median of three keys
// drawn at random (a table's rows in id order are often periodic, which
// defeats pivots taken at fixed places: the first, middle and last of a
// range may be the same tooth's).
func selectFirst(keys []loadKey, n int) []loadKey {
	k := n - 1
	lo, hi := 0, len(keys)
	rng := rand.New(rand.NewPCG(uint64(len(keys)), uint64(n)))
	for hi-lo > 1 {
		at := func() uint64 { return keys[lo+rng.IntN(hi-lo)].k0 }
		x, y, z := at(), at(), at()
		p := max(min(x, y), min(max(x, y), z))
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch v := keys[i].k0; {
			case v < p:
				keys[lt], keys[i] = keys[i], keys[lt]
				lt++
				i++
			case v > p:
				gt--
				keys[i], keys[gt] = keys[gt], keys[i]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			lo, hi = k, k+1
		}
	}
	// keys[:k] order no later than keys[k], keys[k+1:] no earlier; those
	// of them equal to it join the first.
	m, v := n, keys[k].k0
	for i := n; i < len(keys); i++ {
		if keys[i].k0 == v {
			keys[m], keys[i] = keys[i], keys[m]
			m++
		}
	}
	return keys[:m]
}

// cutLoaded makes the first cut of a region Load selected (loadRegion):
// the target first entries kept, the frontier at the last of them. When
// equal rows merged leave no more than the target, every entry stays and
// the frontier is at the last: rows past it were left out all the same.
func (a *Arrangement) cutLoaded(target int) {
	// Not under b.mu: nothing reads the arrangement before Load ends
	// (a reader of a LoadRowsAsync waits for it first, AwaitLoad).
	b := a.bnd
	b.cut, b.target = true, target
	if a.n > target {
		a.cutTo(target)
		return
	}
	r := a.runs[""]
	if r == nil {
		return
	}
	if r.tr == nil {
		b.front = r.small[len(r.small)-1]
	} else {
		b.front = r.tr.last()
	}
	b.whole = false
	b.gen++
}

// cutTo keeps the first target entries of the run and drops the rest,
// moving the frontier to the last one kept. With no more than target
// entries it changes nothing: a region that held every row still does.
// The held entries are applied.
func (a *Arrangement) cutTo(target int) {
	b := a.bnd
	r := a.runs[""]
	if r == nil || a.n <= target {
		return
	}
	es := make([]arrEntry, 0, target)
	if r.tr == nil {
		es = append(es, r.small[:target]...)
	} else {
		r.tr.root.first(r.tr.height, target, &es)
	}
	before := r.storeBytes()
	if len(es) <= maxSmallRun {
		r.small, r.tr = es, nil
	} else {
		r.small, r.tr = nil, buildPrefixTree(es)
	}
	var rowsB, total int64
	for i := range es {
		rowsB += RowBytes(es[i].row())
		total += es[i].w
	}
	a.bytes += r.storeBytes() - before + rowsB - a.rowsB
	a.rowsB, a.total, a.n = rowsB, total, len(es)
	b.front, b.whole = es[len(es)-1], false
	b.gen++
}

// first appends to es the first entries under nd until es holds n, and
// reports whether it needs more.
func (nd *ptNode) first(height, n int, es *[]arrEntry) bool {
	if height == 0 {
		for i := 0; i < nd.n && len(*es) < n; i++ {
			*es = append(*es, arrEntry{k0: nd.keys[i], r: nd.rows[i], w: nd.ws[i]})
		}
		return len(*es) < n
	}
	for i := 0; i <= nd.n; i++ {
		if !nd.kids[i].first(height-1, n, es) {
			return false
		}
	}
	return true
}

// scanBounded runs scan, which calls its argument for the rows of the
// region in order, passing them to fn; when the region ends before fn
// stops it, the region is extended and the scan run again from the row
// after the last one fn saw (the rows of the region before it are the
// same rows after an extension). A descending scan extends to every row
// first.
func (a *Arrangement) scanBounded(desc bool, scan func(fn func(row value.Row, w int64) bool), fn func(row value.Row, w int64) bool) {
	b := a.bnd
	b.mu.Lock()
	defer b.mu.Unlock()
	if desc {
		a.extendWhole()
	}
	seen := 0
	for {
		i, stopped := 0, false
		scan(func(row value.Row, w int64) bool {
			if i++; i <= seen {
				return true
			}
			seen = i
			stopped = !fn(row, w)
			return !stopped
		})
		if stopped || b.whole {
			return
		}
		if a.extendTo(b.target * 4) {
			return // the source failed: the read ends where the region does
		}
	}
}

// extendWhole makes the region every row, with b.mu held.
func (a *Arrangement) extendWhole() {
	for !a.bnd.whole {
		if a.extendTo(max(a.bnd.target*4, a.n*4)) {
			return
		}
	}
}

// whole extends a bounded arrangement to every row, for a read that needs
// them all.
func (a *Arrangement) whole() {
	if a.bnd == nil {
		return
	}
	a.bnd.mu.Lock()
	a.extendWhole()
	a.bnd.mu.Unlock()
}

// extendTo rebuilds the region from the source with target rows, with
// b.mu held, and reports whether it failed (the region then stays as it
// was). The held entries are dropped: the source's rows include them.
func (a *Arrangement) extendTo(target int) (failed bool) {
	b := a.bnd
	rows, undo, err := b.src()
	if err != nil {
		return true
	}
	fresh := NewArrangement(a.spec)
	if err := fresh.LoadRows(rows); err != nil {
		return true
	}
	if len(undo) > 0 {
		neg := make(zset.ZSet, len(undo))
		for i, e := range undo {
			neg[i] = zset.Entry{Row: e.Row, W: -e.W}
		}
		if err := fresh.Stage(neg); err != nil {
			return true
		}
		fresh.Commit()
	}
	a.runs, a.n, a.bytes, a.rowsB, a.total = fresh.runs, fresh.n, fresh.bytes, fresh.rowsB, fresh.total
	clear(a.held)
	a.held = a.held[:0]
	a.nheld.Store(0)
	b.target, b.whole = target, true
	a.cutTo(target)
	b.gen++
	b.extend++
	return false
}
