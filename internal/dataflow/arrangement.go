package dataflow

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/intmap"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Arrangement keeps an indexed Z-set: the rows of one input with their
// nonzero weights, indexed by a key computed from each row, and ordered
// within a key by optional sort expressions and then by the row. It serves
// joins (the rows with a given key), and MIN/MAX and top-k refills (the
// rows of a key, or of everything when the key is empty, in order).
//
// # Representation
//
// A hash map from each key's encoding (value.AppendKey of the key values)
// to a run: the rows of that key in order, by the sort values (Desc and
// NullsFirst as ORDER BY has them) and then by the rows (zset.CompareRows,
// so -0 and 0, 1.5 and 1.50, are two entries, as in a Z-set). Reaching a
// key costs a hash and a cache miss or two however many keys there are,
// where one tree over all rows would cost a cache miss per level; a run is
// a sorted slice while small and a B-tree (github.com/tidwall/btree)
// beyond (see run). An entry is 32 bytes: the row (its first value and
// its length, without a slice's capacity), its weight, and a 64-bit summary of its first order component (value.Prefix64 of the first
// sort value, or of the row's first value when there is none; of the
// first two sort values when they are 32-bit integer columns, see
// packsPair), so that a search compares most entries by one integer in
// place and evaluates the sort values only on a tie. Reading every row in key order (Scan with a
// nil key) sorts the keys. The representation is private: readers see rows
// and weights through Lookup and Scan.
//
// # Ownership and sharing
//
// An arrangement has exactly one owner, the party that calls Stage, Commit
// and Abort: an op.Arrange node in a circuit (which passes its input on), a
// join keeping a private index, or the engine for a base table's
// arrangement shared by several views. Claim records the owner and panics on
// a second claim. Any number of readers (joins, aggregates, in the same
// circuit or in other circuits) hold the *Arrangement and only call its
// read methods. Retain and Release count the views that use it, so that its
// bytes can be split among them and it can be dropped with the last one.
//
// Readers always see the committed state. Since the owner stages during a
// step and commits only when the whole step (every circuit of the
// transaction) commits, every reader in a step sees the state before that
// step: exactly what the join's delta rule Δl⋈R + L⋈Δr + Δl⋈Δr requires.
//
// The owner must stage what the arrangement's readers take as the
// arrangement's input: a join reading an arrangement as its left index must
// be fed, as its left input, the same batches the owner stages.
//
// An Arrangement is not safe for concurrent use with its owner's Stage or
// Commit; concurrent readers are safe between commits.
type Arrangement struct {
	spec  ArrangementSpec
	runs  map[string]*run   // encoded key → its rows
	ints  *intmap.Map[*run] // for a key of one integer, date or timestamp: its Int() → its rows (a NULL key stays in runs)
	n     int               // distinct rows held
	bytes int64             // RowBytes of the rows, allocated bytes of the keys, the runs and their entries' storage
	rowsB int64             // RowBytes of the rows alone
	total int64             // sum of weights
	owned bool
	refs  int
	pack  bool // k0 summarises the first two sort values (packsPair)
	// loading, while LoadRowsAsync builds the arrangement on another
	// goroutine, is closed when it is done (AwaitLoad).
	loading chan struct{}
	staged  []stagedEntry
	arena   []byte        // the staged entries' keys, back to back
	svals   []value.Value // the staged entries' sort values, len(Sort) each, while Stage sorts
	isSet   bool          // a Stage is pending

	// Deferred loads (see DeferLoads): the batch staged, whether it was
	// staged so, and the batches committed while the arrangement was empty.
	deferLoads bool
	deferred   zset.ZSet
	isDeferred bool
	pending    []zset.ZSet // the batches' entries, copied into pages (pend)
	npending   int         // their entries

	// Held commits (see HoldCommits): the entries committed but not yet
	// applied, their number (read by readers without the lock), and the
	// lock under which a reader applies them.
	holds    bool
	held     []stagedEntry
	nheld    atomic.Int64
	holdMu   sync.Mutex
	heldSort zset.PrefixSorter // applyHeld's sort, and its other buffer
	heldTmp  []stagedEntry

	bnd *bounds // a bounded arrangement's region (see Bound)

	// packCols are the columns of the two sort values k0 packs.
	packCols [2]int

	// through, when set, reads a row from its id: the arrangement keeps
	// ids, not rows (see ReadThrough).
	through func(id int64) value.Row
}

