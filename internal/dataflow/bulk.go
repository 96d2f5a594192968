package dataflow

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/deltaview/deltaview/internal/expr"
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
	k1  uint64 // the second order component's summary, or 0
	i   int32
	cls uint8
	// x0 and x1 are the kinds of the first two order values when their
	// summaries are exact (integer-ordered, not NULL), else Unknown.
	x0, x1 value.Kind
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
	return a.load(loadSrc{z: rows, n: len(rows)})
}

// LoadRows is Load of rows each of weight one, a nil row standing for
// none (a table's rows by id, holes included): the rows are read in
// place, not copied into a Z-set first.
func (a *Arrangement) LoadRows(rows []value.Row) error {
	if a.n != 0 || a.isSet || len(rows) < 2*ptOrder || len(rows) >= 1<<31 {
		z := make(zset.ZSet, 0, len(rows))
		for _, r := range rows {
			if r != nil {
				z = append(z, zset.Entry{Row: r, W: 1})
			}
		}
		return a.Load(z)
	}
	return a.load(loadSrc{rs: rows, n: len(rows)})
}

// LoadRowsWhere is LoadRows of the rows for which keep reports true,
// decided in the pass that evaluates the rows' keys, so that each row is
// read once. keep is called for each non-nil row in order, with part 0,
// until the load fails; when split is set, a big load reads the two
// halves of rows on two goroutines at once, calling keep with part 0
// for the first half's rows and 1 for the second's (the calls of one
// part in order): split says that keep may be called so.
func (a *Arrangement) LoadRowsWhere(rows []value.Row, keep func(part int, row value.Row) bool, split bool) error {
	if a.n != 0 || a.isSet || len(rows) < 2*ptOrder || len(rows) >= 1<<31 {
		z := make(zset.ZSet, 0, len(rows)/2)
		for _, r := range rows {
			if r != nil && keep(0, r) {
				z = append(z, zset.Entry{Row: r, W: 1})
			}
		}
		return a.Load(z)
	}
	return a.load(loadSrc{rs: rows, n: len(rows), keep: keep, split: split})
}

// LoadRowsAsync is LoadRows on another goroutine, for an empty
// arrangement whose key and order are column references (nothing else is
// evaluated beside the caller's work); it returns a wait for its end and
// its error. Until then only AwaitLoad may be called, which waits too:
// a reader that may run before (a refill) calls it first. Otherwise the
// rows are loaded at once and the wait only returns the error.
func (a *Arrangement) LoadRowsAsync(rows []value.Row) (wait func() error) {
	if a.n != 0 || a.isSet || !a.colsOnly() || runtime.GOMAXPROCS(0) < 2 || len(rows) < bulkSplit {
		err := a.LoadRows(rows)
		return func() error { return err }
	}
	done := make(chan struct{})
	a.loading = done
	var err error
	go func() {
		defer close(done)
		err = a.LoadRows(rows)
	}()
	return func() error {
		<-done
		a.loading = nil
		return err
	}
}

// AwaitLoad waits for a LoadRowsAsync in progress to end.
func (a *Arrangement) AwaitLoad() {
	if c := a.loading; c != nil {
		<-c
	}
}

// loadSrc is what Load reads: a Z-set's entries, rows of weight one
// (nil ones skipped, and with keep those it rejects), or the pages of a
// deferred load's entries (pend).
type loadSrc struct {
	z     zset.ZSet
	rs    []value.Row
	pages []zset.ZSet
	n     int
	keep  func(part int, row value.Row) bool // LoadRowsWhere's
	split bool                               // keep may run on two goroutines
}

func (s *loadSrc) at(i int32) (value.Row, int64) {
	switch {
	case s.rs != nil:
		return s.rs[i], 1
	case s.pages != nil:
		e := &s.pages[i>>pendingShift][i&pendingMask]
		return e.Row, e.W
	}
	return s.z[i].Row, s.z[i].W
}

// loadChunk is how many of a run's entries Load gathers before it moves
// them into the run's tree: a run of a million rows (a top-k's index is
// one run) is not copied whole into a buffer first.
const loadChunk = 1 << 12

