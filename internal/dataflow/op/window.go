package op

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Window keeps every row of its input, per partition, in sort order (the
// ORDER BY keys, ties broken by the whole row) in a B-tree counted by rows
// whose nodes hold the aggregate of their rows' arguments, one element per
// copy of a row, each with the result of the window function it last
// emitted. A step inserts and deletes the changed rows (O(log n) each; an
// undo log restores them on abort), recomputes only the rows whose result
// may have changed, and emits the retraction and insertion of exactly the
// rows whose result did change: a change whose effects cancel emits
// nothing. Which rows may change depends on the function: for row_number,
// rank and dense_rank the rows from the first change on, stopping as soon
// as the results agree again; for lag and lead those within the offset of
// a change; for a frame function those whose frame reaches a change (a
// running frame: every later row; a frame to the end: every earlier one),
// and for count, sum and avg, when the change leaves the sums as they
// were, only those whose frame holds part of it; for percent_rank,
// cume_dist and ntile, when the partition's size changes, all of its rows.
// A frame's aggregate is read from the tree in O(log n), then slid from
// row to row.
type Window struct {
	part  []expr.Expr
	order []dataflow.SortKey
	fn    plan.WinFunc
	// base is fn as planned; when it reads values from an enclosing
	// query (base.PerPartition), fn is base with them evaluated over the
	// partition being recomputed.
	base  plan.WinFunc
	proto *winAcc // the aggregate the trees' nodes keep (nil: none)
	elemB int64   // an element's cost beyond its row
	// gen is an aggregate the nodes do not keep (winGeneric), computed
	// by the grouped aggregates' accumulator, slid along the partition.
	gen   *aggSpec
	gctx  stepCtx
	slide winSlide

	parts  map[string]*winPart
	staged map[string]*winPart // touched by the current step
	undo   []winOp
	out    zset.ZSet
	rows   int64
	bytes  int64
	buf    []byte
	acc    winAcc
	sc     winScratch
	all    []*winElem // a merge's scratch
}

// winPart is one partition: its elements in order and, during a step, the
// region the step changed and the rows it recomputed.
type winPart struct {
	t        winTree
	n0       int // elements before the step
	lo, hi   int // the changed region, in the current positions
	from, to int // the rows recomputed, their results in nvs
	nvs      []value.Value
	gone     []*winElem
	pending  []winChange // the step's changes, before they are applied
	// delta is the sums of the rows the step added less those it
	// removed (count, sum and avg).
	delta *winAcc
	// peer is the first change's element and ins the one element the
	// step inserted; spread says the changes were not all peers of
	// peer, or inserted more than one element.
	peer, ins *winElem
	spread    bool
}

// winOp is one insertion or deletion of a step, to undo; or a merge,
// which replaced the partition's tree (root), inserting elems and
// deleting dels.
type winOp struct {
	p      *winPart
	pos    int
	elems  []*winElem
	insert bool
	merged bool
	root   *winNode
	dels   []*winElem
}

// winElem is one copy of an input row in its partition.
type winElem struct {
	row   value.Row
	keys  []value.Value
	arg   value.Value // the function's argument over the row
	val   value.Value // the result emitted
	fresh bool        // inserted by the current step
	skip  bool        // left out of the aggregate by its FILTER (arg NULL)
}

var _ dataflow.Operator = (*Window)(nil)

// NewWindow returns the operator computing fn over the partitions of part
// ordered by order.
func NewWindow(part []expr.Expr, order []dataflow.SortKey, fn plan.WinFunc) *Window {
	agg := fn.Agg
	if agg == plan.AggCountStar && fn.Filter != nil {
		agg = plan.AggCount // of 1 for each row the FILTER keeps
	}
	w := &Window{part: part, order: order, fn: fn, base: fn, parts: map[string]*winPart{}, acc: winAcc{f: agg, typ: fn.Type}}
	switch {
	case winGeneric(&fn):
		w.gen = newWinSpec(&fn)
		w.slide.x = w.gen.X
	case fn.Kind == plan.WinAgg:
		w.proto = &winAcc{f: agg, typ: fn.Type}
	}
	// The element, its sort keys and, for a numeric result, the decimal
	// it points to.
	w.elemB = winElemBytes + int64(len(order))*int64(unsafe.Sizeof(value.Value{}))
	if fn.Type.Kind == value.Numeric {
		w.elemB += int64(unsafe.Sizeof(apd.Decimal{}))
	}
	return w
}

func (w *Window) cmp(a, b *winElem) int {
	for i, o := range w.order {
		if c := compareSortValue(a.keys[i], b.keys[i], o.Desc, o.NullsFirst); c != 0 {
			return c
		}
	}
	return zset.CompareRows(a.row, b.row)
}

func (w *Window) peers(a, b *winElem) bool {
	for i, o := range w.order {
		if compareSortValue(a.keys[i], b.keys[i], o.Desc, o.NullsFirst) != 0 {
			return false
		}
	}
	return true
}

// cmpKeys orders a and b by their ORDER BY keys alone.
func (w *Window) cmpKeys(a, b *winElem) int {
	for i, o := range w.order {
		if c := compareSortValue(a.keys[i], b.keys[i], o.Desc, o.NullsFirst); c != 0 {
			return c
		}
	}
	return 0
}

// winPeerScan is the number of neighbours compared before a peer
// group's edge is searched for in the tree instead, in O(log n).
const winPeerScan = 8

// groupStart is the first peer of row i; groupEnd is one past its last.
func (w *Window) groupStart(t *winTree, i int) int {
	var r winReader
	e := t.at(&r, i)
	for k := 0; i > 0 && w.peers(t.at(&r, i-1), e); k++ {
		if k == winPeerScan {
			j, _ := t.search(e, w.cmpKeys)
			return j
		}
		i--
	}
	return i
}

func (w *Window) groupEnd(t *winTree, i int) int {
	var r winReader
	e := t.at(&r, i)
	j := i + 1
	for n, k := t.len(), 0; j < n && w.peers(t.at(&r, j), e); j, k = j+1, k+1 {
		if k == winPeerScan {
			// The first row ordered after e's peers.
			j, _ = t.search(e, func(a, b *winElem) int { return cmp.Or(w.cmpKeys(a, b), -1) })
			return j
		}
	}
	return j
}

// Step applies the changes to the partitions they touch, recomputes the
// rows whose results may have changed and emits those that did.
func (w *Window) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(w.out)
	w.fn = w.base
	w.staged = map[string]*winPart{}
	w.undo = w.undo[:0]
	for _, e := range in[0] {
		w.buf = w.buf[:0]
		for _, p := range w.part {
			v, err := p.Eval(e.Row)
			if err != nil {
				return nil, err
			}
			w.buf = value.AppendKey(w.buf, v)
		}
		pt, ok := w.staged[string(w.buf)]
		if !ok {
			if pt = w.parts[string(w.buf)]; pt == nil {
				pt = &winPart{t: winTree{proto: w.proto, minmax: w.proto != nil && !w.proto.invertible(), sc: &w.sc}}
				if w.proto != nil && w.proto.invertible() {
					pt.delta = &winAcc{f: w.proto.f, typ: w.proto.typ}
				}
				w.parts[string(w.buf)] = pt
			}
			n := pt.t.len()
			pt.n0, pt.lo, pt.hi, pt.gone = n, n, 0, pt.gone[:0]
			pt.peer, pt.ins, pt.spread = nil, nil, false
			if pt.delta != nil {
				pt.delta.reset()
			}
			w.staged[string(w.buf)] = pt
		}
		probe := &winElem{row: e.Row, keys: make([]value.Value, len(w.order))}
		for i, o := range w.order {
			v, err := o.Expr.Eval(e.Row)
			if err != nil {
				return nil, err
			}
			probe.keys[i] = v
		}
		if w.fn.Arg != nil {
			v, err := w.fn.Arg.Eval(e.Row)
			if err != nil {
				return nil, err
			}
			probe.arg = v
		}
		if w.fn.Filter != nil {
			v, err := w.fn.Filter.Eval(e.Row)
			if err != nil {
				return nil, err
			}
			if v.IsNull() || !v.Bool() {
				probe.arg, probe.skip = value.Null, true
			} else if w.fn.Arg == nil {
				probe.arg = winOne
			}
		}
		pt.pending = append(pt.pending, winChange{probe, e.W})
	}
	for _, pt := range w.staged {
		var err error
		if len(pt.pending) <= winMergeAt || len(pt.pending)*8 < pt.t.len() {
			for _, c := range pt.pending {
				if err = w.apply(pt, c); err != nil {
					break
				}
			}
		} else {
			err = w.merge(pt)
		}
		clear(pt.pending)
		pt.pending = pt.pending[:0]
		if err != nil {
			return nil, err
		}
	}
	for _, pt := range w.staged {
		for _, e := range pt.gone {
			if !e.fresh {
				out = append(out, zset.Entry{Row: withValue(e.row, e.val), W: -1})
			}
		}
		if err := w.resolve(pt); err != nil {
			return nil, err
		}
		if err := w.recompute(pt); err != nil {
			return nil, err
		}
		var r winReader
		for i := pt.from; i < pt.to; i++ {
			e, nv := pt.t.at(&r, i), pt.nvs[i-pt.from]
			if e.fresh {
				out = append(out, zset.Entry{Row: withValue(e.row, nv), W: 1})
			} else if !identical(e.val, nv) {
				out = append(out, zset.Entry{Row: withValue(e.row, e.val), W: -1}, zset.Entry{Row: withValue(e.row, nv), W: 1})
			}
		}
	}
	w.fn = w.base
	w.out = zset.Consolidate(out)
	return w.out, nil
}

