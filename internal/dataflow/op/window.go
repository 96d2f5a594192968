package op

import (
	"math"
	"math/big"
	"slices"

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
// step re-sorts the partitions it touches by binary insertion and
// deletion, recomputes their results in one pass (running and sliding
// frames are accumulated, not refolded per row, except MIN/MAX over a
// sliding frame), and emits the retraction and insertion of exactly the
// rows whose result changed: a change whose effects cancel emits nothing.
type Window struct {
	part  []expr.Expr
	order []dataflow.SortKey
	fn    plan.WinFunc

	parts  map[string][]*winElem // committed, each sorted
	staged map[string][]*winElem
	out    zset.ZSet
	rows   int64
	bytes  int64
	buf    []byte

	// scratch for a partition's recomputation
	grp []int // each element's peer group: index of its first peer
	acc winAcc
}

// winElem is one copy of an input row in its partition.
type winElem struct {
	row   value.Row
	keys  []value.Value
	val   value.Value // the result emitted
	nv    value.Value // the result computed by the current step
	fresh bool        // inserted by the current step
	alive bool        // scratch: still in the partition after the step
}

var _ dataflow.Operator = (*Window)(nil)

// NewWindow returns the operator computing fn over the partitions of part
// ordered by order.
func NewWindow(part []expr.Expr, order []dataflow.SortKey, fn plan.WinFunc) *Window {
	return &Window{part: part, order: order, fn: fn, parts: map[string][]*winElem{}, acc: winAcc{f: fn.Agg, typ: fn.Type}}
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

// Step applies the changes to the partitions they touch, recomputes those
// and emits the results that changed.
func (w *Window) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(w.out)
	w.staged = map[string][]*winElem{}
	for _, e := range in[0] {
		w.buf = w.buf[:0]
		for _, p := range w.part {
			v, err := p.Eval(e.Row)
			if err != nil {
				return nil, err
			}
			w.buf = value.AppendKey(w.buf, v)
		}
		cur, ok := w.staged[string(w.buf)]
		if !ok {
			cur = slices.Clone(w.parts[string(w.buf)])
		}
		probe := &winElem{row: e.Row, keys: make([]value.Value, len(w.order))}
		for i, o := range w.order {
			v, err := o.Expr.Eval(e.Row)
			if err != nil {
				return nil, err
			}
			probe.keys[i] = v
		}
		i, found := slices.BinarySearchFunc(cur, probe, w.cmp)
		if e.W > 0 {
			add := make([]*winElem, e.W)
			for k := range add {
				add[k] = &winElem{row: e.Row, keys: probe.keys, fresh: true}
			}
			cur = slices.Insert(cur, i, add...)
		} else {
			n := int(-e.W)
			if !found || i+n > len(cur) || w.cmp(cur[i+n-1], probe) != 0 {
				return nil, pgerr.New(pgerr.Internal, "window: retraction of a row not in its partition")
			}
			cur = slices.Delete(cur, i, i+n)
		}
		w.staged[string(w.buf)] = cur
	}
	for key, cur := range w.staged {
		old := w.parts[key]
		for _, e := range old {
			e.alive = false
		}
		for _, e := range cur {
			e.alive = true
		}
		for _, e := range old {
			if !e.alive {
				out = append(out, zset.Entry{Row: withValue(e.row, e.val), W: -1})
			}
		}
		if err := w.compute(cur); err != nil {
			return nil, err
		}
		for _, e := range cur {
			if e.fresh {
				out = append(out, zset.Entry{Row: withValue(e.row, e.nv), W: 1})
			} else if !sameValue(e.val, e.nv) {
				out = append(out, zset.Entry{Row: withValue(e.row, e.val), W: -1}, zset.Entry{Row: withValue(e.row, e.nv), W: 1})
			}
		}
	}
	w.out = zset.Consolidate(out)
	return w.out, nil
}

// withValue is row with v appended.
func withValue(row value.Row, v value.Value) value.Row {
	r := make(value.Row, len(row)+1)
	copy(r, row)
	r[len(row)] = v
	return r
}

// sameValue reports whether two results print the same: equal, and for
// numerics of the same scale.
func sameValue(a, b value.Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() == b.IsNull()
	}
	if a.Kind() != b.Kind() || value.Compare(a, b) != 0 {
		return false
	}
	if a.Kind() == value.Numeric {
		return a.Decimal().Exponent == b.Decimal().Exponent && a.Decimal().Form == b.Decimal().Form
	}
	if a.Kind().IsFloat() {
		return math.Signbit(a.Float()) == math.Signbit(b.Float())
	}
	return true
}