func (a *Arrangement) load(src loadSrc) error {
	if a.loadCountedRows(&src) {
		return nil
	}
	var p loadPart
	all := make([]loadKey, src.n)
	if h := src.n / 2; src.n >= bulkSplit && runtime.GOMAXPROCS(0) >= 2 && a.colsOnly() && (src.keep == nil || src.split) {
		// Column references read the rows only: both halves at once,
		// each into its own part of one buffer.
		var q loadPart
		var wg sync.WaitGroup
		wg.Go(func() { q = a.loadKeys(&src, 1, h, src.n, all[h:h:src.n]) })
		p = a.loadKeys(&src, 0, 0, h, all[:0:h])
		wg.Wait()
		if p.err == nil {
			p.err = q.err
		}
		if p.err != nil {
			return p.err
		}
		p.join(&q, src.n, all)
	} else if p = a.loadKeys(&src, 0, 0, src.n, all[:0]); p.err != nil {
		return p.err
	}
	keys, arena, spans, rowsB := p.keys, p.arena, p.spans, p.rowsB
	if a.through != nil {
		rowsB = 0 // the rows are the table's (ReadThrough)
	}
	// A bounded index keeps only its region after its first cut: only
	// the rows of the region are sorted and built (loadRegion).
	cut := 0
	if keys, cut = a.loadRegion(keys); cut > 0 {
		rowsB = 0
		for _, lk := range keys {
			row, _ := src.at(lk.i)
			rowsB += RowBytes(row)
		}
		defer a.cutLoaded(cut)
	}
	if spans == nil && cut == 0 && a.bnd == nil && a.loadCounted(keys, &src, rowsB) {
		return nil
	}
	var buf []byte
	key := func(j int32) []byte { return arena[spans[j][0]:spans[j][1]] }
	sameKey := func(x, y loadKey) bool {
		return x.kk == y.kk && x.cls == y.cls && (x.cls != keyLong || string(key(x.i)) == string(key(y.i)))
	}
	// byKey orders by key, then by the summaries of the first two order
	// components; what ties is ordered afterwards, a tie at a time, on one
	// goroutine, since evaluating sort expressions may not be safe on two.
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
		if x.k0 != y.k0 {
			return cmp.Compare(x.k0, y.k0)
		}
		return cmp.Compare(x.k1, y.k1)
	}
	if spans == nil {
		keys = radixKeys(keys) // no long keys: the order is of the summaries alone
	} else {
		keys = sortHalves(keys, byKey)
	}
	entry := func(lk loadKey) arrEntry {
		row, w := src.at(lk.i)
		return arrEntry{k0: lk.k0, r: a.ref(row), w: w}
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
	// tie appends the entries of rows whose order the summaries do not
	// tell, ordered by their sort values, then by the rows, equal rows
	// merged.
	tie := func(lks []loadKey) {
		ties, tvals = ties[:0], tvals[:0]
		for _, lk := range lks {
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
				rowsB -= RowBytes(tr.e.row()) // held once
				continue
			}
			es = append(es, tr.e)
		}
	}
	var tb treeBuilder
	var smalls runSlab
	// flush moves the entries gathered into the run's tree, leaving out
	// those whose weights cancelled (they are not held).
	flush := func() {
		for _, e := range es {
			if e.w == 0 {
				rowsB -= RowBytes(e.row())
				continue
			}
			tb.add(e)
		}
		clear(es)
		es = es[:0]
	}
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && sameKey(keys[i], keys[j]) {
			j++
		}
		if es == nil {
			es = make([]arrEntry, 0, min(j-i, loadChunk))
		}
		for p := i; p < j; {
			if len(es) >= loadChunk {
				flush() // every entry gathered so far is final
			}
			q := p + 1
			for q < j && keys[q].k0 == keys[p].k0 {
				q++
			}
			if q == p+1 {
				es = append(es, entry(keys[p]))
				p = q
				continue
			}
			if !exactTie(keys[p:q]) {
				tie(keys[p:q])
				p = q
				continue
			}
			// The first order values are equal and the second ordered by
			// their summaries: only the rows whose second values are equal
			// too are evaluated.
			for r := p; r < q; {
				t := r + 1
				for t < q && keys[t].k1 == keys[r].k1 {
					t++
				}
				if t == r+1 {
					es = append(es, entry(keys[r]))
				} else {
					tie(keys[r:t])
				}
				r = t
			}
			p = q
		}
		var k []byte
		if keys[i].cls == keyLong {
			k = key(keys[i].i)
		} else {
			row, _ := src.at(keys[i].i)
			buf, _, _ = a.AppendKey(buf[:0], row) // evaluated without error above
			k = buf
		}
		i = j
		var small []arrEntry
		if tb.n == 0 {
			// A run of few rows is held in a slice, not a tree.
			small = es[:0]
			for _, e := range es {
				if e.w != 0 {
					small = append(small, e)
				} else {
					rowsB -= RowBytes(e.row())
				}
			}
			if len(small) > maxSmallRun {
				es, small = small, nil
			} else {
				clear(es[len(small):])
				es = es[:0]
			}
		}
		if small == nil {
			flush()
		}
		if len(small) == 0 && tb.n == 0 {
			continue
		}
		r := a.putRun(k, smalls.run())
		if small != nil {
			r.small = smalls.cut(small)
			clear(small)
			for _, e := range r.small {
				a.n++
				a.total += e.w
			}
		} else {
			a.n += tb.n
			a.total += tb.total
			r.tr = tb.tree()
		}
		a.bytes += r.storeBytes()
	}
	if a.through != nil {
		rowsB = 0 // ties and cancellations above subtracted empty rows
	}
	a.bytes += rowsB
	a.rowsB += rowsB
	return nil
}

