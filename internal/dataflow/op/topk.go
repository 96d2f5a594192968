package op

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"github.com/tidwall/btree"
)

// TopK keeps, per partition, the first offset+limit rows of the partition
// in the sort order plus a reserve of rows below them; it emits the rows
// leaving (-) and entering (+) positions offset+1 … offset+limit. It is
// ORDER BY … LIMIT n OFFSET m, per partition for DISTINCT ON and
// row_number() ≤ n. Ties are broken by the whole row, so the order is
// total and the window deterministic.
//
// Invariant, per partition: every row of the partition ordered no later
// than the last kept row is kept, with its exact multiplicity (the kept
// rows are a prefix of the partition's order). Assertions above the last
// kept row are inserted, and kept rows beyond offset+limit+reserve
// positions are dropped; assertions below it are kept only while the
// partition is held whole and there is room. Retractions of kept rows
// update them; of rows below, change nothing. When a step leaves fewer
// kept positions than the window needs while the partition has more rows,
// the first offset+limit+reserve positions are read back from the index
// (the committed input plus this step's changes): a refill, counted. The
// index is the TopK's own arrangement of its input, or, over a stored
// relation's rows (TopKSpec.Base), the relation's shared index, read on
// from the last kept row.
type TopK struct {
	part    []expr.Expr
	order   []dataflow.SortKey
	limit   int64
	offset  int64
	reserve int64
	index   *dataflow.Arrangement
	own     bool
	base    *BaseRows

	groups *btree.BTreeG[*tkGroup]
	probe  tkGroup
	bytes  int64

	// Scratch of the step.
	arena  []value.Value // per input entry: partition key, sort keys
	recs   []tkRec
	kept   []tkEntry // staged kept rows, by range
	ch     []tkEntry // one partition's changes, reused from partition to partition and step to step
	chHigh int       // the most entries of ch a partition of the step used, which clearStep clears
	staged []tkStaged
	tie    []tkEntry // a refill's rows of one sort value
	out    zset.ZSet
	below  []*tkGroup // partitions with changes skipped by skipBelow
	aside  []tkRec    // the changes skipped in a step with retractions, for a refill
	full   []tkEntry  // a refill's changes: the partition's, with those set aside

	refills int64
	pending int64
	// uncounted is the multiplicity of input rows the next step counts
	// without being fed them (Uncounted).
	uncounted int64

	// orderCols, when every sort key is a column, are their indexes: a
	// change's sort keys are copied, not evaluated (appendOrderKeys).
	orderCols []int
	maxCol    int

	// copyKept says that the input's rows are valid only during the step
	// (Map.ReuseRows): a row the TopK keeps is copied (keepEntry).
	copyKept bool
}

var _ dataflow.Operator = (*TopK)(nil)

// TopKSpec describes a TopK.
type TopKSpec struct {
	// Partition is the PARTITION BY / DISTINCT ON key; empty: one
	// partition.
	Partition []expr.Expr
	// Order is the ORDER BY.
	Order []dataflow.SortKey
	// Limit is n (≥ 0) and Offset m (≥ 0).
	Limit, Offset int64
	// Reserve is how many rows to keep below the window; 0 means
	// DefaultTopKReserve.
	Reserve int64
	// Index is the refill source: an arrangement of the input keyed by
	// Partition and sorted by Order. OwnIndex makes the TopK its owner
	// (NewTopK claims it and each step stages the input in it).
	Index    *dataflow.Arrangement
	OwnIndex bool
	// Base, when set, says that the input is a stored relation's rows
	// through Base.Stages, and that Index arranges the relation's own rows
	// by the partition and sort keys read through those stages: an index
	// the engine keeps once per relation and order for every view that
	// needs it (UseIndex). The TopK neither owns nor counts it.
	Base *BaseRows
}

// DefaultTopKReserve is the reserve when none is given. Tests set it to 1
// to make refills frequent.
var DefaultTopKReserve int64 = 16

type tkEntry struct {
	row  value.Row
	keys []value.Value // the sort keys' values over row
	n    int64
}

type tkRec struct {
	off int // partition key, then sort keys, in the arena
	row value.Row
	w   int64
}

