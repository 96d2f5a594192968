package op

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// The parts of a Window that read a frame with an exclusion, and the
// aggregates that the trees' nodes do not summarise: var_*, stddev_*,
// bool_and, bool_or and sum and avg of intervals slide the grouped
// aggregates' own accumulators along the partition; string_agg and
// array_agg list each frame's values again.

// winPieces is a frame less its exclusion: up to three ranges of
// positions, in order.
type winPieces [3][2]int

// pieces is the frame [s, e) of row i, whose peers are [gs, ge), less
// what the exclusion takes out.
func pieces(x plan.FrameExclude, s, e, i, gs, ge int) winPieces {
	var xs, xe int
	switch x {
	case plan.ExcludeNoOthers:
		return winPieces{{s, e}, {e, e}, {e, e}}
	case plan.ExcludeCurrentRow:
		xs, xe = i, i+1
	default:
		xs, xe = gs, ge
	}
	clamp := func(p int) int { return min(max(p, s), e) }
	p := winPieces{{s, clamp(xs)}, {e, e}, {clamp(xe), e}}
	if x == plan.ExcludeTies && i >= s && i < e {
		p[1] = [2]int{i, i + 1}
	}
	return p
}

// len is the number of rows of the frame.
func (p *winPieces) len() int {
	n := 0
	for _, r := range p {
		n += max(0, r[1]-r[0])
	}
	return n
}

// at is the position of the frame's k-th row (from 0), or -1.
func (p *winPieces) at(k int) int {
	for _, r := range p {
		if n := r[1] - r[0]; k < n {
			return r[0] + k
		} else if n > 0 {
			k -= n
		}
	}
	return -1
}

// last is the position of the frame's last row, or -1.
func (p *winPieces) last() int {
	for j := len(p) - 1; j >= 0; j-- {
		if p[j][1] > p[j][0] {
			return p[j][1] - 1
		}
	}
	return -1
}

// winGeneric reports whether the aggregate is one the trees' nodes do
// not summarise.
func winGeneric(f *plan.WinFunc) bool {
	if f.Kind != plan.WinAgg {
		return false
	}
	switch f.Agg {
	case plan.AggCountStar, plan.AggCount, plan.AggMin, plan.AggMax:
		return false
	case plan.AggSum, plan.AggAvg:
		return f.Arg.Type().Kind == value.Interval
	}
	return true
}

// newWinSpec is the grouped aggregate's spec of a generic aggregate: a
// regression aggregate reads the pair (y, x) of each row.
func newWinSpec(f *plan.WinFunc) *aggSpec {
	s := &aggSpec{Aggregate: Aggregate{Func: f.Agg, Arg: f.Arg, Sep: f.Sep, X: winX(f)}, set: -1, typ: f.Type, in: f.Arg.Type().Kind, width: 1}
	if s.X != nil {
		s.width = 2
	}
	s.make = accumMaker(s)
	return s
}

// winX is x of a two-argument aggregate (corr(y, x), …), over the row;
// nil for the others.
func winX(f *plan.WinFunc) expr.Expr {
	if f.Call == nil || !f.Agg.Has(plan.AggTwoArgs) {
		return nil
	}
	return f.Call.X
}

// piecesNative computes a count, sum, avg, min or max over a frame with
// an exclusion: each piece read from the tree when wide, else folded.
func (w *Window) piecesNative(t *winTree, p *winPieces) (value.Value, error) {
	a := &w.acc
	a.reset()
	var r winReader
	for _, x := range p {
		if x[1]-x[0] > winFoldMax {
			t.addRange(a, x[0], x[1])
			continue
		}
		for j := x[0]; j < x[1]; j++ {
			if err := a.add(w.argAt(t, &r, j), 1, &w.sc); err != nil {
				return value.Null, err
			}
		}
	}
	return a.result(&w.sc)
}

// argAt is the aggregate's argument at position j: 1 for count(*).
func (w *Window) argAt(t *winTree, r *winReader, j int) value.Value {
	if w.fn.Arg == nil && w.fn.Filter == nil {
		return winOne
	}
	return t.at(r, j).arg
}