// loadPart is the first pass of Load over some of its rows: their sort
// keys, the long keys' encodings, and the bytes of the rows kept.
type loadPart struct {
	keys    []loadKey
	arena   []byte
	spans   [][2]int // spans[i]: row i's long key in arena; nil if none
	rowsB   int64
	err     error
	touched uintptr // touch's results, kept so that its reads are made
}

// touchAhead is how many rows ahead of its pass loadKeys reads a word of
// each of a table's rows (loadSrc.rs): a table whose rows were replaced
// has them all over the heap, each a cache miss, and the pass's work
// between two rows keeps few of those misses in flight, where a loop
// that only reads keeps dozens.
const touchAhead = 64

// touch reads the kind of the first and the last value of each row.
func touch(rows []value.Row) uintptr {
	var x uintptr
	for _, r := range rows {
		if n := len(r); n > 0 {
			x += uintptr(r[0].Kind()) + uintptr(r[n-1].Kind())
		}
	}
	return x
}

// colsOnly reports whether the key and the order are column references,
// which can be evaluated on two goroutines at once.
func (a *Arrangement) colsOnly() bool {
	for _, x := range a.spec.Key {
		if _, ok := x.(*expr.Col); !ok {
			return false
		}
	}
	for _, s := range a.spec.Sort {
		if _, ok := s.Expr.(*expr.Col); !ok {
			return false
		}
	}
	return true
}

// exactKind returns v's kind when its summary (value.Prefix64) orders
// and tells apart the values of that kind exactly, else Unknown.
func exactKind(v value.Value) value.Kind {
	if k := v.Kind(); value.IntOrdered(k) {
		return k
	}
	return value.Unknown
}

// loadKeys evaluates the keys of rows lo to hi, appending them to keys,
// which has room for them; part is the half of the rows they are, for
// src.keep.
func (a *Arrangement) loadKeys(src *loadSrc, part, lo, hi int, keys []loadKey) (p loadPart) {
	// Only keys of more than 7 bytes (not integers) are kept encoded,
	// for their summaries' ties; a run's key is encoded again from its
	// first row.
	var buf []byte
	p.keys = keys
	if src.rs != nil {
		p.touched = touch(src.rs[lo:min(lo+touchAhead, hi)])
	}
	for i := lo; i < hi; i++ {
		if src.rs != nil && (i-lo)%touchAhead == 0 && i+touchAhead < hi {
			p.touched += touch(src.rs[i+touchAhead : min(i+2*touchAhead, hi)])
		}
		row, _ := src.at(int32(i))
		if row == nil || src.keep != nil && !src.keep(part, row) {
			continue
		}
		var null bool
		buf, null, p.err = a.AppendKey(buf[:0], row)
		if p.err != nil {
			return p
		}
		if null && a.spec.DropNullKeys {
			continue
		}
		lk := loadKey{i: int32(i)}
		if len(a.spec.Sort) > 0 {
			s := &a.spec.Sort[0]
			v, err := s.Expr.Eval(row)
			if err != nil {
				p.err = err
				return p
			}
			lk.k0, lk.x0 = sortSummary(s, v), exactKind(v)
			if len(a.spec.Sort) > 1 {
				// An error here is left to the ties' evaluation, which
				// ignores it as cmp does; the summary is then not used.
				if v1, err := a.spec.Sort[1].Expr.Eval(row); err == nil {
					lk.k1, lk.x1 = sortSummary(&a.spec.Sort[1], v1), exactKind(v1)
					if a.pack {
						lk.k0 = a.pairSummary(v, v1)
						if !exactPair(lk.k0) {
							// Equal summaries may then hide unequal
							// first values (exactTie).
							lk.x0 = value.Unknown
						}
					}
				}
			}
		} else if lk.k0, p.err = a.k0(row); p.err != nil {
			return p
		}
		if n, ok := a.intKey(buf); ok {
			lk.kk = uint64(n)
		} else if len(buf) < 8 {
			var b [8]byte
			copy(b[:], buf)
			b[7] = byte(len(buf))
			lk.kk, lk.cls = binary.BigEndian.Uint64(b[:]), keyShort
		} else {
			lk.kk, lk.cls = binary.BigEndian.Uint64(buf), keyLong
			if p.spans == nil {
				p.spans = make([][2]int, src.n)
			}
			p.spans[i] = [2]int{len(p.arena), len(p.arena) + len(buf)}
			p.arena = append(p.arena, buf...)
		}
		p.keys = append(p.keys, lk)
		p.rowsB += RowBytes(row)
	}
	return p
}

