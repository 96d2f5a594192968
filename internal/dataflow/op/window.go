package op

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Window keeps every row of its input, per partition, in sort order (the
// ORDER BY keys, ties broken by the whole row), one element per copy of a
// row, each with the result of the window function it last emitted. A
// step inserts and deletes the changed rows in place (binary search, then
// a move of the partition's pointers after them; an undo log restores
// them on abort), recomputes only the rows whose result may have changed,
// and emits the retraction and insertion of exactly the rows whose result
// did change: a change whose effects cancel emits nothing. Which rows may
// change depends on the function: for row_number, rank and dense_rank the
// rows from the first change on, stopping as soon as the results agree
// again; for lag and lead those within the offset of a change; for a
// frame function those whose frame reaches a change (a running frame:
// every later row; a frame to the end: every earlier one); for
// percent_rank, cume_dist and ntile, when the partition's size changes,
// all of its rows.
type Window struct {
	part  []expr.Expr
	order []dataflow.SortKey
	fn    plan.WinFunc

	parts  map[string]*winPart
	staged map[string]*winPart // touched by the current step
	undo   []winOp
	out    zset.ZSet
	rows   int64
	bytes  int64
	buf    []byte
	acc    winAcc
}

// winPart is one partition: its elements in order and, during a step, the
// region the step changed and the rows it recomputed.
type winPart struct {
	elems    []*winElem
	n0       int // elements before the step
	lo, hi   int // the changed region, in the current positions
	from, to int // the rows recomputed: their nv is set
	gone     []*winElem
	pending  []winChange // the step's changes, before they are applied
}

// winOp is one insertion or deletion of a step, to undo; or a merge,
// which replaced the partition's slice (old), inserting elems and
// deleting dels.
type winOp struct {
	p       *winPart
	pos     int
	elems   []*winElem
	insert  bool
	merged  bool
	replace []*winElem
	dels    []*winElem
}

// winElem is one copy of an input row in its partition.
type winElem struct {
	row   value.Row
	keys  []value.Value
	val   value.Value // the result emitted
	nv    value.Value // the result computed by the current step
	fresh bool        // inserted by the current step
}

var _ dataflow.Operator = (*Window)(nil)

// NewWindow returns the operator computing fn over the partitions of part
// ordered by order.
func NewWindow(part []expr.Expr, order []dataflow.SortKey, fn plan.WinFunc) *Window {
	return &Window{part: part, order: order, fn: fn, parts: map[string]*winPart{}, acc: winAcc{f: fn.Agg, typ: fn.Type}}
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

// groupStart is the first peer of p[i]; groupEnd is one past its last.
func (w *Window) groupStart(p []*winElem, i int) int {
	for i > 0 && w.peers(p[i-1], p[i]) {
		i--
	}
	return i
}

func (w *Window) groupEnd(p []*winElem, i int) int {
	j := i + 1
	for j < len(p) && w.peers(p[j-1], p[j]) {
		j++
	}
	return j
}

// Step applies the changes to the partitions they touch, recomputes the
// rows whose results may have changed and emits those that did.
func (w *Window) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(w.out)
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
				pt = &winPart{}
				w.parts[string(w.buf)] = pt
			}
			pt.n0, pt.lo, pt.hi, pt.gone = len(pt.elems), len(pt.elems), 0, pt.gone[:0]
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
		pt.pending = append(pt.pending, winChange{probe, e.W})
	}
	for _, pt := range w.staged {
		var err error
		if len(pt.pending) <= winMergeAt {
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
		if err := w.recompute(pt); err != nil {
			return nil, err
		}
		for _, e := range pt.elems[pt.from:pt.to] {
			if e.fresh {
				out = append(out, zset.Entry{Row: withValue(e.row, e.nv), W: 1})
			} else if !identical(e.val, e.nv) {
				out = append(out, zset.Entry{Row: withValue(e.row, e.val), W: -1}, zset.Entry{Row: withValue(e.row, e.nv), W: 1})
			}
		}
	}
	w.out = zset.Consolidate(out)
	return w.out, nil
}