type tkGroup struct {
	key   value.Row
	total int64     // rows of the partition, with multiplicity
	held  int64     // the kept rows, with multiplicity
	kept  []tkEntry // a prefix of the partition's order
	// skipped is the multiplicity of this step's changes that order
	// after the last kept row (skipBelow), counted into total only.
	skipped int64
	listed  bool // in TopK.below
}

type tkStaged struct {
	g          *tkGroup
	isNew      bool
	same       bool // the kept rows do not change, only the total
	total      int64
	soff, slen int
}

// NewTopK returns a TopK; it returns an error for a negative limit or
// offset or a missing index.
func NewTopK(s TopKSpec) (*TopK, error) {
	if s.Limit < 0 || s.Offset < 0 {
		return nil, pgerr.New(pgerr.InvalidParameter, "LIMIT and OFFSET must not be negative")
	}
	if s.Index == nil {
		return nil, pgerr.New(pgerr.Internal, "top-k needs an index to refill from")
	}
	if s.Reserve <= 0 {
		s.Reserve = DefaultTopKReserve
	}
	if s.OwnIndex && s.Base == nil {
		s.Index.Claim()
		// Read only by refills (dataflow.Arrangement.HoldCommits).
		s.Index.HoldCommits()
	}
	t := &TopK{part: s.Partition, order: s.Order, limit: s.Limit, offset: s.Offset,
		reserve: s.Reserve, index: s.Index, own: s.OwnIndex && s.Base == nil, base: s.Base}
	t.orderCols, t.maxCol = colIndexes(s.Order)
	t.groups = btree.NewBTreeGOptions(func(a, b *tkGroup) bool { return value.CompareRows(a.key, b.key) < 0 },
		btree.Options{NoLocks: true})
	return t, nil
}

// CopyKept makes the TopK copy each input row it keeps, for an input
// whose rows are valid only until its next step (Map.ReuseRows). Only the
// rows entering the kept rows are copied; the index's rows it refills
// from are the index's.
func (t *TopK) CopyKept() { t.copyKept = true }

// Compare is the output's order: the sort keys, then the whole row. The
// engine reads the view back in this order.
func (t *TopK) Compare(a, b value.Row) int { return compareRowsBy(t.order, a, b) }

// Base returns the way from a stored relation to the input when the TopK
// refills from that relation's shared index, else nil.
func (t *TopK) Base() *BaseRows { return t.base }

// IndexSpec returns what the index the TopK refills from arranges.
func (t *TopK) IndexSpec() dataflow.ArrangementSpec { return t.index.Spec() }

// UseIndex makes a TopK over a stored relation refill from a, the
// relation's shared index by the TopK's partition and order, kept by
// its owner with every change of the relation. slot is ignored (a TopK
// has one index).
func (t *TopK) UseIndex(_ int, a *dataflow.Arrangement) error {
	if t.base == nil {
		return pgerr.New(pgerr.Internal, "top-k: only a top-k over a stored relation reads a shared index")
	}
	t.index = a
	return nil
}

// RowOrder returns a comparison of rows by order, then by the whole row:
// the order in which a view ending in ORDER BY without LIMIT reads back.
func RowOrder(order []dataflow.SortKey) func(a, b value.Row) int {
	return func(a, b value.Row) int { return compareRowsBy(order, a, b) }
}

// compareRowsBy compares rows by the sort keys order (a key that fails to
// evaluate is skipped), then by the whole row.
func compareRowsBy(order []dataflow.SortKey, a, b value.Row) int {
	for _, k := range order {
		x, errx := k.Expr.Eval(a)
		y, erry := k.Expr.Eval(b)
		if errx != nil || erry != nil {
			continue
		}
		if c := compareSortKey(k, x, y); c != 0 {
			return c
		}
	}
	return value.CompareRows(a, b)
}

// Refills returns how many times a partition's kept rows were refilled
// from the index (in committed steps).
func (t *TopK) Refills() int64 { return t.refills }

// capacity is how many positions a partition keeps at most, beyond the
// entry that crosses it.
func (t *TopK) capacity() int64 { return t.offset + t.limit + t.reserve }

func (t *TopK) cmp(a, b *tkEntry) int {
	if c := compareSortKeys(t.order, a.keys, b.keys); c != 0 {
		return c
	}
	return value.CompareRows(a.row, b.row)
}