// join appends q, the part of the rows after p's, to p: p's keys begin
// all, q's lie in it after them (a row left out leaves a gap), and are
// moved down to follow p's.
func (p *loadPart) join(q *loadPart, n int, all []loadKey) {
	np := len(p.keys)
	p.keys = all[:np+copy(all[np:], q.keys)]
	q.keys = p.keys[np:] // where they are now
	p.rowsB += q.rowsB
	if q.spans == nil {
		return
	}
	if p.spans == nil {
		p.spans = make([][2]int, n)
	}
	off := len(p.arena)
	for _, lk := range q.keys {
		if lk.cls == keyLong {
			sp := q.spans[lk.i]
			p.spans[lk.i] = [2]int{sp[0] + off, sp[1] + off}
		}
	}
	p.arena = append(p.arena, q.arena...)
}

// exactTie reports whether the rows of lks, whose first order summaries
// are equal, have equal first order values, and second ones of one kind
// that their summaries order exactly.
func exactTie(lks []loadKey) bool {
	x0, x1 := lks[0].x0, lks[0].x1
	if x0 == value.Unknown || x1 == value.Unknown {
		return false
	}
	for _, lk := range lks[1:] {
		if lk.x0 != x0 || lk.x1 != x1 {
			return false
		}
	}
	return true
}

// sortSummary is k0Of for any order component s: the summary of v in s's
// direction, NULL where s puts it.
func sortSummary(s *SortKey, v value.Value) uint64 {
	switch {
	case v.IsNull() && s.NullsFirst:
		return 0
	case v.IsNull():
		return math.MaxUint64
	case s.Desc:
		return ^value.Prefix64(v)
	}
	return value.Prefix64(v)
}

// treeBuilder gathers a run's entries in order into full leaves, then
// builds the tree's inner levels over them (buildPrefixTree's shape).
type treeBuilder struct {
	leaves []*ptNode
	n      int
	total  int64
}

func (b *treeBuilder) add(e arrEntry) {
	var nd *ptNode
	if k := len(b.leaves); k > 0 && b.leaves[k-1].n < ptOrder {
		nd = b.leaves[k-1]
	} else {
		nd = &ptNode{}
		b.leaves = append(b.leaves, nd)
	}
	nd.keys[nd.n], nd.rows[nd.n], nd.ws[nd.n] = e.k0, e.r, e.w
	nd.n++
	b.n++
	b.total += e.w
}

// tree returns the tree of the entries added and empties b.
func (b *treeBuilder) tree() *prefixTree {
	t := treeOfLeaves(b.leaves, b.n)
	clear(b.leaves)
	b.leaves, b.n, b.total = b.leaves[:0], 0, 0
	return t
}