// resolve sets fn for the partition pt: base with the values it reads
// from an enclosing query evaluated over pt's first row. They are the
// same over the partition, whose keys lead with the outer values.
func (w *Window) resolve(pt *winPart) error {
	if !w.base.PerPartition() || pt.t.len() == 0 {
		return nil
	}
	var r winReader
	fn, err := w.base.ResolveOuter(pt.t.at(&r, 0).row)
	if err != nil {
		return err
	}
	w.fn = fn
	return nil
}

// rowN is the count a row reads from its own columns (NPerRow): lag's
// offset negated (the step back), lead's as it is, nth_value's with
// PostgreSQL's error when it is not positive; null when it is NULL.
func (w *Window) rowN(e *winElem) (int64, bool, error) {
	v, err := w.fn.NExpr.Eval(e.row)
	switch {
	case err != nil:
		return 0, false, err
	case v.IsNull():
		return 0, true, nil
	case w.fn.Kind == plan.WinLag:
		return -v.Int(), false, nil
	case w.fn.Kind == plan.WinNthValue && v.Int() <= 0:
		return 0, false, pgerr.New("22016", "argument of nth_value must be greater than zero")
	}
	return v.Int(), false, nil
}

// winMergeAt is the number of changes to a partition in one step beyond
// which they are merged into it in one pass, building its tree again,
// rather than inserted one by one (a cold start's rows, say), when they
// are also more than an eighth of its rows.
const winMergeAt = 16