// Step stages each touched partition's kept rows and emits the changes of
// its window.
func (t *TopK) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(t.out)
	t.out = nil
	out, err := t.step(in[0], out)
	if err != nil {
		t.Abort()
		clear(out)
		t.out = out[:0]
		return nil, err
	}
	out = zset.Consolidate(out)
	t.out = out
	return out, nil
}

func (t *TopK) step(batch zset.ZSet, out zset.ZSet) (zset.ZSet, error) {
	if t.own {
		if err := t.index.Stage(batch); err != nil {
			return out, err
		}
	}
	if len(t.part) == 0 {
		below, err := t.oneBelow(batch)
		if err != nil || below {
			return out, err
		}
	}
	t.arena, t.recs = t.arena[:0], t.recs[:0]
	asserts := true
	for _, e := range batch {
		asserts = asserts && e.W > 0
		off := len(t.arena)
		for _, x := range t.part {
			v, err := x.Eval(e.Row)
			if err != nil {
				return out, err
			}
			t.arena = append(t.arena, v)
		}
		var err error
		if t.arena, err = t.appendOrderKeys(t.arena, e.Row); err != nil {
			return out, err
		}
		t.recs = append(t.recs, tkRec{off: off, row: e.Row, w: e.W})
	}
	np, no := len(t.part), len(t.order)
	if len(t.recs) >= 64 {
		t.skipBelow(asserts)
	}
	keyOf := func(r tkRec) value.Row { return t.arena[r.off : r.off+np] }
	entryOf := func(r tkRec) tkEntry {
		return tkEntry{row: r.row, keys: t.arena[r.off+np : r.off+np+no], n: r.w}
	}
	// By partition, then in the partition's order.
	cmpRecs := func(a, b tkRec) int {
		if c := value.CompareRows(keyOf(a), keyOf(b)); c != 0 {
			return c
		}
		ea, eb := entryOf(a), entryOf(b)
		return t.cmp(&ea, &eb)
	}
	if len(t.recs) < prefixSortMin || len(t.part) == 0 && !t.oneKind() {
		slices.SortFunc(t.recs, cmpRecs)
	} else {
		t.sortRecs(cmpRecs)
	}
	ch := t.ch[:0]
	defer func() { t.ch = ch[:0] }()
	for i := 0; i < len(t.recs); {
		key := keyOf(t.recs[i])
		j := i + 1
		for j < len(t.recs) && value.CompareRows(keyOf(t.recs[j]), key) == 0 {
			j++
		}
		ch = ch[:0]
		for _, r := range t.recs[i:j] {
			ch = append(ch, entryOf(r))
		}
		t.chHigh = max(t.chHigh, len(ch))
		var err error
		if out, err = t.stageGroup(key, ch, out); err != nil {
			return out, err
		}
		i = j
	}
	for _, g := range t.below {
		if g.skipped != 0 { // no other change to the partition
			total := g.total + g.skipped
			if total < 0 {
				return out, pgerr.New(pgerr.Internal, "top-k: partition %s would hold %d rows", zset.FormatRow(g.key), total)
			}
			t.staged = append(t.staged, tkStaged{g: g, total: total, same: true})
			g.skipped = 0
		}
	}
	return out, nil
}

// skipBelow drops from the step's records, all of them assertions, those
// that order after the last kept row of a partition not held whole,
// counting them in the partition's skipped: such an assertion changes
// nothing but the partition's total (stageGroup would pass over it), and
// with no retraction in the step the kept rows cannot fall short and need
// a refill that reads the step's changes. A big batch (a cold start's)
// then sorts only the rows that may enter a window.
//
// A step with retractions (a batch of replaced rows) skips the same
// records, retractions among them: a retraction of a row after the last
// kept row changes only the total too. It sets them aside (t.aside): when
// the partition's kept rows fall short, its refill reads the step's
// changes after the last kept row, these among them (withAside).
func (t *TopK) skipBelow(asserts bool) {
	np, no := len(t.part), len(t.order)
	var g *tkGroup
	var key value.Row
	looked := false
	recs := t.recs[:0]
	for _, r := range t.recs {
		k := t.arena[r.off : r.off+np]
		if !looked || value.CompareRows(key, k) != 0 {
			t.probe.key = k
			g, _ = t.groups.Get(&t.probe)
			t.probe.key = nil
			key, looked = k, true
		}
		if g != nil && len(g.kept) > 0 && g.held < g.total {
			e := tkEntry{row: r.row, keys: t.arena[r.off+np : r.off+np+no]}
			if t.cmp(&e, &g.kept[len(g.kept)-1]) > 0 {
				if !g.listed {
					g.listed = true
					t.below = append(t.below, g)
				}
				g.skipped += r.w
				if !asserts {
					t.aside = append(t.aside, r)
				}
				continue
			}
		}
		recs = append(recs, r)
	}
	clear(t.recs[len(recs):])
	t.recs = recs
}