// ArrangementSpec describes what an arrangement indexes.
type ArrangementSpec struct {
	// Name names the arranged input for EXPLAIN ("left", "orders").
	Name string
	// Columns names the arranged row's columns for EXPLAIN (optional).
	Columns []string
	// Key is the key, expressions over the row. Two arrangements looked up
	// with each other's keys must have keys of the same types (the binder
	// casts both sides to a common type). Empty: every row has the same,
	// empty key.
	Key []expr.Expr
	// Sort orders the rows within a key (before the row itself).
	Sort []SortKey
	// DropNullKeys leaves out rows whose key has a NULL component; joins,
	// under which such rows never match, set it to save the memory.
	DropNullKeys bool
}

// SortKey is one sort expression, as ORDER BY has it: Desc reverses the
// order of values, and NullsFirst puts NULL before every value (otherwise
// after), whatever the direction. PostgreSQL's defaults are ASC NULLS LAST
// and DESC NULLS FIRST; callers set NullsFirst explicitly.
type SortKey struct {
	Expr       expr.Expr
	Desc       bool
	NullsFirst bool // NULL before every value, in either direction
}

// arrEntry is one row of a run with its weight and k0, the summary of its
// first order component: entries whose k0 differ are ordered by it.
type arrEntry struct {
	k0 uint64
	r  rowRef
	w  int64
}

// row returns the entry's row.
func (e *arrEntry) row() value.Row { return e.r.row() }

// rowRef is a row held in an arrangement: its first value and its length,
// 16 bytes where a slice takes 24 (the capacity is not kept: a row read
// back has none beyond its length, so that appending to it copies).
type rowRef struct {
	p *value.Value
	n int
}

// refOf returns the reference to row.
func refOf(row value.Row) rowRef {
	if len(row) == 0 {
		return rowRef{}
	}
	return rowRef{p: &row[0], n: len(row)}
}

// emptyRow is the row of no columns, as a reference gives it back.
var emptyRow = value.Row{}

// row returns the row referred to.
func (r rowRef) row() value.Row {
	if r.n == 0 {
		return emptyRow
	}
	return unsafe.Slice(r.p, r.n)
}

// cmp orders two entries of a run: by k0, then by the sort values, then by
// the rows. The sort values were evaluated without error when the rows were
// staged; evaluating them again gives the same values.
func (a *Arrangement) cmp(x, y *arrEntry) int {
	if x.k0 != y.k0 {
		if x.k0 < y.k0 {
			return -1
		}
		return 1
	}
	if a.through != nil {
		return 0 // one id (a unique key), so one row
	}
	if x.r.n > 0 && x.r == y.r {
		// One row by reference (a table's row, retracted): no need to
		// evaluate anything.
		return 0
	}
	sorts := a.spec.Sort
	if a.pack && exactPair(x.k0) {
		sorts = sorts[2:] // the first two are equal
	}
	for _, s := range sorts {
		u, _ := s.Expr.Eval(x.row())
		v, _ := s.Expr.Eval(y.row())
		if c := compareSort(&s, u, v); c != 0 {
			return c
		}
	}
	return zset.CompareRows(x.row(), y.row())
}

// compareSort orders two values of one sort expression.
func compareSort(s *SortKey, u, v value.Value) int {
	switch un, vn := u.IsNull(), v.IsNull(); {
	case un && vn:
		return 0
	case un != vn:
		if un == s.NullsFirst {
			return -1
		}
		return 1
	}
	if s.Desc {
		return value.Compare(v, u)
	}
	return value.Compare(u, v)
}

// k0 returns the summary of row's first order component (of its first
// two when the arrangement packs them, see packsPair). NULL goes first
// or last whatever the direction; a value's summary is reversed under
// Desc. Equal summaries of a value and NULL are resolved by cmp.
func (a *Arrangement) k0(row value.Row) (uint64, error) {
	v, desc, nullsFirst := value.Null, false, false
	if a.pack {
		// Columns, read in place: evaluating them cannot fail.
		return a.pairSummary(colOf(row, a.packCols[0]), colOf(row, a.packCols[1])), nil
	}
	if len(a.spec.Sort) > 0 {
		s := &a.spec.Sort[0]
		var err error
		if v, err = s.Expr.Eval(row); err != nil {
			return 0, err
		}
		desc, nullsFirst = s.Desc, s.NullsFirst
	} else if len(row) > 0 {
		v = row[0]
	} else {
		return 0, nil
	}
	switch {
	case v.IsNull() && nullsFirst:
		return 0, nil
	case v.IsNull():
		return math.MaxUint64, nil
	case desc:
		return ^value.Prefix64(v), nil
	}
	return value.Prefix64(v), nil
}