// winChange is one change to a partition: a row (with its order keys) and
// its weight.
type winChange struct {
	e *winElem
	w int64
}

// apply inserts or deletes one change in place, logging it.
func (w *Window) apply(pt *winPart, c winChange) error {
	t := &pt.t
	switch {
	case pt.peer == nil:
		pt.peer = c.e
	case !w.peers(pt.peer, c.e):
		pt.spread = true
	}
	i, found := t.search(c.e, w.cmp)
	if c.w > 0 {
		add := make([]*winElem, c.w)
		for k := range add {
			add[k] = &winElem{row: c.e.row, keys: c.e.keys, arg: c.e.arg, skip: c.e.skip, fresh: true}
			t.insert(i+k, add[k])
		}
		w.undo = append(w.undo, winOp{p: pt, pos: i, elems: add, insert: true})
		if pt.ins != nil || c.w > 1 {
			pt.spread = true
		}
		pt.ins = add[0]
		if pt.delta != nil {
			if err := pt.delta.add(c.e.arg, c.w, &w.sc); err != nil {
				return err
			}
		}
		if pt.hi > i {
			pt.hi += len(add)
		}
		pt.lo, pt.hi = min(pt.lo, i), max(pt.hi, i+len(add))
		return nil
	}
	n := int(-c.w)
	var r winReader
	if !found || i+n > t.len() || w.cmp(t.at(&r, i+n-1), c.e) != 0 {
		return pgerr.New(pgerr.Internal, "window: retraction of a row not in its partition")
	}
	del := make([]*winElem, n)
	for k := range del {
		del[k] = t.delete(i)
	}
	w.undo = append(w.undo, winOp{p: pt, pos: i, elems: del})
	if pt.delta != nil {
		if err := pt.delta.add(c.e.arg, c.w, &w.sc); err != nil {
			return err
		}
	}
	for _, d := range del {
		if !d.fresh {
			pt.gone = append(pt.gone, d)
		}
	}
	switch {
	case pt.hi >= i+n:
		pt.hi -= n
	case pt.hi > i:
		pt.hi = i
	}
	pt.lo, pt.hi = min(pt.lo, i), max(pt.hi, i)
	return nil
}

// merge applies a partition's changes in one pass: sorted, merged with
// its rows into a new tree. The old tree is kept to undo.
func (w *Window) merge(pt *winPart) error {
	pt.spread = true
	slices.SortStableFunc(pt.pending, func(a, b winChange) int { return w.cmp(a.e, b.e) })
	old := pt.t.appendAll(w.all[:0])
	defer func() { clear(old); w.all = old[:0] }()
	nw := make([]*winElem, 0, len(old)+len(pt.pending))
	op := winOp{p: pt, merged: true, root: pt.t.root}
	i, lo, hi := 0, -1, 0
	for _, c := range pt.pending {
		for i < len(old) && w.cmp(old[i], c.e) < 0 {
			nw = append(nw, old[i])
			i++
		}
		if lo < 0 {
			lo = len(nw)
		}
		if pt.delta != nil {
			if err := pt.delta.add(c.e.arg, c.w, &w.sc); err != nil {
				return err
			}
		}
		if c.w > 0 {
			for range c.w {
				e := &winElem{row: c.e.row, keys: c.e.keys, arg: c.e.arg, skip: c.e.skip, fresh: true}
				nw = append(nw, e)
				op.elems = append(op.elems, e)
			}
		} else {
			for range -c.w {
				switch {
				case i < len(old) && w.cmp(old[i], c.e) == 0:
					op.dels = append(op.dels, old[i])
					pt.gone = append(pt.gone, old[i])
					i++
				case len(nw) > 0 && nw[len(nw)-1].fresh && w.cmp(nw[len(nw)-1], c.e) == 0:
					op.dels = append(op.dels, nw[len(nw)-1])
					nw = nw[:len(nw)-1]
				default:
					return pgerr.New(pgerr.Internal, "window: retraction of a row not in its partition")
				}
			}
		}
		hi = len(nw)
	}
	nw = append(nw, old[i:]...)
	pt.t.build(nw)
	w.undo = append(w.undo, op)
	pt.lo, pt.hi = min(pt.lo, lo), max(pt.hi, hi)
	return nil
}