var winOne = value.NewInt(value.Int8, 1)

// winSlide is a generic aggregate slid along a partition: the
// accumulator holds the rows [cs, ce).
// x, for a two-argument aggregate, is its second argument, read from
// each row as it enters or leaves (the element keeps only y); err is the
// first error that reading met.
type winSlide struct {
	acc    accum
	cs, ce int
	ch     []aggChange
	vals   []value.Value
	x      expr.Expr
	err    error
}

// change stages the change of row j's argument with weight wt.
func (g *winSlide) change(e *winElem, wt int64) {
	if e.skip {
		return
	}
	g.vals = append(g.vals, e.arg)
	if g.x == nil {
		g.ch = append(g.ch, aggChange{vals: g.vals[len(g.vals)-1:], w: wt})
		return
	}
	x, err := g.x.Eval(e.row)
	if err != nil && g.err == nil {
		g.err = err
	}
	g.vals = append(g.vals, x)
	g.ch = append(g.ch, aggChange{vals: g.vals[len(g.vals)-2:], w: wt})
}

// genericFrame computes a generic aggregate over row i's frame [s, e),
// p being the frame less its exclusion: the accumulator slides to
// [s, e), then the excluded rows are staged out and the result read.
func (w *Window) genericFrame(t *winTree, g *winSlide, first bool, s, e int, p *winPieces) (value.Value, error) {
	c := &w.gctx
	if w.fn.Agg.Has(plan.AggOrdered) {
		return w.orderedFrame(t, p)
	}
	var r winReader
	if first || s >= g.ce || s < g.cs {
		g.acc = w.gen.make(w.gen)
		g.cs, g.ce = s, s
	}
	g.ch, g.vals = g.ch[:0], g.vals[:0]
	for ; g.ce < e; g.ce++ {
		g.change(t.at(&r, g.ce), 1)
	}
	for ; g.cs < s; g.cs++ {
		g.change(t.at(&r, g.cs), -1)
	}
	if g.err != nil {
		return value.Null, g.err
	}
	c.spec = w.gen
	v, err := g.acc.stage(c, g.ch)
	if err != nil {
		return value.Null, err
	}
	g.acc.commit()
	c.nExact, c.nFloat, c.nSum = 0, 0, 0
	if p.len() == e-s {
		return v, nil
	}
	// The exclusion, between the first piece and the last but for the
	// middle one (the current row kept by EXCLUDE TIES), staged out,
	// then dropped.
	g.ch, g.vals = g.ch[:0], g.vals[:0]
	for j := p[0][1]; j < p[2][0]; j++ {
		if j < p[1][0] || j >= p[1][1] {
			g.change(t.at(&r, j), -1)
		}
	}
	if g.err != nil {
		return value.Null, g.err
	}
	v, err = g.acc.stage(c, g.ch)
	g.acc.abort()
	c.nExact, c.nFloat, c.nSum = 0, 0, 0
	return v, err
}

// orderedFrame lists the frame's values in the window's order:
// string_agg's non-NULL values, each after the first preceded by its
// row's separator, or array_agg's text form.
func (w *Window) orderedFrame(t *winTree, p *winPieces) (value.Value, error) {
	isArray := w.fn.Agg == plan.AggArrayAgg
	var elems []value.Value
	b := w.gctx.buf[:0]
	first := true
	var r winReader
	for _, x := range p {
		for j := x[0]; j < x[1]; j++ {
			e := t.at(&r, j)
			if e.skip {
				continue
			}
			if isArray {
				elems = append(elems, e.arg)
				first = false
				continue
			}
			if e.arg.IsNull() {
				continue
			}
			if !first {
				sep, err := w.fn.Sep.Eval(e.row)
				if err != nil {
					return value.Null, err
				}
				if !sep.IsNull() {
					b = value.AppendConcat(b, sep)
				}
			}
			b = value.AppendConcat(b, e.arg)
			first = false
		}
	}
	w.gctx.buf = b
	if first {
		return value.Null, nil
	}
	if isArray {
		return value.ArrayAgg(w.fn.Type.Kind, elems, w.fn.Arg.Type().Kind == w.fn.Type.Kind)
	}
	return value.Concatenated(w.fn.Type.Kind, b), nil
}