// winMergeAt is the number of changes to a partition in one step beyond
// which they are merged into it in one pass rather than inserted one by
// one (a cold start's rows, say).
const winMergeAt = 16

// winChange is one change to a partition: a row (with its order keys) and
// its weight.
type winChange struct {
	e *winElem
	w int64
}

// apply inserts or deletes one change in place, logging it.
func (w *Window) apply(pt *winPart, c winChange) error {
	i, found := slices.BinarySearchFunc(pt.elems, c.e, w.cmp)
	if c.w > 0 {
		add := make([]*winElem, c.w)
		for k := range add {
			add[k] = &winElem{row: c.e.row, keys: c.e.keys, fresh: true}
		}
		pt.elems = slices.Insert(pt.elems, i, add...)
		w.undo = append(w.undo, winOp{p: pt, pos: i, elems: add, insert: true})
		if pt.hi > i {
			pt.hi += len(add)
		}
		pt.lo, pt.hi = min(pt.lo, i), max(pt.hi, i+len(add))
		return nil
	}
	n := int(-c.w)
	if !found || i+n > len(pt.elems) || w.cmp(pt.elems[i+n-1], c.e) != 0 {
		return pgerr.New(pgerr.Internal, "window: retraction of a row not in its partition")
	}
	del := slices.Clone(pt.elems[i : i+n])
	pt.elems = slices.Delete(pt.elems, i, i+n)
	w.undo = append(w.undo, winOp{p: pt, pos: i, elems: del})
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
// its rows into a new slice. The old slice is kept to undo.
func (w *Window) merge(pt *winPart) error {
	slices.SortStableFunc(pt.pending, func(a, b winChange) int { return w.cmp(a.e, b.e) })
	old := pt.elems
	nw := make([]*winElem, 0, len(old)+len(pt.pending))
	op := winOp{p: pt, merged: true, replace: old}
	i, lo, hi := 0, -1, 0
	for _, c := range pt.pending {
		for i < len(old) && w.cmp(old[i], c.e) < 0 {
			nw = append(nw, old[i])
			i++
		}
		if lo < 0 {
			lo = len(nw)
		}
		if c.w > 0 {
			for range c.w {
				e := &winElem{row: c.e.row, keys: c.e.keys, fresh: true}
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
	pt.elems = nw
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

// isStart reports whether p[i] is the first of its peers.
func (w *Window) isStart(p []*winElem, i int) bool { return i == 0 || !w.peers(p[i-1], p[i]) }

// recompute sets nv of the rows of a touched partition whose result may
// have changed, and records them as [from, to).
func (w *Window) recompute(pt *winPart) error {
	p := pt.elems
	n := len(p)
	pt.from, pt.to = 0, 0
	if n == 0 {
		return nil
	}
	// The rows next to a deletion change too: widen the region by one.
	lo, hi := max(0, min(pt.lo, n)-1), min(n, max(pt.hi, pt.lo)+1)
	f := &w.fn
	switch f.Kind {
	case plan.WinRowNumber, plan.WinRank, plan.WinDenseRank:
		d := int64(0)
		if lo > 0 {
			d = p[lo-1].val.Int() // untouched: its result stands
		}
		gs := w.groupStart(p, lo)
		i := lo
		for ; i < n; i++ {
			e := p[i]
			start := w.isStart(p, i)
			if start {
				gs = i
				d++
			}
			switch f.Kind {
			case plan.WinRowNumber:
				e.nv = value.NewInt(value.Int8, int64(i+1))
			case plan.WinRank:
				e.nv = value.NewInt(value.Int8, int64(gs+1))
			default:
				e.nv = value.NewInt(value.Int8, d)
			}
			// Past the changes, once a row (the first of its peers, for
			// the ranks) keeps its result, so do all after it.
			if i >= hi && !e.fresh && identical(e.val, e.nv) && (f.Kind == plan.WinRowNumber || start) {
				break
			}
		}
		pt.from, pt.to = lo, i
		return nil
	case plan.WinPercentRank, plan.WinCumeDist, plan.WinNtile:
		if n != pt.n0 {
			lo, hi = 0, n
		} else {
			lo, hi = w.groupStart(p, lo), w.groupEnd(p, max(hi, lo+1)-1)
		}
		pt.from, pt.to = lo, hi
		return w.distribution(p, lo, hi)
	case plan.WinLag, plan.WinLead:
		k := int(min(max(f.N, -f.N), int64(n)))
		lo, hi = max(0, lo-k), min(n, hi+k)
		pt.from, pt.to = lo, hi
		off := f.N
		if f.Kind == plan.WinLag {
			off = -off
		}
		for i := lo; i < hi; i++ {
			e := p[i]
			e.nv = value.Null
			if f.NullN {
				continue
			}
			var err error
			if j := int64(i) + off; j >= 0 && j < int64(n) {
				e.nv, err = f.Arg.Eval(p[j].row)
			} else if f.Default != nil {
				e.nv, err = f.Default.Eval(e.row)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	// Frame functions: the rows whose frame reaches [lo, hi), peers
	// included under RANGE.
	fr := &f.Frame
	if !fr.Rows {
		lo, hi = w.groupStart(p, lo), w.groupEnd(p, max(hi, lo+1)-1)
	}
	a, b := lo, hi
	switch fr.End {
	case plan.UnboundedFollowing:
		a = 0
	case plan.OffsetFollowing:
		a = lo - int(min(fr.EndOff, int64(n)))
	case plan.OffsetPreceding:
		a = min(lo, lo+int(min(fr.EndOff, int64(n))))
	}
	switch fr.Start {
	case plan.UnboundedPreceding:
		b = n
	case plan.OffsetPreceding:
		b = hi + int(min(fr.StartOff, int64(n)))
	case plan.OffsetFollowing:
		b = max(hi, hi-int(min(fr.StartOff, int64(n))))
	}
	a, b = max(0, min(a, lo)), min(n, max(b, hi))
	pt.from, pt.to = a, b
	return w.computeFrames(p, a, b)
}

// distribution computes percent_rank, cume_dist or ntile for the rows
// [lo, hi), lo the first of its peers.
func (w *Window) distribution(p []*winElem, lo, hi int) error {
	f := &w.fn
	n := len(p)
	switch f.Kind {
	case plan.WinPercentRank:
		gs := lo
		for i := lo; i < hi; i++ {
			if w.isStart(p, i) {
				gs = i
			}
			x := 0.0
			if n > 1 {
				x = float64(gs) / float64(n-1)
			}
			p[i].nv = value.NewFloat(value.Float8, x)
		}
	case plan.WinCumeDist:
		end := 0
		for i := lo; i < hi; i++ {
			if i >= end {
				end = w.groupEnd(p, i)
			}
			p[i].nv = value.NewFloat(value.Float8, float64(end)/float64(n))
		}
	default:
		// PostgreSQL's walk: buckets of total/b rows, one more for the
		// first total mod b.
		if f.NullN {
			for _, e := range p[lo:hi] {
				e.nv = value.Null
			}
			return nil
		}
		bucket, inBucket := int64(1), int64(0)
		boundary, rem := int64(n)/f.N, int64(0)
		if boundary <= 0 {
			boundary = 1
		} else if rem = int64(n) % f.N; rem != 0 {
			boundary++
		}
		for i, e := range p[:hi] {
			inBucket++
			if boundary < inBucket {
				if rem != 0 && bucket == rem {
					rem = 0
					boundary--
				}
				bucket++
				inBucket = 1
			}
			if i >= lo {
				e.nv = value.NewInt(value.Int4, bucket)
			}
		}
	}
	return nil
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

// computeFrames computes a frame function for the rows [from, to): the
// frame's ends only move forward from row to row, so an aggregate adds the
// rows entering the frame and takes out those leaving it (MIN and MAX,
// which cannot take a value out, fold the frame again when its start
// moves).
func (w *Window) computeFrames(p []*winElem, from, to int) error {
	f := &w.fn
	n := len(p)
	arg := func(j int) (value.Value, error) {
		if f.Arg == nil {
			return value.NewInt(value.Int8, 1), nil
		}
		return f.Arg.Eval(p[j].row)
	}
	a := &w.acc
	a.reset()
	cs, ce := 0, 0 // the accumulated frame
	gs, ge := w.groupStart(p, from), 0
	for i := from; i < to; i++ {
		e := p[i]
		if w.isStart(p, i) {
			gs = i
		}
		if i >= ge {
			ge = w.groupEnd(p, i)
		}
		s, end := w.frame(i, n, gs, ge)
		var err error
		e.nv = value.Null
		switch f.Kind {
		case plan.WinFirstValue:
			if s < end {
				e.nv, err = arg(s)
			}
		case plan.WinLastValue:
			if s < end {
				e.nv, err = arg(end - 1)
			}
		case plan.WinNthValue:
			if !f.NullN && int64(s)+f.N-1 < int64(end) {
				e.nv, err = arg(s + int(f.N) - 1)
			}
		default:
			if i == from || s > cs && !a.invertible() || s >= ce {
				a.reset()
				cs, ce = s, s
			}
			for ; ce < end; ce++ {
				v, err := arg(ce)
				if err != nil {
					return err
				}
				if err := a.add(v, 1); err != nil {
					return err
				}
			}
			for ; cs < s; cs++ {
				v, err := arg(cs)
				if err != nil {
					return err
				}
				if err := a.add(v, -1); err != nil {
					return err
				}
			}
			e.nv, err = a.result()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Commit keeps the step's partitions and results.
func (w *Window) Commit() {
	for _, op := range w.undo {
		for _, e := range op.elems {
			d := dataflow.RowBytes(e.row) + winElemBytes
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
			w.bytes -= dataflow.RowBytes(e.row) + winElemBytes
		}
	}
	for key, pt := range w.staged {
		for _, e := range pt.elems[pt.from:pt.to] {
			e.val, e.nv = e.nv, value.Null
		}
		pt.gone = pt.gone[:0]
		if len(pt.elems) == 0 {
			delete(w.parts, key)
		}
	}
	w.staged, w.undo = nil, w.undo[:0]
}

// winElemBytes is an element's cost beyond its row: the struct and its
// pointer in the partition.
const winElemBytes = 96

// Abort undoes the step's insertions and deletions.
func (w *Window) Abort() {
	for i := len(w.undo) - 1; i >= 0; i-- {
		op := w.undo[i]
		if op.merged {
			op.p.elems = op.replace
		} else if op.insert {
			op.p.elems = slices.Delete(op.p.elems, op.pos, op.pos+len(op.elems))
		} else {
			op.p.elems = slices.Insert(op.p.elems, op.pos, op.elems...)
		}
	}
	for key, pt := range w.staged {
		pt.gone = pt.gone[:0]
		clear(pt.pending)
		pt.pending = pt.pending[:0]
		if len(pt.elems) == 0 {
			delete(w.parts, key)
		}
	}
	w.staged, w.undo = nil, w.undo[:0]
}

// Info describes the window and its cost.
func (w *Window) Info() dataflow.Info {
	f := &w.fn
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
	info := dataflow.Info{Kind: "Window", Detail: detail, State: "the rows of each partition, in order, with their results"}
	const move = "; a row entering or leaving moves the pointers after it in its partition"
	fr := &f.Frame
	switch {
	case f.Kind == plan.WinRowNumber || f.Kind == plan.WinRank || f.Kind == plan.WinDenseRank:
		info.Cost = "the rows from the change on, until the results agree again" + move
		info.Unbounded = "ranking: a row entering or leaving at the head of a partition changes the result of every later row of it"
	case f.Kind == plan.WinPercentRank || f.Kind == plan.WinCumeDist || f.Kind == plan.WinNtile:
		info.Cost = "the whole partition when its size changes, else the changed rows and their peers" + move
		info.Unbounded = "a row entering or leaving a partition changes the result of every row of it"
	case f.Kind == plan.WinLag || f.Kind == plan.WinLead:
		info.Cost = fmt.Sprintf("the rows within %d of a change", max(f.N, -f.N)) + move
	case fr.Start == plan.UnboundedPreceding:
		info.Cost = "the rows from the change to the end of the partition"
		if f.Kind == plan.WinAgg {
			info.Cost += ", the aggregate folded again from the partition's head"
		}
		info.Cost += move
		info.Unbounded = "running frame: a change at the head of a partition changes the result of every later row of it"
	case fr.End == plan.UnboundedFollowing:
		info.Cost = "the rows from the partition's head to the change"
		if f.Kind == plan.WinAgg {
			info.Cost += ", the aggregate folded to the partition's end"
		}
		info.Cost += move
		info.Unbounded = "frame to the end of the partition: a change at its tail changes the result of every earlier row of it"
	default:
		info.Cost = "the rows whose frame reaches the change"
		if f.Kind == plan.WinAgg && (f.Agg == plan.AggMin || f.Agg == plan.AggMax) {
			info.Cost += ", each folding its frame again (MIN and MAX cannot take a value out)"
		}
		info.Cost += move
		if !fr.Rows {
			info.Unbounded = "RANGE frame: a change changes the result of every peer of the changed row"
		}
	}
	return info
}

// State reports the rows kept.
func (w *Window) State() dataflow.StateSize {
	return dataflow.StateSize{Rows: w.rows, Bytes: w.bytes}
}

// winAcc is an aggregate over a window frame that rows enter and leave:
// counts, exact sums (a decimal for integers and numeric, a rational for
// floats, with the NaNs and infinities counted apart, and the numeric
// scales counted so the result has the frame's largest), or the best
// value for MIN and MAX, which only take rows in.
type winAcc struct {
	f   plan.AggFunc
	typ value.Type

	n      int64 // rows (count(*)) or non-NULL values
	dec    apd.Decimal
	rat    big.Rat
	tmp    big.Rat
	nan    int64
	posInf int64
	negInf int64
	negZ   int64 // float -0 values: a sum of only those is -0
	scales map[int32]int64
	best   value.Value
}

// winCtx adds and subtracts exactly; winQuant sets a sum's scale, which
// drops only zeros.
var (
	winCtx   = value.DecimalContext
	winQuant = func() apd.Context { c := value.DecimalContext; c.Precision = 1 << 20; return c }()
)

func (a *winAcc) invertible() bool { return a.f != plan.AggMin && a.f != plan.AggMax }

func (a *winAcc) reset() {
	a.n, a.nan, a.posInf, a.negInf, a.negZ = 0, 0, 0, 0, 0
	a.dec.SetInt64(0)
	a.rat.SetInt64(0)
	clear(a.scales)
	a.best = value.Null
}

// add takes v into the frame (w = 1) or out of it (w = -1).
func (a *winAcc) add(v value.Value, w int64) error {
	if a.f == plan.AggCountStar {
		a.n += w
		return nil
	}
	if v.IsNull() {
		return nil
	}
	a.n += w
	switch a.f {
	case plan.AggCount:
		return nil
	case plan.AggMin, plan.AggMax:
		// Of equal values the last wins, as PostgreSQL's smaller and
		// larger keep their state unless strictly better.
		if a.best.IsNull() {
			a.best = v
		} else if c := value.Compare(v, a.best); a.f == plan.AggMin && c <= 0 || a.f == plan.AggMax && c >= 0 {
			a.best = v
		}
		return nil
	}
	k := v.Kind()
	switch {
	case k.IsFloat():
		x := v.Float()
		switch {
		case math.IsNaN(x):
			a.nan += w
		case math.IsInf(x, 1):
			a.posInf += w
		case math.IsInf(x, -1):
			a.negInf += w
		default:
			if x == 0 && math.Signbit(x) {
				a.negZ += w
			}
			a.tmp.SetFloat64(x)
			if w < 0 {
				a.tmp.Neg(&a.tmp)
			}
			a.rat.Add(&a.rat, &a.tmp)
		}
		return nil
	case k.IsInteger():
		var d apd.Decimal
		d.SetInt64(v.Int())
		return a.addDec(&d, w)
	case k == value.Numeric:
		d := v.Decimal()
		switch d.Form {
		case apd.NaN, apd.NaNSignaling:
			a.nan += w
			return nil
		case apd.Infinite:
			if d.Negative {
				a.negInf += w
			} else {
				a.posInf += w
			}
			return nil
		}
		if a.scales == nil {
			a.scales = map[int32]int64{}
		}
		if a.scales[-d.Exponent] += w; a.scales[-d.Exponent] == 0 {
			delete(a.scales, -d.Exponent)
		}
		return a.addDec(d, w)
	}
	return pgerr.New(pgerr.FeatureNotSupported, "%s(%s) is not supported as a window function", a.f, k)
}

func (a *winAcc) addDec(d *apd.Decimal, w int64) error {
	var err error
	if w > 0 {
		_, err = winCtx.Add(&a.dec, &a.dec, d)
	} else {
		_, err = winCtx.Sub(&a.dec, &a.dec, d)
	}
	return err
}

// result is the aggregate over the frame.
func (a *winAcc) result() (value.Value, error) {
	switch a.f {
	case plan.AggCountStar, plan.AggCount:
		return value.NewInt(value.Int8, a.n), nil
	}
	if a.n == 0 {
		return value.Null, nil
	}
	switch a.f {
	case plan.AggMin, plan.AggMax:
		return a.best, nil
	}
	if a.typ.Kind.IsFloat() {
		return a.floatResult()
	}
	// Integers and numeric.
	if a.nan > 0 || a.posInf > 0 && a.negInf > 0 {
		return value.NewNumeric(&apd.Decimal{Form: apd.NaN}), nil
	}
	if a.posInf > 0 || a.negInf > 0 {
		return value.NewNumeric(&apd.Decimal{Form: apd.Infinite, Negative: a.negInf > 0}), nil
	}
	sum := new(apd.Decimal).Set(&a.dec)
	scale := int32(0)
	for s := range a.scales {
		scale = max(scale, s)
	}
	if _, err := winQuant.Quantize(sum, sum, -scale); err != nil {
		return value.Null, err
	}
	if a.typ.Kind == value.Int8 { // sum of smallint or integer
		i, err := sum.Int64()
		if err != nil {
			return value.Null, pgerr.New(pgerr.NumericOutOfRange, "bigint out of range")
		}
		return value.NewInt(value.Int8, i), nil
	}
	if a.f == plan.AggAvg {
		return value.Div(value.NewNumeric(sum), value.NewNumeric(apd.New(a.n, 0)))
	}
	return value.NewNumeric(sum), nil
}

// floatResult is sum or avg of floats: the exact sum rounded once.
func (a *winAcc) floatResult() (value.Value, error) {
	k := a.typ.Kind
	switch {
	case a.nan > 0 || a.posInf > 0 && a.negInf > 0:
		return value.NewFloat(k, math.NaN()), nil
	case a.posInf > 0:
		return value.NewFloat(k, math.Inf(1)), nil
	case a.negInf > 0:
		return value.NewFloat(k, math.Inf(-1)), nil
	}
	overflow := pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow")
	if s, _ := a.rat.Float64(); math.IsInf(s, 0) {
		return value.Null, overflow
	}
	if a.f == plan.AggAvg {
		a.tmp.SetInt64(a.n)
		r, _ := a.tmp.Quo(&a.rat, &a.tmp).Float64()
		return value.NewFloat(value.Float8, r), nil
	}
	if a.negZ == a.n {
		return value.NewFloat(k, math.Copysign(0, -1)), nil
	}
	if k == value.Float4 {
		r, _ := a.rat.Float32()
		if math.IsInf(float64(r), 0) {
			return value.Null, overflow
		}
		return value.NewFloat(value.Float4, float64(r)), nil
	}
	r, _ := a.rat.Float64()
	return value.NewFloat(value.Float8, r), nil
}