// withValue is row with v appended.
func withValue(row value.Row, v value.Value) value.Row {
	r := make(value.Row, len(row)+1)
	copy(r, row)
	r[len(row)] = v
	return r
}

// recompute computes into nvs the results of the rows of a touched
// partition whose result may have changed, and records them as
// [from, to).
func (w *Window) recompute(pt *winPart) error {
	t := &pt.t
	n := t.len()
	pt.from, pt.to, pt.nvs = 0, 0, pt.nvs[:0]
	if n == 0 {
		return nil
	}
	// The rows next to a deletion change too: widen the region by one.
	lo, hi := max(0, min(pt.lo, n)-1), min(n, max(pt.hi, pt.lo)+1)
	f := &w.fn
	var r, q winReader
	switch f.Kind {
	case plan.WinRowNumber, plan.WinRank, plan.WinDenseRank:
		d := int64(0)
		var prev *winElem
		if lo > 0 {
			prev = t.at(&q, lo-1)
			d = prev.val.Int() // untouched: its result stands
		}
		gs := w.groupStart(t, lo)
		i := lo
		for ; i < n; i++ {
			e := t.at(&r, i)
			start := prev == nil || !w.peers(prev, e)
			prev = e
			if start {
				gs = i
				d++
			}
			var nv value.Value
			switch f.Kind {
			case plan.WinRowNumber:
				nv = value.NewInt(value.Int8, int64(i+1))
			case plan.WinRank:
				nv = value.NewInt(value.Int8, int64(gs+1))
			default:
				nv = value.NewInt(value.Int8, d)
			}
			// Past the changes, once a row (the first of its peers, for
			// the ranks) keeps its result, so do all after it.
			// A dense rank that agrees, and a rank that agrees when no row
			// moved (the partition's size is the same), need not wait for
			// the next peer group: a change inside a large one stops at
			// once.
			if i >= hi && !e.fresh && identical(e.val, nv) && (f.Kind == plan.WinRowNumber || start || f.Kind == plan.WinDenseRank || n == pt.n0) {
				break
			}
			pt.nvs = append(pt.nvs, nv)
		}
		pt.from, pt.to = lo, i
		return nil
	case plan.WinPercentRank, plan.WinCumeDist, plan.WinNtile:
		if n != pt.n0 || f.NPerRow { // ntile's count read from a row: any row may set it
			lo, hi = 0, n
		} else {
			lo, hi = w.groupStart(t, lo), w.groupEnd(t, max(hi, lo+1)-1)
		}
		pt.from, pt.to = lo, hi
		return w.distribution(pt, lo, hi)
	case plan.WinLag, plan.WinLead:
		k := int(min(max(f.N, -f.N), int64(n)))
		if f.NPerRow {
			// Each row reads its own offset: a change may reach any row.
			k = n
		}
		lo, hi = max(0, lo-k), min(n, hi+k)
		pt.from, pt.to = lo, hi
		off := f.N
		if f.Kind == plan.WinLag {
			off = -off
		}
		for i := lo; i < hi; i++ {
			nv := value.Null
			null := f.NullN
			if f.NPerRow {
				var err error
				if off, null, err = w.rowN(t.at(&r, i)); err != nil {
					return err
				}
			}
			if !null {
				if j := int64(i) + off; j >= 0 && j < int64(n) {
					nv = t.at(&q, int(j)).arg
				} else if f.Default != nil {
					var err error
					if nv, err = f.Default.Eval(t.at(&r, i).row); err != nil {
						return err
					}
				}
			}
			pt.nvs = append(pt.nvs, nv)
		}
		return nil
	}
	// Frame functions: the rows whose frame reaches [lo, hi), peers
	// included under RANGE.
	fr := &f.Frame
	if !fr.Rows || fr.Exclude == plan.ExcludeGroup || fr.Exclude == plan.ExcludeTies {
		lo, hi = w.groupStart(t, lo), w.groupEnd(t, max(hi, lo+1)-1)
	}
	if !fr.Rows && !fr.Groups && !fr.RangeOffset() && fr.Exclude == plan.ExcludeNoOthers && pt.delta != nil && n == pt.n0 &&
		!pt.spread && pt.delta.zero() {
		// Every change is in one peer group and leaves the sums as they
		// were: each frame holds all of the group or none of it, so only
		// the inserted row (and its copies) needs a result, found in
		// O(log n) however large the group.
		if pt.ins == nil {
			return nil
		}
		a, _ := t.search(pt.ins, w.cmp)
		b, _ := t.search(pt.ins, func(x, y *winElem) int { return cmp.Or(w.cmp(x, y), -1) })
		pt.from, pt.to = a, b
		return w.computeFrames(pt, a, b, b)
	}
	a, b := lo, hi
	if fr.RangeOffset() {
		var err error
		if a, b, err = w.rangeReach(t, lo, hi); err != nil {
			return err
		}
	} else if pt.delta != nil && n == pt.n0 && pt.delta.zero() {
		// The change leaves the partition's size and the sums of its
		// arguments as they were, so a frame holding all of it keeps its
		// result: only the frames that hold part of it may change.
		if fr.End == plan.OffsetFollowing {
			a = w.back(t, lo, fr.EndOff)
		}
		if fr.Start == plan.OffsetFollowing {
			a = min(a, w.back(t, lo, fr.StartOff))
		}
		if fr.Start == plan.OffsetPreceding {
			b = w.fwd(t, hi, fr.StartOff)
		}
		if fr.End == plan.OffsetPreceding {
			b = max(b, w.fwd(t, hi, fr.EndOff))
		}
	} else {
		switch fr.End {
		case plan.UnboundedFollowing:
			a = 0
		case plan.OffsetFollowing:
			a = w.back(t, lo, fr.EndOff)
		}
		switch fr.Start {
		case plan.UnboundedPreceding:
			b = n
		case plan.OffsetPreceding:
			b = w.fwd(t, hi, fr.StartOff)
		}
	}
	a, b = max(0, min(a, lo)), min(n, max(b, hi))
	pt.from, pt.to = a, b
	return w.computeFrames(pt, a, b, hi)
}