// oneKind reports whether the step's first sort values that are not NULL
// are of one kind, whose prefixes then order as the values do.
func (t *TopK) oneKind() bool {
	if len(t.order) == 0 {
		return false
	}
	kind := value.Unknown
	for _, r := range t.recs {
		switch v := t.arena[r.off]; {
		case v.IsNull():
		case kind == value.Unknown:
			kind = v.Kind()
		case v.Kind() != kind:
			return false
		}
	}
	return true
}

// sortRecs orders a big step's records as cmpRecs does, by radix on a
// summary of each record's first partition value or, with no partition,
// of its first sort value (after the direction and NULLs' place), and by
// cmpRecs only where summaries tie.
func (t *TopK) sortRecs(cmpRecs func(a, b tkRec) int) {
	recs, arena := t.recs, t.arena
	np := len(t.part)
	var prefix func(i int) (uint8, uint64, bool)
	if np > 0 {
		prefix = func(i int) (uint8, uint64, bool) { return value.Prefix(arena[recs[i].off]) }
	} else {
		s := &t.order[0]
		prefix = func(i int) (uint8, uint64, bool) {
			v := arena[recs[i].off]
			if v.IsNull() {
				if s.NullsFirst {
					return 0, 0, false
				}
				return 2, 0, false
			}
			_, bits, _ := value.Prefix(v)
			if s.Desc {
				bits = ^bits
			}
			return 1, bits, false
		}
	}
	ps := tkSorts.Get().(*recSort[tkRec])
	defer tkSorts.Put(ps)
	perm := ps.s.Sort(len(recs), false, prefix, func(i, j int) int { return cmpRecs(recs[i], recs[j]) })
	tmp := append(ps.tmp[:0], recs...)
	for j, i := range perm {
		recs[j] = tmp[i]
	}
	clear(tmp)
	ps.tmp = tmp[:0]
}

// stageGroup applies one partition's changes ch (in order, rows distinct)
// to a staged copy of its kept rows and emits its window's changes.
func (t *TopK) stageGroup(key value.Row, ch []tkEntry, out zset.ZSet) (zset.ZSet, error) {
	t.probe.key = key
	g, found := t.groups.Get(&t.probe)
	t.probe.key = nil
	if !found {
		g = &tkGroup{key: slices.Clone(key)}
	}
	skipped := g.skipped + t.uncounted
	g.skipped, t.uncounted = 0, 0
	if found && t.allBelow(g, ch) {
		// Every change falls below the kept rows of a partition not held
		// whole: the kept rows, and so the window, stay as they are.
		total := g.total + skipped
		for i := range ch {
			total += ch[i].n
		}
		if total < 0 {
			return out, pgerr.New(pgerr.Internal, "top-k: partition %s would hold %d rows", zset.FormatRow(key), total)
		}
		t.staged = append(t.staged, tkStaged{g: g, total: total, same: true})
		return out, nil
	}
	off := len(t.kept)
	t.kept = append(t.kept, g.kept...)
	l := len(g.kept)
	held := g.held
	// The skipped changes order after every change of ch (after the last
	// kept row, where ch's are not): they count last, as in ch's order.
	total := g.total
	capa := t.capacity()
	for i := range ch {
		x := &ch[i]
		kept := t.kept[off : off+l]
		pos, found := slices.BinarySearchFunc(kept, x, func(e tkEntry, x *tkEntry) int { return t.cmp(&e, x) })
		covered := pos < l
		switch {
		case found:
			kept[pos].n += x.n
			held += x.n
			if kept[pos].n < 0 {
				return out, errNegativeCount()
			}
			if kept[pos].n == 0 {
				t.kept = slices.Delete(t.kept, off+pos, off+pos+1)
				l--
			}
		case x.n < 0 && covered:
			return out, pgerr.New(pgerr.Internal, "top-k: retracting %s, which the input does not hold", zset.FormatRow(x.row))
		case x.n < 0:
		case covered || (held == total && held < capa):
			t.kept = slices.Insert(t.kept, off+pos, t.keepEntry(*x))
			l++
			held += x.n
			for l > 1 && held-t.kept[off+l-1].n >= capa {
				held -= t.kept[off+l-1].n
				t.kept = slices.Delete(t.kept, off+l-1, off+l)
				l--
			}
		}
		total += x.n
	}
	total += skipped
	if total < 0 {
		return out, pgerr.New(pgerr.Internal, "top-k: partition %s would hold %d rows", zset.FormatRow(key), total)
	}
	if need := min(t.offset+t.limit, total); held < need {
		var err error
		if skipped != 0 || len(t.aside) > 0 {
			ch = t.withAside(key, ch)
		}
		if t.base != nil {
			l, err = t.refillBase(key, ch, capa, off, l)
		} else {
			t.kept = t.kept[:off]
			l, err = t.refill(key, ch, capa)
		}
		if err != nil {
			return out, err
		}
		held = 0
		for _, e := range t.kept[off : off+l] {
			held += e.n
		}
		if held < need {
			return out, pgerr.New(pgerr.Internal, "top-k: the index holds %d of the partition's %d rows", held, total)
		}
		t.pending++
	}
	t.staged = append(t.staged, tkStaged{g: g, isNew: !found, total: total, soff: off, slen: l})
	return t.diffWindows(g.kept, t.kept[off:off+l], out), nil
}