type stagedEntry struct {
	off, end int // the key is arena[off:end]
	k0       uint64
	row      value.Row
	w        int64
	vi       int   // the sort values are svals[vi:vi+len(Sort)]
	bytes    int64 // RowBytes(row), computed while the row is at hand
}

// colOf is column i of row, as expr.Col evaluates it (NULL for a
// column the row does not have, where Col's error is not read).
func colOf(row value.Row, i int) value.Value {
	if uint(i) >= uint(len(row)) {
		return value.Null
	}
	return row[i]
}

// NewArrangement returns an empty arrangement, unowned and unreferenced.
func NewArrangement(spec ArrangementSpec) *Arrangement {
	a := &Arrangement{
		spec: spec,
		runs: map[string]*run{},
		pack: packsPair(spec),
	}
	if a.pack {
		a.packCols = [2]int{spec.Sort[0].Expr.(*expr.Col).Idx, spec.Sort[1].Expr.(*expr.Col).Idx}
	}
	if len(spec.Key) == 1 && value.KeyIsInt(spec.Key[0].Type().Kind) {
		// A probe finds the integer in an array or a map's slot, not a
		// string behind a pointer: a cache miss less per lookup.
		a.ints = intmap.New[*run]()
	}
	return a
}

// Spec returns what the arrangement indexes.
func (a *Arrangement) Spec() ArrangementSpec { return a.spec }

// Claim makes the caller the arrangement's owner, the only party that may
// call Stage, Commit and Abort. It panics if the arrangement is owned.
func (a *Arrangement) Claim() {
	if a.owned {
		panic(fmt.Sprintf("dataflow: arrangement %s already has an owner", a.Describe()))
	}
	a.owned = true
}

// Retain counts one more view using the arrangement.
func (a *Arrangement) Retain() { a.refs++ }

// Release counts one view less and returns how many remain; at zero the
// owner may drop the arrangement.
func (a *Arrangement) Release() int {
	if a.refs == 0 {
		panic("dataflow: arrangement released more often than retained")
	}
	a.refs--
	return a.refs
}

// Refs returns the number of views using the arrangement.
func (a *Arrangement) Refs() int { return a.refs }

// AppendKey appends to buf the encoding of row's key (the key expressions
// over row), as Lookup and LookupEncoded take it, and reports whether a
// component is NULL (such a key matches nothing under SQL's '=').
func (a *Arrangement) AppendKey(buf []byte, row value.Row) ([]byte, bool, error) {
	null := false
	for _, x := range a.spec.Key {
		v, err := x.Eval(row)
		if err != nil {
			return buf, false, err
		}
		null = null || v.IsNull()
		buf = value.AppendKey(buf, v)
	}
	return buf, null, nil
}

// Stage computes the keys of delta's rows and keeps them to apply at
// Commit. Only the owner calls it, at most once per step; delta must stay
// valid and unmodified until Commit or Abort. Stage changes nothing readers
// see. On error nothing is staged. A big delta is sorted here, in the order
// of keys and entries, so that Commit only merges: a commit's staging may
// run beside readers, its Commit may not.
func (a *Arrangement) Stage(delta zset.ZSet) error { return a.StageWhere(delta, nil) }