// compute sets nv of each element of a sorted partition.
func (w *Window) compute(p []*winElem) error {
	n := len(p)
	w.grp = w.grp[:0]
	for i := range p {
		if i > 0 && w.peers(p[i-1], p[i]) {
			w.grp = append(w.grp, w.grp[i-1])
		} else {
			w.grp = append(w.grp, i)
		}
	}
	// groupEnd is the end of the peer group of i: one past its last peer.
	groupEnd := func(i int) int {
		j := i + 1
		for j < n && w.grp[j] == w.grp[i] {
			j++
		}
		return j
	}
	f := &w.fn
	switch f.Kind {
	case plan.WinRowNumber:
		for i, e := range p {
			e.nv = value.NewInt(value.Int8, int64(i+1))
		}
	case plan.WinRank:
		for i, e := range p {
			e.nv = value.NewInt(value.Int8, int64(w.grp[i]+1))
		}
	case plan.WinDenseRank:
		d := int64(0)
		for i, e := range p {
			if w.grp[i] == i {
				d++
			}
			e.nv = value.NewInt(value.Int8, d)
		}
	case plan.WinPercentRank:
		for i, e := range p {
			x := 0.0
			if n > 1 {
				x = float64(w.grp[i]) / float64(n-1)
			}
			e.nv = value.NewFloat(value.Float8, x)
		}
	case plan.WinCumeDist:
		end := 0
		for i, e := range p {
			if i >= end {
				end = groupEnd(i)
			}
			e.nv = value.NewFloat(value.Float8, float64(end)/float64(n))
		}
	case plan.WinNtile:
		// PostgreSQL's walk: buckets of total/b rows, one more for the
		// first total mod b.
		if f.NullN {
			for _, e := range p {
				e.nv = value.Null
			}
			break
		}
		bucket, inBucket := int64(1), int64(0)
		boundary, rem := int64(n)/f.N, int64(0)
		if boundary <= 0 {
			boundary = 1
		} else if rem = int64(n) % f.N; rem != 0 {
			boundary++
		}
		for _, e := range p {
			inBucket++
			if boundary < inBucket {
				if rem != 0 && bucket == rem {
					rem = 0
					boundary--
				}
				bucket++
				inBucket = 1
			}
			e.nv = value.NewInt(value.Int4, bucket)
		}
	case plan.WinLag, plan.WinLead:
		off := f.N
		if f.Kind == plan.WinLag {
			off = -off
		}
		for i, e := range p {
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
	default:
		return w.computeFrames(p, groupEnd)
	}
	return nil
}

// frame is row i's frame [s, e).
func (w *Window) frame(i, n int, groupEnd func(int) int) (int, int) {
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
			s = w.grp[i]
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
			e = groupEnd(i)
		}
	case plan.OffsetFollowing:
		e = clamp(int64(i) + min(fr.EndOff, int64(n)) + 1)
	case plan.UnboundedFollowing:
		e = n
	}
	return s, max(s, e)
}

// computeFrames computes a frame function: the frame's ends only move
// forward from row to row, so an aggregate adds the rows entering the
// frame and takes out those leaving it (MIN and MAX, which cannot take a
// value out, fold the frame again when its start moves).
func (w *Window) computeFrames(p []*winElem, groupEnd func(int) int) error {
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
	gEnd := 0
	for i, e := range p {
		if i >= gEnd {
			gEnd = groupEnd(i)
		}
		s, end := w.frame(i, n, func(int) int { return gEnd })
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
			if s > cs && !a.invertible() || s >= ce {
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

// Commit applies the staged partitions.
func (w *Window) Commit() {
	for key, cur := range w.staged {
		for _, e := range w.parts[key] {
			w.rows--
			w.bytes -= dataflow.RowBytes(e.row) + winElemBytes
		}
		for _, e := range cur {
			e.val, e.nv, e.fresh = e.nv, value.Null, false
			w.rows++
			w.bytes += dataflow.RowBytes(e.row) + winElemBytes
		}
		if len(cur) == 0 {
			delete(w.parts, key)
		} else {
			w.parts[key] = cur
		}
	}
	w.staged = nil
}

// winElemBytes is an element's cost beyond its row: the struct and its
// pointer in the partition.
const winElemBytes = 96

// Abort drops the staged partitions.
func (w *Window) Abort() {
	for _, cur := range w.staged {
		for _, e := range cur {
			e.nv = value.Null
		}
	}
	w.staged = nil
}

// Info describes the window and its cost.
func (w *Window) Info() dataflow.Info {
	info := dataflow.Info{Kind: "Window", Detail: w.fn.String(), State: "the rows of each partition, in order, with their results",
		Cost: "O(rows of the partition) per touched partition to recompute; the output is only the rows whose result changed"}
	switch f := &w.fn; {
	case f.Kind == plan.WinLag || f.Kind == plan.WinLead:
		info.Unbounded = "a change shifts the rows of its partition: the partition is recomputed, though only the rows at the offset's distance change"
	case f.Kind.UsesFrame() && f.Frame.Running():
		info.Unbounded = "running frame: a change at the head of a partition changes the result of every later row of it"
	case f.Kind.UsesFrame() && f.Frame.End == plan.UnboundedFollowing:
		info.Unbounded = "frame to the end of the partition: a change at its tail changes the result of every earlier row"
	case f.Kind.UsesFrame():
		info.Unbounded = "sliding frame: the partition is recomputed, though only the rows whose frame holds the change change"
	default:
		info.Unbounded = "ranking: a change at the head of a partition changes the result of every later row of it"
	}
	if f := &w.fn; f.Kind == plan.WinAgg && (f.Agg == plan.AggMin || f.Agg == plan.AggMax) && f.Frame.Start != plan.UnboundedPreceding {
		info.Cost += "; MIN/MAX over a sliding frame fold the frame again for each row"
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