// distribution computes percent_rank, cume_dist or ntile for the rows
// [lo, hi), lo the first of its peers.
func (w *Window) distribution(pt *winPart, lo, hi int) error {
	f := &w.fn
	t := &pt.t
	n := t.len()
	var r winReader
	switch f.Kind {
	case plan.WinPercentRank:
		gs := lo
		var prev *winElem
		for i := lo; i < hi; i++ {
			e := t.at(&r, i)
			if prev != nil && !w.peers(prev, e) {
				gs = i
			}
			prev = e
			x := 0.0
			if n > 1 {
				x = float64(gs) / float64(n-1)
			}
			pt.nvs = append(pt.nvs, value.NewFloat(value.Float8, x))
		}
	case plan.WinCumeDist:
		end := 0
		for i := lo; i < hi; i++ {
			if i >= end {
				end = w.groupEnd(t, i)
			}
			pt.nvs = append(pt.nvs, value.NewFloat(value.Float8, float64(end)/float64(n)))
		}
	default:
		k, null, from := f.N, f.NullN, 0
		if f.NPerRow {
			var err error
			if k, null, from, err = w.ntileCount(t); err != nil {
				return err
			}
		} else if !null && k <= 0 && lo < hi {
			return pgerr.New("22014", "argument of ntile must be greater than zero")
		}
		for i := lo; i < hi; i++ {
			nv := value.Null
			if !null && i >= from {
				nv = value.NewInt(value.Int4, ntileBucket(int64(i-from), int64(n), k))
			}
			pt.nvs = append(pt.nvs, nv)
		}
	}
	return nil
}

// ntileCount is ntile's count read from the rows' columns, as
// PostgreSQL reads it: from the partition's first row where it is not
// NULL, which is the first row of the first bucket (the rows before it
// are NULL); null when every row's is NULL.
func (w *Window) ntileCount(t *winTree) (k int64, null bool, from int, err error) {
	var r winReader
	for i := range t.len() {
		v, err := w.fn.NExpr.Eval(t.at(&r, i).row)
		switch {
		case err != nil:
			return 0, false, 0, err
		case v.IsNull():
			continue
		case v.Int() <= 0:
			return 0, false, 0, pgerr.New("22014", "argument of ntile must be greater than zero")
		}
		return v.Int(), false, i, nil
	}
	return 0, true, 0, nil
}

// ntileBucket is the bucket of row i of n in ntile(b), PostgreSQL's: b
// buckets of n/b rows, one more in each of the first n mod b; each row a
// bucket of its own when n < b.
func ntileBucket(i, n, b int64) int64 {
	q := n / b
	if q == 0 {
		return i + 1
	}
	rem := n % b
	if big := rem * (q + 1); i < big {
		return i/(q+1) + 1
	} else {
		return rem + (i-big)/q + 1
	}
}

// back is the position k rows before x, or, in GROUPS mode, the start of
// the peer group k groups before the one starting at x; 0 when there is
// none.
func (w *Window) back(t *winTree, x int, k int64) int {
	if !w.fn.Frame.Groups {
		return x - int(min(k, int64(t.len())))
	}
	for ; k > 0 && x > 0; k-- {
		x = w.groupStart(t, x-1)
	}
	return x
}

// fwd is the position k rows after x, or, in GROUPS mode, the end of the
// peer group k groups after the one ending at x; the partition's end
// when there is none.
func (w *Window) fwd(t *winTree, x int, k int64) int {
	n := t.len()
	if !w.fn.Frame.Groups {
		return x + int(min(k, int64(n)))
	}
	for ; k > 0 && x < n; k-- {
		x = w.groupEnd(t, x)
	}
	return x
}