// StageWhere is Stage of the entries of delta whose rows keep accepts (all
// when keep is nil), in the same pass as the keys: a shared index's
// filters.
func (a *Arrangement) StageWhere(delta zset.ZSet, keep func(value.Row) bool) error {
	if a.isSet {
		panic(fmt.Sprintf("dataflow: arrangement %s staged twice in one step", a.Describe()))
	}
	if a.stageDeferred(delta) {
		return nil
	}
	a.staged = a.staged[:0]
	a.arena = a.arena[:0]
	front, bounded := a.stageFrontier(delta, keep)
	// A delta to sort keeps each entry's sort values, evaluated while its
	// row is at hand.
	sorting := len(delta) > minSortedStage && len(a.spec.Sort) > 0
	if cap(a.staged) < len(delta) {
		a.staged = make([]stagedEntry, 0, len(delta))
		a.arena = make([]byte, 0, 10*len(delta)) // a key of one integer: 9 bytes
	}
	for i := 0; i < len(delta); i++ {
		e := &delta[i]
		TouchRows(delta, i)
		// Filtered first, then placed against the bound: a row the
		// index does not hold costs no key, and its sort values are not
		// evaluated (nor can they fail) where the view's WHERE drops it.
		if keep != nil && !keep(e.Row) {
			continue
		}
		var k0 uint64
		var err error
		vi := len(a.svals)
		if sorting {
			for j := range a.spec.Sort {
				v, err := a.spec.Sort[j].Expr.Eval(e.Row)
				if err != nil {
					a.Abort()
					return err
				}
				a.svals = append(a.svals, v)
			}
			k0 = a.k0Of(a.svals[vi:])
		} else if k0, err = a.k0(e.Row); err != nil {
			a.Abort()
			return err
		}
		if bounded && a.past(&front, k0, e.Row) {
			a.svals = a.svals[:vi]
			continue
		}
		off := len(a.arena)
		var null bool
		a.arena, null, err = a.AppendKey(a.arena, e.Row)
		if err != nil {
			a.Abort()
			return err
		}
		if null && a.spec.DropNullKeys {
			a.arena, a.svals = a.arena[:off], a.svals[:vi]
			continue
		}
		bytes := int64(0)
		if a.through == nil {
			bytes = RowBytes(e.Row)
		} else if keep == nil {
			// A row replaced under its key and id: nothing to apply.
			pass, err := a.passThrough(delta, i, k0, a.arena[off:])
			if err != nil {
				a.Abort()
				return err
			}
			if pass {
				a.arena = a.arena[:off]
				i++
				continue
			}
		}
		a.staged = append(a.staged, stagedEntry{off: off, end: len(a.arena), k0: k0, row: e.Row, w: e.W, vi: vi,
			bytes: bytes})
	}
	if len(a.staged) > minSortedStage {
		a.sortStaged()
	}
	a.isSet = true
	return nil
}

// minSortedStage is the staged entries from which Stage sorts them: a
// smaller delta is applied as it comes.
const minSortedStage = 64

// Commit applies the staged delta, sorted by Stage when it is big (a cold
// start, a batch), so that a run's entries arrive in order.
func (a *Arrangement) Commit() {
	if a.isDeferred {
		a.commitDeferred()
		return
	}
	a.restage()
	if a.holds {
		a.hold()
	} else {
		a.apply(a.staged, a.arena, a.looseTies())
		a.Abort()
	}
	a.afterCommit()
}

// apply adds the entries of st, whose keys are in arena, to the runs;
// entries of one key are together and, when there are more than
// minSortedStage of them, in the run's order, except that with loose the
// entries of one key whose k0 are equal may be in any order among
// themselves (sortStaged).
func (a *Arrangement) apply(st []stagedEntry, arena []byte, loose bool) {
	var r *run
	var key []byte
	// A sorted batch walks each run's tree once, left to right.
	sorted := len(st) > minSortedStage
	var f ptFinger
	touchedTo := 0 // the entries whose runs have been touched
	for i := 0; i < len(st); i++ {
		s := &st[i]
		if sorted && i >= touchedTo {
			touchedTo = a.touchAhead(st[i:], arena) + i
		}
		k := arena[s.off:s.end]
		// tie: the entry's place in the run is not known to follow the
		// last one's, whose key and k0 it shares.
		tie := loose && i > 0 && st[i-1].k0 == s.k0 && string(k) == string(key)
		if r == nil || string(k) != string(key) {
			key, r = k, a.run(k)
			if r == nil {
				r = a.newRun(k)
			}
			f.ok = false
			if sorted {
				a.bytes += r.reserve(sameKeyGrowth(st[i:], arena))
			}
		}
		if i+1 < len(st) && a.replaceInPlace(r, s, &st[i+1], k, arena) {
			i++ // the pair's second entry is applied too
			continue
		}
		a.total += s.w
		sz := r.storeBytes()
		var before int64
		switch {
		case !sorted:
			before = r.add(a, arrEntry{k0: s.k0, r: a.ref(s.row), w: s.w})
		case tie:
			// Found from the root; the next entry too.
			before = r.add(a, arrEntry{k0: s.k0, r: a.ref(s.row), w: s.w})
			f.ok = false
		default:
			before = r.addFrom(a, arrEntry{k0: s.k0, r: a.ref(s.row), w: s.w}, &f)
		}
		a.bytes += r.storeBytes() - sz
		switch {
		case before == 0:
			a.n++
			a.bytes += s.bytes
			a.rowsB += s.bytes
		case before+s.w == 0:
			a.n--
			a.bytes -= s.bytes
			a.rowsB -= s.bytes
			if r.len() == 0 {
				a.dropRun(key, r)
				r = nil
			}
		}
	}
}

