package op

import (
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

// newWinSpec is the grouped aggregate's spec of a generic aggregate.
func newWinSpec(f *plan.WinFunc) *aggSpec {
	s := &aggSpec{Aggregate: Aggregate{Func: f.Agg, Arg: f.Arg, Sep: f.Sep}, set: -1, typ: f.Type, in: f.Arg.Type().Kind, width: 1}
	s.make = accumMaker(s)
	return s
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
type winSlide struct {
	acc    accum
	cs, ce int
	ch     []aggChange
	vals   []value.Value
}

// change stages the change of row j's argument with weight wt.
func (g *winSlide) change(e *winElem, wt int64) {
	if e.skip {
		return
	}
	g.vals = append(g.vals, e.arg)
	g.ch = append(g.ch, aggChange{vals: g.vals[len(g.vals)-1:], w: wt})
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
	c.spec = w.gen
	v, err := g.acc.stage(c, g.ch)
	if err != nil {
		return value.Null, err
	}
	g.acc.commit()
	c.nExact, c.nFloat = 0, 0
	if p.len() == e-s {
		return v, nil
	}
	// The exclusion: the frame's rows not in p staged out, then dropped.
	g.ch, g.vals = g.ch[:0], g.vals[:0]
	for j := s; j < e; j++ {
		if !p.has(j) {
			g.change(t.at(&r, j), -1)
		}
	}
	v, err = g.acc.stage(c, g.ch)
	g.acc.abort()
	c.nExact, c.nFloat = 0, 0
	return v, err
}

// has reports whether position j is in p.
func (p *winPieces) has(j int) bool {
	for _, r := range p {
		if j >= r[0] && j < r[1] {
			return true
		}
	}
	return false
}

// orderedFrame lists the frame's values in the window's order:
// string_agg's non-NULL values, each after the first preceded by its
// row's separator, or array_agg's text form.
func (w *Window) orderedFrame(t *winTree, p *winPieces) (value.Value, error) {
	isArray := w.fn.Agg == plan.AggArrayAgg
	b := w.gctx.buf[:0]
	if isArray {
		b = append(b, '{')
	}
	first := true
	var r winReader
	for _, x := range p {
		for j := x[0]; j < x[1]; j++ {
			e := t.at(&r, j)
			if e.skip {
				continue
			}
			if isArray {
				if !first {
					b = append(b, ',')
				}
				b = appendArrayElem(b, e.arg)
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
					b = value.AppendText(b, sep)
				}
			}
			b = value.AppendText(b, e.arg)
			first = false
		}
	}
	w.gctx.buf = b
	if first {
		return value.Null, nil
	}
	if isArray {
		b = append(b, '}')
	}
	return value.NewText(value.Text, string(b)), nil
}