// groupsFrame is the GROUPS frame [s, e) of the rows of the peer group
// [gs, ge): found by walking the groups, once for all of its rows.
func (w *Window) groupsFrame(t *winTree, gs, ge int) (int, int) {
	fr := &w.fn.Frame
	n := t.len()
	var s, e int
	switch fr.Start {
	case plan.UnboundedPreceding:
		s = 0
	case plan.OffsetPreceding:
		s = w.back(t, gs, fr.StartOff)
	case plan.CurrentRow:
		s = gs
	case plan.OffsetFollowing:
		s = gs
		if fr.StartOff > 0 {
			s = w.fwd(t, ge, fr.StartOff-1)
		}
	default:
		s = n
	}
	switch fr.End {
	case plan.OffsetPreceding:
		e = ge
		if fr.EndOff > 0 {
			e = w.back(t, gs, fr.EndOff-1)
		}
	case plan.CurrentRow:
		e = ge
	case plan.OffsetFollowing:
		e = w.fwd(t, ge, fr.EndOff)
	default:
		e = n
	}
	return s, max(s, e)
}

// frame is row i's frame [s, e); gs and ge are its peers.
func (w *Window) frame(i, n, gs, ge int) (int, int) {
	fr := &w.fn.Frame
	clamp := func(x int64) int { return int(max(0, min(x, int64(n)))) }
	var s, e int
	switch fr.Start {
	case plan.UnboundedPreceding:
		s = 0
	case plan.OffsetPreceding:
		s = clamp(int64(i) - min(fr.StartOff, int64(n)))
	case plan.CurrentRow:
		if s = i; !fr.Rows {
			s = gs
		}
	case plan.OffsetFollowing:
		s = clamp(int64(i) + min(fr.StartOff, int64(n)))
	default:
		s = n
	}
	switch fr.End {
	case plan.OffsetPreceding:
		e = clamp(int64(i) - min(fr.EndOff, int64(n)) + 1)
	case plan.CurrentRow:
		if e = i + 1; !fr.Rows {
			e = ge
		}
	case plan.OffsetFollowing:
		e = clamp(int64(i) + min(fr.EndOff, int64(n)) + 1)
	case plan.UnboundedFollowing:
		e = n
	}
	return s, max(s, e)
}

// winFoldMax is the widest frame folded row by row rather than read from
// the tree.
const winFoldMax = 64

// computeFrames computes a frame function for the rows [from, to): the
// first row's aggregate is read from the tree (or folded, for a narrow
// frame); the frame's ends only move forward from row to row, so the
// aggregate then adds the rows entering the frame and takes out those
// leaving it (MIN and MAX, which cannot take a value out, read the frame
// again when its start moves).
func (w *Window) computeFrames(pt *winPart, from, to, hi int) error {
	f := &w.fn
	t := &pt.t
	n := t.len()
	a := &w.acc
	a.reset()
	defer func() { w.slide.acc, w.slide.err = nil, nil }()
	var ri, rs, re winReader
	arg := func(r *winReader, j int) value.Value { return w.argAt(t, r, j) }
	excl := f.Frame.Exclude
	// Under a running frame, a row past the changes whose frame holds all
	// of them and whose result is the same has the same aggregate of its
	// frame's prefix as before: the rows after it keep theirs too, for
	// first_value, last_value, MIN and MAX (count, sum and avg, whose
	// results may agree by chance, stop by their sums instead). Not so
	// when the frame excludes rows: the result is no longer the prefix's.
	stops := f.Frame.Start == plan.UnboundedPreceding && f.Frame.End != plan.UnboundedFollowing && excl == plan.ExcludeNoOthers &&
		(f.Kind == plan.WinFirstValue || f.Kind == plan.WinLastValue || f.Kind == plan.WinAgg && w.gen == nil && !a.invertible())
	cs, ce := 0, 0 // the accumulated frame
	gs, ge := w.groupStart(t, from), 0
	gfs, gfe := 0, 0 // the frame of the current peer group (GROUPS)
	var prev *winElem
	for i := from; i < to; i++ {
		e := t.at(&ri, i)
		if prev != nil && !w.peers(prev, e) {
			gs = i
		}
		prev = e
		if i >= ge {
			ge = w.groupEnd(t, i)
			if f.Frame.Groups {
				gfs, gfe = w.groupsFrame(t, gs, ge)
			}
		}
		s, end := gfs, gfe
		if !f.Frame.Groups {
			s, end = w.frame(i, n, gs, ge)
		}
		if f.Frame.RangeOffset() {
			var err error
			if s, end, err = w.rangeFrame(t, e, s, end, gs, ge); err != nil {
				return err
			}
		}
		p := pieces(excl, s, end, i, gs, ge)
		var err error
		nv := value.Null
		switch f.Kind {
		case plan.WinFirstValue:
			if j := p.at(0); j >= 0 {
				nv = arg(&rs, j)
			}
		case plan.WinLastValue:
			if j := p.last(); j >= 0 {
				nv = arg(&re, j)
			}
		case plan.WinNthValue:
			k, null := f.N, f.NullN
			if f.NPerRow {
				if k, null, err = w.rowN(e); err != nil {
					return err
				}
			}
			if null {
				break
			}
			if k <= 0 { // a constant count, read by this row
				return pgerr.New("22016", "argument of nth_value must be greater than zero")
			}
			if j := p.at(int(min(k-1, int64(n)))); j >= 0 {
				nv = arg(&rs, j)
			}
		default:
			switch {
			case w.gen != nil:
				nv, err = w.genericFrame(t, &w.slide, i == from, s, end, &p)
			case excl != plan.ExcludeNoOthers:
				nv, err = w.piecesNative(t, &p)
			default:
				if i == from || s > cs && !a.invertible() || s >= ce {
					a.reset()
					cs, ce = s, s
					if end-s > winFoldMax {
						t.addRange(a, s, end)
						ce = end
					}
				}
				for ; ce < end; ce++ {
					if err := a.add(arg(&re, ce), 1, &w.sc); err != nil {
						return err
					}
				}
				for ; cs < s; cs++ {
					if err := a.add(arg(&rs, cs), -1, &w.sc); err != nil {
						return err
					}
				}
				nv, err = a.result(&w.sc)
			}
		}
		if err != nil {
			return err
		}
		if stops && i >= hi && end > hi && !e.fresh && identical(e.val, nv) {
			pt.to = i
			return nil
		}
		pt.nvs = append(pt.nvs, nv)
	}
	return nil
}