// rangeEdge is where a RANGE offset bound of a row whose ORDER BY value
// is key (not NULL) lies: for a start, the first row at or past the
// bound, for an end the first row past it, found in the tree in
// O(log n). A NULL orders before or after every value, as it sorts.
func (w *Window) rangeEdge(t *winTree, key, off value.Value, preceding, start bool) (int, error) {
	o := &w.order[0]
	b, all, inf, err := plan.RangeBound(key, off, preceding != o.Desc)
	if err != nil {
		return 0, err
	}
	dir := func(x *winElem, _ *winElem) int {
		v := x.keys[0]
		var c int
		switch {
		case v.IsNull():
			if o.NullsFirst {
				return -1
			}
			return 1
		case all:
			c = plan.RangeAllCompare(v, start == o.Desc)
		case inf != 0:
			c = -inf
		default:
			c = plan.RangeCompare(v, b)
		}
		if o.Desc {
			c = -c
		}
		if c == 0 && !start {
			return -1 // past the bound: the first row after it
		}
		return c
	}
	j, _ := t.search(nil, dir)
	return j, nil
}

// rangeFrame is the RANGE frame [s, e) of element x, s and e being its
// frame for the bounds that are not offsets and gs, ge its peers: an
// offset bound of a row whose value is NULL is its peers'.
func (w *Window) rangeFrame(t *winTree, x *winElem, s, e, gs, ge int) (int, int, error) {
	fr := &w.fn.Frame
	k := x.keys[0]
	var err error
	if fr.Start == plan.OffsetPreceding || fr.Start == plan.OffsetFollowing {
		s = gs
		if !k.IsNull() {
			if s, err = w.rangeEdge(t, k, fr.StartVal, fr.Start == plan.OffsetPreceding, true); err != nil {
				return 0, 0, err
			}
		}
	}
	if fr.End == plan.OffsetPreceding || fr.End == plan.OffsetFollowing {
		e = ge
		if !k.IsNull() {
			if e, err = w.rangeEdge(t, k, fr.EndVal, fr.End == plan.OffsetPreceding, false); err != nil {
				return 0, 0, err
			}
		}
	}
	return s, max(s, e), nil
}

// rangeReach is the rows [a, b) whose RANGE frame with an offset may
// reach the changed rows [lo, hi), lo and hi the edges of peer groups:
// those whose value is within the end bound's offset before the first
// change, mirrored, up to those within the start bound's offset after
// the last. A change among the NULLs reaches only the NULLs.
func (w *Window) rangeReach(t *winTree, lo, hi int) (int, int, error) {
	fr := &w.fn.Frame
	n := t.len()
	var r winReader
	first, last := t.at(&r, lo), t.at(&r, max(hi, lo+1)-1)
	a, b := lo, hi
	var err error
	switch {
	case fr.End == plan.UnboundedFollowing:
		a = 0
	case first.keys[0].IsNull() || fr.End == plan.CurrentRow:
		a = lo
	default:
		// A row sees the change when it is within the end's offset,
		// mirrored, of the first changed value.
		if a, err = w.rangeEdge(t, first.keys[0], fr.EndVal, fr.End == plan.OffsetFollowing, true); err != nil {
			return 0, 0, err
		}
	}
	switch {
	case fr.Start == plan.UnboundedPreceding:
		b = n
	case last.keys[0].IsNull() || fr.Start == plan.CurrentRow:
		b = hi
	default:
		if b, err = w.rangeEdge(t, last.keys[0], fr.StartVal, fr.Start == plan.OffsetFollowing, false); err != nil {
			return 0, 0, err
		}
	}
	return min(a, lo), max(b, hi), nil
}