// oneBelow stages the step of a TopK of one partition when every change
// of batch orders after the last kept row and the partition has rows
// beyond its kept ones: the change of a row outside the window costs
// its sort keys and one comparison, before any sorting or lookup. It
// reports whether it staged the step.
func (t *TopK) oneBelow(batch zset.ZSet) (bool, error) {
	g, ok := t.groups.Min()
	if !ok || len(g.kept) == 0 || g.held == g.total {
		return false, nil
	}
	last := &g.kept[len(g.kept)-1]
	total := g.total
	keys := t.arena[:0]
	for _, e := range batch {
		var err error
		if keys, err = t.appendOrderKeys(keys[:0], e.Row); err != nil {
			return false, err
		}
		x := tkEntry{row: e.Row, keys: keys}
		if t.cmp(&x, last) <= 0 {
			clear(keys)
			t.arena = keys[:0]
			return false, nil
		}
		total += e.W
	}
	clear(keys)
	t.arena = keys[:0]
	if total < 0 {
		return false, pgerr.New(pgerr.Internal, "top-k: partition %s would hold %d rows", zset.FormatRow(g.key), total)
	}
	t.staged = append(t.staged, tkStaged{g: g, total: total, same: true})
	return true, nil
}

// appendOrderKeys appends row's sort keys to keys.
func (t *TopK) appendOrderKeys(keys []value.Value, row value.Row) ([]value.Value, error) {
	if t.orderCols != nil && t.maxCol < len(row) {
		for _, c := range t.orderCols {
			keys = append(keys, row[c])
		}
		return keys, nil
	}
	for _, k := range t.order {
		v, err := k.Expr.Eval(row)
		if err != nil {
			return keys, err
		}
		keys = append(keys, v)
	}
	return keys, nil
}

// colIndexes returns the columns the sort keys are, and the largest;
// nil when a key is not a column.
func colIndexes(order []dataflow.SortKey) ([]int, int) {
	cols, hi := make([]int, len(order)), 0
	for i, k := range order {
		c, ok := k.Expr.(*expr.Col)
		if !ok || c.Idx < 0 {
			return nil, 0
		}
		cols[i], hi = c.Idx, max(hi, c.Idx)
	}
	return cols, hi
}

// allBelow reports whether every change of ch orders after the partition's
// last kept row while the partition has rows beyond its kept ones, so that
// none of them can enter the kept rows.
func (t *TopK) allBelow(g *tkGroup, ch []tkEntry) bool {
	if len(g.kept) == 0 || g.held == g.total {
		return false // held whole: an assertion below may still be kept
	}
	last := &g.kept[len(g.kept)-1]
	for i := range ch {
		if t.cmp(&ch[i], last) <= 0 {
			return false
		}
	}
	return true
}