// Commit keeps the step's partitions and results.
func (w *Window) Commit() {
	for _, op := range w.undo {
		for _, e := range op.elems {
			d := dataflow.RowBytes(e.row) + w.elemB
			if op.insert || op.merged {
				e.fresh = false
				w.rows++
				w.bytes += d
			} else {
				w.rows--
				w.bytes -= d
			}
		}
		for _, e := range op.dels {
			w.rows--
			w.bytes -= dataflow.RowBytes(e.row) + w.elemB
		}
	}
	for key, pt := range w.staged {
		var r winReader
		for i := pt.from; i < pt.to; i++ {
			pt.t.at(&r, i).val = pt.nvs[i-pt.from]
		}
		pt.release()
		if pt.t.len() == 0 {
			delete(w.parts, key)
		}
	}
	w.release()
}

// winElemBytes is an element's cost beyond its row and its sort keys:
// the struct (in its allocation's size class), its pointer in a leaf
// (leaves are about three quarters full), and its share of the tree's
// nodes and their aggregates.
const winElemBytes = (int64(unsafe.Sizeof(winElem{}))+15)&^15 + 11 + (winNodeBytes+int64(unsafe.Sizeof(winAcc{})))/32

// Abort undoes the step's insertions and deletions.
func (w *Window) Abort() {
	for i := len(w.undo) - 1; i >= 0; i-- {
		op := w.undo[i]
		t := &op.p.t
		switch {
		case op.merged:
			t.root = op.root
		case op.insert:
			for range op.elems {
				t.delete(op.pos)
			}
		default:
			for k, e := range op.elems {
				t.insert(op.pos+k, e)
			}
		}
	}
	for key, pt := range w.staged {
		clear(pt.pending)
		pt.pending = pt.pending[:0]
		pt.release()
		if pt.t.len() == 0 {
			delete(w.parts, key)
		}
	}
	w.release()
}

// winScratchKeep is the capacity of a step's scratch slices kept for the
// next step; larger ones (a cold start's) are dropped rather than held.
const winScratchKeep = 256

// release ends a partition's step: its scratch cleared, and dropped when
// large.
func (pt *winPart) release() {
	clear(pt.nvs)
	clear(pt.gone)
	pt.nvs, pt.gone = pt.nvs[:0], pt.gone[:0]
	if cap(pt.nvs) > winScratchKeep {
		pt.nvs = nil
	}
	if cap(pt.gone) > winScratchKeep {
		pt.gone = nil
	}
	if cap(pt.pending) > winScratchKeep {
		pt.pending = nil
	}
	pt.from, pt.to = 0, 0
}

// release ends a step: the undo log cleared, so that it holds no
// elements, and dropped when large.
func (w *Window) release() {
	clear(w.undo)
	w.staged, w.undo = nil, w.undo[:0]
	if cap(w.undo) > winScratchKeep {
		w.undo = nil
	}
	if cap(w.all) > winScratchKeep {
		w.all = nil
	}
}