// radixKeys returns keys ordered by (kk, cls, k0, k1), the order byKey
// gives keys none of which is long: a least significant digit radix sort
// over the bits in which some keys differ (a summary of small integers
// differs in its lowest few), each pass one move of the keys
// that counts the next pass's digits, where a comparison sort compares
// them twenty times.
func radixKeys(keys []loadKey) []loadKey {
	if len(keys) < 256 {
		slices.SortFunc(keys, func(x, y loadKey) int {
			return cmp.Or(cmp.Compare(x.kk, y.kk), cmp.Compare(x.cls, y.cls), cmp.Compare(x.k0, y.k0), cmp.Compare(x.k1, y.k1))
		})
		return keys
	}
	var or, and [4]uint64
	and = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	// ordered: the keys come in the order of their order components
	// already (a table's rows read by primary key, in an index whose order
	// is the row's first column), so that sorting by (kk, cls) alone,
	// each pass stable, leaves them in order within a key.
	ordered := true
	for i := range keys {
		k := &keys[i]
		or[0], and[0] = or[0]|k.k1, and[0]&k.k1
		or[1], and[1] = or[1]|k.k0, and[1]&k.k0
		or[2], and[2] = or[2]|uint64(k.cls), and[2]&uint64(k.cls)
		or[3], and[3] = or[3]|k.kk, and[3]&k.kk
		if i > 0 && ordered {
			p := &keys[i-1]
			ordered = p.k0 < k.k0 || p.k0 == k.k0 && p.k1 <= k.k1
		}
	}
	// The passes, least significant digit first: up to radixBits bits of
	// a field, over the span of bits in which some keys differ.
	var passes [4 * (64/radixBits + 1)]radixDigit
	n := 0
	for f := range 4 {
		if ordered && f < 2 {
			continue // the order components: already in order
		}
		diff := or[f] ^ and[f]
		if diff == 0 {
			continue
		}
		lo, hi := bits.TrailingZeros64(diff), 64-bits.LeadingZeros64(diff)
		for shift := lo; shift < hi; shift += radixBits {
			w := min(radixBits, hi-shift)
			passes[n] = radixDigit{f: uint8(f), shift: uint8(shift), mask: 1<<w - 1}
			n++
		}
	}
	if n == 0 {
		return keys
	}
	tmp := make([]loadKey, len(keys))
	src, dst := keys, tmp
	// Each pass moves the keys by its digit and, as it reads each key,
	// counts the next pass's digit: one read of the keys a pass.
	var count, next [1 << radixBits]int
	for i := range src {
		count[passes[0].of(&src[i])]++
	}
	for p := range n {
		sum := 0
		for d, c := range count[:int(passes[p].mask)+1] {
			count[d] = sum
			sum += c
		}
		d := passes[p]
		if p+1 < n {
			nd := passes[p+1]
			for i := range src {
				k := &src[i]
				j := d.of(k)
				dst[count[j]] = *k
				count[j]++
				next[nd.of(k)]++
			}
		} else {
			for i := range src {
				k := &src[i]
				j := d.of(k)
				dst[count[j]] = *k
				count[j]++
			}
		}
		count, next = next, [1 << radixBits]int{}
		src, dst = dst, src
	}
	return src
}

// radixBits is the widest digit of radixKeys: 2,048 buckets, whose
// cache lines being written fit in a core's second-level cache, so that
// the 17 bits of the keys of 100,000 values take two passes, not three.
const radixBits = 11

// radixDigit is the bits of a loadKey's field that a pass of radixKeys
// sorts by: the field (k1, k0, cls, kk, least significant first), the
// bits' shift and their mask.
type radixDigit struct {
	f, shift uint8
	mask     uint16
}

// of returns k's digit: a switch the compiler inlines into the passes,
// where a function value was a call a key and pass.
func (d radixDigit) of(k *loadKey) uint16 {
	var v uint64
	switch d.f {
	case 0:
		v = k.k1
	case 1:
		v = k.k0
	case 2:
		v = uint64(k.cls)
	default:
		v = k.kk
	}
	return uint16(v>>d.shift) & d.mask
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
	var b treeBuilder
	for _, e := range es {
		b.add(e)
	}
	return b.tree()
}

// treeOfLeaves returns the tree over leaves (full but the last, holding n
// entries in all), its inner levels built with their children shared out
// evenly.
func treeOfLeaves(leaves []*ptNode, n int) *prefixTree {
	if len(leaves) == 0 {
		return newPrefixTree()
	}
	t := &prefixTree{n: n}
	level := leaves
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

// runSlab hands out the runs of a load, and the entries of its small
// runs, cut from slabs: one allocation for many runs, where a load of a
// million rows under a hundred thousand keys made two a run. A small
// run's capacity ends with it, so that a run that grows copies itself
// out. The cost: a slab stays alive while any of its runs still uses it,
// so that an index whose runs later grow or go one by one may keep up to a
// slab (8 KB) for a run still in it.
type runSlab struct {
	free []arrEntry
	runs []run
}

// run returns a new empty run cut from the slab.
func (s *runSlab) run() *run {
	if len(s.runs) == 0 {
		s.runs = make([]run, runSlabRuns)
	}
	r := &s.runs[0]
	s.runs = s.runs[1:]
	return r
}

// runSlabRuns is how many runs a slab holds: 8 KB.
const runSlabRuns = 8192 / int(unsafe.Sizeof(run{}))

// runSlabEntries is how many entries a slab holds: 8 KB.
const runSlabEntries = 8192 / int(unsafe.Sizeof(arrEntry{}))

// cut returns a copy of es cut from the slab.
func (s *runSlab) cut(es []arrEntry) []arrEntry {
	if len(es) > len(s.free) {
		s.free = make([]arrEntry, max(runSlabEntries, len(es)))
	}
	r := s.free[:len(es):len(es)]
	s.free = s.free[len(es):]
	copy(r, es)
	return r
}