// sameKey counts the staged entries from st[0] on that share its key.
func sameKey(st []stagedEntry, arena []byte) int {
	k := arena[st[0].off:st[0].end]
	n := 1
	for n < len(st) && string(arena[st[n].off:st[n].end]) == string(k) {
		n++
	}
	return n
}

// run returns the run of an encoded key, nil if none.
func (a *Arrangement) run(key []byte) *run {
	if n, ok := a.intKey(key); ok {
		r, _ := a.ints.Get(n)
		return r
	}
	return a.runs[string(key)]
}

func (a *Arrangement) intKey(key []byte) (int64, bool) {
	if a.ints == nil {
		return 0, false
	}
	return value.IntKey(key)
}

// newRun adds an empty run for an encoded key.
func (a *Arrangement) newRun(key []byte) *run { return a.putRun(key, &run{}) }

// putRun adds r, empty, as the run of an encoded key.
func (a *Arrangement) putRun(key []byte, r *run) *run {
	if n, ok := a.intKey(key); ok {
		a.ints.Set(n, r)
		a.bytes += intRunOverhead
		return r
	}
	a.runs[string(key)] = r
	a.bytes += runOverhead + AllocBytes(len(key))
	return r
}

// dropRun removes an encoded key's run, now empty.
func (a *Arrangement) dropRun(key []byte, r *run) {
	a.bytes -= r.storeBytes()
	if n, ok := a.intKey(key); ok {
		a.ints.Delete(n, r)
		a.bytes -= intRunOverhead
		return
	}
	delete(a.runs, string(key))
	a.bytes -= runOverhead + AllocBytes(len(key))
}

// Abort drops the staged delta.
func (a *Arrangement) Abort() {
	clear(a.staged)
	clear(a.svals)
	a.deferred, a.isDeferred = nil, false
	if cap(a.staged) > maxReusedBatch {
		a.staged, a.arena, a.svals = nil, nil, nil
	}
	a.staged = a.staged[:0]
	a.arena = a.arena[:0]
	a.svals = a.svals[:0]
	a.isSet = false
}

// unsafeString views b as a string without copying; the string must not
// outlive b's contents.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// AllocBytes approximates what the runtime allocates for n bytes: Go's
// small size classes step by 8 up to 16, then by 16 up to 128 (and more
// coarsely above).
func AllocBytes(n int) int64 {
	switch {
	case n == 0:
		return 0
	case n <= 8:
		return 8
	case n <= 128:
		return int64(n+15) &^ 15
	}
	return int64(n+31) &^ 31
}

// Lookup calls fn for each committed row whose key equals key (compared as
// value.Compare does, so a NULL component equals NULL here: callers with
// SQL '=' semantics skip NULL keys), in order, until fn returns false. It
// encodes key into a new buffer; LookupEncoded with a reused buffer does
// not allocate.
func (a *Arrangement) Lookup(key value.Row, fn func(row value.Row, w int64) bool) {
	a.LookupEncoded(value.AppendRowKey(nil, key), fn)
}

// LookupEncoded is Lookup with the key encoded by AppendKey (or by
// value.AppendRowKey of the key values). fn must not keep key.
func (a *Arrangement) LookupEncoded(key []byte, fn func(row value.Row, w int64) bool) {
	a.scan(key, false, fn)
}

// Scan calls fn for each committed row of key in the order of the sort
// expressions then the row (reversed when desc), until fn returns false. A
// nil key scans every row, in key order first.
func (a *Arrangement) Scan(key value.Row, desc bool, fn func(row value.Row, w int64) bool) {
	var enc []byte
	if key != nil {
		enc = value.AppendRowKey(nil, key)
	}
	a.scan(enc, desc, fn)
}