// refill appends to t.kept the first capa positions of the partition: the
// index's committed rows merged with the step's changes ch.
func (t *TopK) refill(key value.Row, ch []tkEntry, capa int64) (int, error) {
	off := len(t.kept)
	var held int64
	emit := func(e tkEntry) bool {
		if e.n > 0 {
			t.kept = append(t.kept, e)
			held += e.n
		}
		return held < capa
	}
	j := 0
	var err error
	more := true
	var prev tkEntry
	t.index.Scan(key, false, func(row value.Row, w int64) bool {
		e := tkEntry{row: row, n: w, keys: make([]value.Value, len(t.order))}
		for i, k := range t.order {
			if e.keys[i], err = k.Expr.Eval(row); err != nil {
				return false
			}
		}
		if prev.row != nil && t.cmp(&prev, &e) >= 0 {
			err = pgerr.New(pgerr.Internal, "top-k: the index's order is not the operator's: %s before %s",
				zset.FormatRow(prev.row), zset.FormatRow(row))
			return false
		}
		prev = e
		for ; j < len(ch); j++ {
			c := t.cmp(&ch[j], &e)
			if c > 0 {
				break
			}
			if c == 0 {
				e.n += ch[j].n
				j++
				break
			}
			if more = emit(t.keepEntry(ch[j])); !more {
				return false
			}
		}
		more = emit(e)
		return more
	})
	if err != nil {
		return 0, err
	}
	for ; more && j < len(ch); j++ {
		more = emit(t.keepEntry(ch[j]))
	}
	return len(t.kept) - off, nil
}

// refillBase appends to the kept rows t.kept[off:off+l] (a prefix of the
// partition's order, this step's changes applied) the rows after them, up
// to capa positions: the shared index's committed rows of the relation
// from the last kept row's sort values on, through the stages, merged
// with the step's changes ch after the last kept row. Under a projection,
// rows of one sort value are read whole and ordered by the input row,
// which the index's order by the relation's row need not match.
func (t *TopK) refillBase(key value.Row, ch []tkEntry, capa int64, off, l int) (int, error) {
	t.index.AwaitLoad() // a shared index may still be loading during a cold start
	var held int64
	for _, e := range t.kept[off : off+l] {
		held += e.n
	}
	var last tkEntry
	var from []value.Value
	j := 0
	if l > 0 {
		last = t.kept[off+l-1]
		from = last.keys
		for j < len(ch) && t.cmp(&ch[j], &last) <= 0 {
			j++
		}
	}
	emit := func(e tkEntry) bool {
		if e.n > 0 {
			t.kept = append(t.kept, e)
			held += e.n
		}
		return held < capa
	}
	// push emits the changes before e, then e with the change of its row.
	push := func(e tkEntry) bool {
		for ; j < len(ch); j++ {
			c := t.cmp(&ch[j], &e)
			if c > 0 {
				break
			}
			if c == 0 {
				e.n += ch[j].n
				j++
				break
			}
			if !emit(t.keepEntry(ch[j])) {
				return false
			}
		}
		return emit(e)
	}
	tie := t.tie[:0]
	flush := func() bool {
		slices.SortFunc(tie, func(a, b tkEntry) int { return t.cmp(&a, &b) })
		more := true
		for i := 0; i < len(tie) && more; {
			e := tie[i]
			for i++; i < len(tie) && t.cmp(&tie[i], &e) == 0; i++ {
				e.n += tie[i].n
			}
			if l > 0 && t.cmp(&e, &last) <= 0 {
				continue // kept already
			}
			more = push(e)
		}
		tie = tie[:0]
		return more
	}
	projects := t.base.Projects()
	more := true
	var err error
	t.index.ScanFrom(key, from, func(row value.Row, w int64) bool {
		r, ok, aerr := t.base.apply(row)
		if aerr != nil || !ok {
			err = aerr
			return aerr == nil
		}
		e := tkEntry{row: r, n: w, keys: make([]value.Value, len(t.order))}
		for i, k := range t.order {
			if e.keys[i], err = k.Expr.Eval(r); err != nil {
				return false
			}
		}
		if len(tie) > 0 {
			c := compareSortKeys(t.order, tie[0].keys, e.keys)
			if c == 0 && !projects {
				// The rows are the relation's, in the index's order,
				// which refines the operator's: no need to read the
				// whole tie before emitting.
				c = t.cmp(&tie[len(tie)-1], &e)
			}
			if c > 0 {
				err = pgerr.New(pgerr.Internal, "top-k: the shared index's order is not the operator's: %s before %s",
					zset.FormatRow(tie[0].row), zset.FormatRow(r))
				return false
			}
			if c < 0 {
				if more = flush(); !more {
					return false
				}
			}
		}
		tie = append(tie, e)
		return true
	})
	if err == nil && more && len(tie) > 0 {
		more = flush()
	}
	clear(tie)
	t.tie = tie[:0]
	if err != nil {
		return 0, err
	}
	for ; more && j < len(ch); j++ {
		more = emit(t.keepEntry(ch[j]))
	}
	return len(t.kept) - off, nil
}