// Info describes the window and its cost.
func (w *Window) Info() dataflow.Info {
	f := &w.base
	detail := f.String()
	var parts []string
	for _, e := range w.part {
		parts = append(parts, e.String())
	}
	if len(parts) > 0 {
		detail += " partition=[" + strings.Join(parts, ", ") + "]"
	}
	parts = parts[:0]
	for _, o := range w.order {
		k := o.Expr.String()
		if o.Desc {
			k += " DESC"
		}
		if o.NullsFirst != o.Desc {
			k += map[bool]string{true: " NULLS FIRST", false: " NULLS LAST"}[o.NullsFirst]
		}
		parts = append(parts, k)
	}
	if len(parts) > 0 {
		detail += " order=[" + strings.Join(parts, ", ") + "]"
	}
	if f.Kind.UsesFrame() {
		detail += " frame=[" + f.Frame.String() + "]"
	}
	info := dataflow.Info{Kind: "Window", Detail: detail, State: "the rows of each partition in a B-tree counted by rows, with their results" + map[bool]string{true: " and the aggregate of each node", false: ""}[w.proto != nil]}
	const move = "; a row entering or leaving costs O(log n) in its partition"
	fr := &f.Frame
	invertible := w.proto != nil && w.proto.invertible()
	// What a frame function costs a row, beyond finding its frame.
	extra := ""
	if fr.RangeOffset() {
		extra = "; each row's frame found by value in the tree, O(log n)"
	}
	switch {
	case w.gen != nil && f.Agg.Has(plan.AggOrdered):
		extra += "; each row's frame listed again, O(frame)"
	case w.gen != nil:
		extra += "; " + f.Agg.String() + "'s accumulator slid from row to row, the first row's frame folded in O(frame)"
		if fr.Exclude != plan.ExcludeNoOthers {
			extra += ", each row's excluded rows taken out and put back, O(peers)"
		}
	case fr.Exclude != plan.ExcludeNoOthers && f.Kind == plan.WinAgg:
		extra += "; each row's frame less its exclusion read again, from the tree in O(log n) when wide"
	}
	switch {
	case f.Kind == plan.WinRowNumber || f.Kind == plan.WinRank || f.Kind == plan.WinDenseRank:
		info.Cost = "the rows from the change on, until the results agree again" + move
		info.Unbounded = "ranking: a row entering or leaving at the head of a partition changes the result of every later row of it"
		return info
	case f.Kind == plan.WinNtile && f.NPerRow:
		info.Cost = "every row of the partition of a change" + move
		info.Unbounded = "a count read from the partition's first row: a change may change the result of every row of its partition"
		return info
	case f.Kind == plan.WinPercentRank || f.Kind == plan.WinCumeDist || f.Kind == plan.WinNtile:
		info.Cost = "the whole partition when its size changes, else the changed rows and their peers" + move
		info.Unbounded = "a row entering or leaving a partition changes the result of every row of it"
		return info
	case (f.Kind == plan.WinLag || f.Kind == plan.WinLead) && f.NPerRow:
		info.Cost = "every row of the partition of a change" + move
		info.Unbounded = "an offset read from each row: a change may change the result of any row of its partition"
		return info
	case (f.Kind == plan.WinLag || f.Kind == plan.WinLead) && f.NExpr != nil:
		info.Cost = "the rows within the partition's offset of a change" + move
		info.Unbounded = "an offset read from the outer query: a change changes the result of every row within that offset of it"
		return info
	case f.Kind == plan.WinLag || f.Kind == plan.WinLead:
		info.Cost = fmt.Sprintf("the rows within %d of a change", max(f.N, -f.N)) + move
		return info
	case fr.Start == plan.UnboundedPreceding:
		info.Cost = "the rows from the change to the end of the partition"
		switch {
		case invertible:
			info.Cost += " (only those next to it when it leaves the sums as they were), the aggregate before the change read from the tree in O(log n)"
		case w.proto != nil && fr.Exclude == plan.ExcludeNoOthers && fr.End != plan.UnboundedFollowing,
			fr.Exclude == plan.ExcludeNoOthers && fr.End != plan.UnboundedFollowing && (f.Kind == plan.WinFirstValue || f.Kind == plan.WinLastValue):
			info.Cost += ", until a row past it keeps its result"
		}
		info.Cost += extra + move
		info.Unbounded = "running frame: a change at the head of a partition changes the result of every later row of it"
	case fr.End == plan.UnboundedFollowing:
		info.Cost = "the rows from the partition's head to the change"
		if invertible {
			info.Cost += " (only those next to it when it leaves the sums as they were), the aggregate after the change read from the tree in O(log n)"
		}
		info.Cost += extra + move
		info.Unbounded = "frame to the end of the partition: a change at its tail changes the result of every earlier row of it"
	default:
		info.Cost = "the rows whose frame reaches the change"
		if w.proto != nil && !invertible && fr.Exclude == plan.ExcludeNoOthers {
			info.Cost += ", each reading its frame again when it starts later (MIN and MAX cannot take a value out), from the tree in O(log n) when wide"
		}
		info.Cost += extra + move
		if fr.Groups {
			info.Cost += "; each peer group's frame found by walking its offsets in peer groups"
			info.Unbounded = "GROUPS frame: a change changes the result of every peer of the changed row"
		} else if fr.RangeOffset() {
			info.Unbounded = "RANGE frame with an offset: a change changes the result of every row whose value is within the offsets of the changed row's"
		} else if !fr.Rows {
			info.Unbounded = "RANGE frame: a change changes the result of every peer of the changed row"
		}
	}
	if info.Unbounded == "" && (fr.StartExpr != nil || fr.EndExpr != nil) {
		info.Unbounded = "a frame offset read from the outer query: a change changes the result of every row whose frame of that size reaches it"
	}
	if info.Unbounded == "" && fr.Exclude != plan.ExcludeNoOthers && fr.Exclude != plan.ExcludeCurrentRow {
		info.Unbounded = "frame exclusion: a change changes the result of every peer of the changed row"
	}
	return info
}

// State reports the rows kept.
func (w *Window) State() dataflow.StateSize {
	return dataflow.StateSize{Rows: w.rows, Bytes: w.bytes}
}