func (a *Arrangement) scan(key []byte, desc bool, fn func(row value.Row, w int64) bool) {
	if a.bnd != nil {
		a.scanBounded(desc, func(fn func(row value.Row, w int64) bool) { a.scanAll(key, desc, fn) }, fn)
		return
	}
	a.scanAll(key, desc, fn)
}

func (a *Arrangement) scanAll(key []byte, desc bool, fn func(row value.Row, w int64) bool) {
	a.settle()
	if key != nil || len(a.spec.Key) == 0 {
		if r := a.run(key); r != nil {
			if a.through != nil {
				r.scanK(a, desc, fn)
			} else {
				r.scan(desc, fn)
			}
		}
		return
	}
	type keyed struct {
		enc string
		r   *run
	}
	all := make([]keyed, 0, len(a.runs))
	for k, r := range a.runs {
		all = append(all, keyed{k, r})
	}
	if a.ints != nil {
		kind := a.spec.Key[0].Type().Kind
		a.ints.All(func(n int64, r *run) bool {
			all = append(all, keyed{string(value.AppendKey(nil, value.FromInt(kind, n))), r})
			return true
		})
	}
	slices.SortFunc(all, func(x, y keyed) int { return strings.Compare(x.enc, y.enc) })
	if desc {
		slices.Reverse(all)
	}
	for _, k := range all {
		more := false
		if a.through != nil {
			more = k.r.scanK(a, desc, fn)
		} else {
			more = k.r.scan(desc, fn)
		}
		if !more {
			return
		}
	}
}

// Weight returns row's committed weight, 0 when absent.
func (a *Arrangement) Weight(row value.Row) int64 {
	a.whole()
	a.settle()
	var stack [64]byte
	key, _, err := a.AppendKey(stack[:0], row)
	if err != nil {
		// The row was staged, and so evaluated, before; an error now means
		// it was never held.
		return 0
	}
	r := a.run(key)
	if r == nil {
		return 0
	}
	k0, err := a.k0(row)
	if err != nil {
		return 0
	}
	e, _ := r.get(a, &arrEntry{k0: k0, r: refOf(row)})
	return e.w
}

// Len returns the number of distinct rows held.
func (a *Arrangement) Len() int {
	a.whole()
	a.settle()
	return a.n
}

// Total returns the sum of the weights held.
func (a *Arrangement) Total() int64 {
	a.whole()
	a.settle()
	return a.total
}

// State reports the rows held and their bytes: the rows, the encoded keys
// and the tree's per-entry overhead.
func (a *Arrangement) State() StateSize {
	a.settle()
	n := int64(a.n)
	// The rows' headers are in their entries, counted in the runs' storage
	// (an arrangement reading through holds no row, nor its bytes).
	b := a.bytes
	if a.through == nil {
		b -= n * rowHeaderBytes
	}
	if a.ints != nil {
		b += a.ints.Bytes(8)
	}
	b += a.heldBytes()
	return StateSize{Rows: n, Bytes: b}
}

// Describe says what the arrangement holds, for EXPLAIN:
// "index of orders on (#1) with columns (id, cust)".
func (a *Arrangement) Describe() string {
	var b strings.Builder
	b.WriteString("index of ")
	if a.spec.Name != "" {
		b.WriteString(a.spec.Name)
	} else {
		b.WriteString("input")
	}
	if len(a.spec.Key) == 0 {
		b.WriteString(" (no key)")
	} else {
		b.WriteString(" on (")
		for i, x := range a.spec.Key {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(x.String())
		}
		b.WriteByte(')')
	}
	if len(a.spec.Sort) > 0 {
		b.WriteString(" ordered by ")
		for i, s := range a.spec.Sort {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(s.Expr.String())
			if s.Desc {
				b.WriteString(" DESC")
			}
			switch {
			case s.NullsFirst && !s.Desc:
				b.WriteString(" NULLS FIRST")
			case !s.NullsFirst && s.Desc:
				b.WriteString(" NULLS LAST")
			}
		}
	}
	if len(a.spec.Columns) > 0 {
		b.WriteString(" with columns (")
		b.WriteString(strings.Join(a.spec.Columns, ", "))
		b.WriteByte(')')
	}
	return b.String()
}

// String prints the committed rows as a Z-set prints, in the arrangement's
// order.
func (a *Arrangement) String() string {
	var b strings.Builder
	a.scan(nil, false, func(row value.Row, w int64) bool {
		b.WriteString(zset.ZSet{{Row: row, W: w}}.String())
		return true
	})
	return b.String()
}