// keepEntry returns a step's change e as the kept rows hold it: its sort
// keys out of the step's arena, and its row copied when the input's rows
// do not outlive the step (CopyKept).
func (t *TopK) keepEntry(e tkEntry) tkEntry {
	if e.n <= 0 {
		return e // a retraction is never kept
	}
	e.keys = slices.Clone(e.keys)
	if t.copyKept {
		e.row = slices.Clone(e.row)
	}
	return e
}

// diffWindows emits the rows of the window of kept b not in that of a
// (+), and of a not in b (-): both are in order, so one merge does it.
func (t *TopK) diffWindows(a, b []tkEntry, out zset.ZSet) zset.ZSet {
	lo, hi := t.offset, t.offset+t.limit
	wa, wb := windowIter{kept: a, lo: lo, hi: hi}, windowIter{kept: b, lo: lo, hi: hi}
	ea, na := wa.next()
	eb, nb := wb.next()
	for ea != nil || eb != nil {
		c := 0
		switch {
		case ea == nil:
			c = 1
		case eb == nil:
			c = -1
		default:
			c = t.cmp(ea, eb)
		}
		switch {
		case c < 0:
			out = append(out, zset.Entry{Row: ea.row, W: -na})
			ea, na = wa.next()
		case c > 0:
			out = append(out, zset.Entry{Row: eb.row, W: nb})
			eb, nb = wb.next()
		default:
			if nb != na {
				out = append(out, zset.Entry{Row: eb.row, W: nb - na})
			}
			ea, na = wa.next()
			eb, nb = wb.next()
		}
	}
	return out
}

// windowIter walks the entries of kept that overlap positions [lo, hi),
// with the number of their copies inside.
type windowIter struct {
	kept   []tkEntry
	lo, hi int64
	i      int
	pos    int64
}

func (w *windowIter) next() (*tkEntry, int64) {
	for w.i < len(w.kept) && w.pos < w.hi {
		e := &w.kept[w.i]
		start, end := w.pos, w.pos+e.n
		w.i++
		w.pos = end
		if n := min(end, w.hi) - max(start, w.lo); n > 0 {
			return e, n
		}
	}
	return nil, 0
}

// Commit applies the staged partitions.
func (t *TopK) Commit() {
	if t.own {
		t.index.Commit()
	}
	for _, s := range t.staged {
		g := s.g
		if s.same {
			g.total = s.total
			continue
		}
		t.bytes -= t.keptBytes(g.kept)
		kept := t.kept[s.soff : s.soff+s.slen]
		if cap(g.kept) < len(kept) || cap(g.kept) > 2*len(kept)+8 {
			g.kept = make([]tkEntry, 0, len(kept))
		}
		g.kept = append(g.kept[:0], kept...)
		clear(g.kept[len(g.kept):cap(g.kept)])
		t.bytes += t.keptBytes(g.kept)
		g.total, g.held = s.total, heldBy(g.kept)
		fixed := dataflow.RowBytes(g.key) + int64(unsafe.Sizeof(tkGroup{})) + 16
		switch {
		case s.isNew && s.total > 0:
			t.groups.Set(g)
			t.bytes += fixed
		case !s.isNew && s.total == 0:
			t.groups.Delete(g)
			t.bytes -= fixed
		}
	}
	t.refills += t.pending
	t.clearStep()
}

func (t *TopK) keptBytes(kept []tkEntry) int64 {
	b := int64(cap(kept)) * int64(unsafe.Sizeof(tkEntry{}))
	for _, e := range kept {
		b += int64(len(e.keys)) * int64(unsafe.Sizeof(value.Value{}))
	}
	return b
}

func heldBy(kept []tkEntry) int64 {
	var n int64
	for _, e := range kept {
		n += e.n
	}
	return n
}

// Abort drops the staged partitions.
func (t *TopK) Abort() {
	if t.own {
		t.index.Abort()
	}
	t.clearStep()
}

func (t *TopK) clearStep() {
	t.pending, t.uncounted = 0, 0
	for _, g := range t.below {
		g.skipped, g.listed = 0, false
	}
	clear(t.aside)
	t.aside = t.aside[:0]
	clear(t.full)
	t.full = t.full[:0]
	clear(t.below)
	t.below = t.below[:0]
	clear(t.staged)
	t.staged = t.staged[:0]
	clear(t.kept)
	t.kept = t.kept[:0]
	clear(t.recs)
	t.recs = t.recs[:0]
	// Its entries point into the arena and at rows: those the step used
	// are cleared, not its whole capacity, which a big batch's partition
	// left large for every step after it.
	clear(t.ch[:t.chHigh])
	t.chHigh = 0
	clear(t.arena)
	if cap(t.arena) > 8*maxReused {
		t.arena, t.recs, t.kept, t.ch, t.aside, t.full = nil, nil, nil, nil, nil, nil
	}
}

// Info describes the top-k.
func (t *TopK) Info() dataflow.Info {
	var d strings.Builder
	if len(t.part) > 0 {
		d.WriteString("partition=[")
		for i, x := range t.part {
			if i > 0 {
				d.WriteString(", ")
			}
			d.WriteString(x.String())
		}
		d.WriteString("] ")
	}
	fmt.Fprintf(&d, "order=[%s] limit=%d", formatSortKeys(t.order), t.limit)
	if t.offset > 0 {
		fmt.Fprintf(&d, " offset=%d", t.offset)
	}
	state := fmt.Sprintf("per partition: first %d rows + reserve of %d; refills from its own arrangement of its input on (partition, order)",
		t.offset+t.limit, t.reserve)
	if t.base != nil {
		state = fmt.Sprintf("per partition: first %d rows + reserve of %d; refills from the shared index of %s on (partition, order), held by the table",
			t.offset+t.limit, t.reserve, t.base.Relation)
		if t.base.filters() {
			state += ", re-applying its filter"
		}
	}
	return dataflow.Info{
		Kind:   "TopK",
		Detail: d.String(),
		State:  state,
		Cost:   "O(log n) + O(n) window diff per touched partition + refill",
	}
}

// State reports the rows kept (the index is reported by its owner).
func (t *TopK) State() dataflow.StateSize {
	var rows int64
	t.groups.Scan(func(g *tkGroup) bool {
		rows += int64(len(g.kept))
		return true
	})
	return dataflow.StateSize{Rows: rows, Bytes: t.bytes}
}

// String prints each partition's kept rows in order, marking the window.
func (t *TopK) String() string {
	var b strings.Builder
	t.groups.Scan(func(g *tkGroup) bool {
		var pos int64
		for _, e := range g.kept {
			mark := " "
			if pos+e.n > t.offset && pos < t.offset+t.limit {
				mark = "*"
			}
			fmt.Fprintf(&b, "%s%d %s\n", mark, e.n, zset.FormatRow(e.row))
			pos += e.n
		}
		return true
	})
	return b.String()
}

// compareSortKey compares two values under one sort key: NULLs first or
// last as the key says, others ascending or descending.
func compareSortKey(k dataflow.SortKey, x, y value.Value) int {
	xn, yn := x.IsNull(), y.IsNull()
	switch {
	case xn && yn:
		return 0
	case xn || yn:
		if xn == k.NullsFirst {
			return -1
		}
		return 1
	}
	c := value.Compare(x, y)
	if k.Desc {
		return -c
	}
	return c
}

// compareSortKeys compares two lists of sort key values.
func compareSortKeys(keys []dataflow.SortKey, a, b []value.Value) int {
	for i, k := range keys {
		if c := compareSortKey(k, a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func formatSortKeys(keys []dataflow.SortKey) string {
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.Expr.String())
		if k.Desc {
			b.WriteString(" DESC")
		}
		if k.NullsFirst != k.Desc {
			if k.NullsFirst {
				b.WriteString(" NULLS FIRST")
			} else {
				b.WriteString(" NULLS LAST")
			}
		}
	}
	return b.String()
}
