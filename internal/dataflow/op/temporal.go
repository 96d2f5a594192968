package op

import (
	"math"
	"strings"
	"unsafe"

	"github.com/tidwall/btree"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Temporal keeps the rows whose temporal predicates have yet to change
// value, in a B-tree ordered by the instant of each row's next change:
// rows waiting to enter, and rows in the output that will leave. A row's
// predicates (ts > now() - interval '1 hour', …) hold from one instant to
// another that depend on the row alone, so a row that is past both needs
// no state, and one that never leaves needs none once it is in.
//
// The operator has two inputs: the rows, and the clock, a batch holding
// one row (the new time, a timestamptz) when time has advanced. A step
// first moves the rows whose instant has come (in order, each with its
// weight), then filters the new rows at the new time. Advancing the clock
// costs O(rows that change · log n); a row costs O(log n).
type Temporal struct {
	conds []*temporalCond
	text  []string // the comparisons as written
	now   int64    // the committed time, in microseconds since 2000-01-01 UTC
	due   *btree.BTreeG[tempItem]
	// staged are the tree's changes of the step in progress, newNow its
	// time.
	staged []tempItem
	newNow int64
	out    zset.ZSet
	bytes  int64
}

var _ dataflow.Operator = (*Temporal)(nil)

// Never is the instant of a change that never comes.
const Never = math.MaxInt64

// clockLimit bounds the search for a row's instant: ±2^60 µs is about
// 36,000 years either side of 2000.
const clockLimit = 1 << 60

// tempItem is a row waiting for the clock: at is the instant of its next
// change, [start, end) the times at which it is in the output.
type tempItem struct {
	at         int64
	row        value.Row
	w          int64
	start, end int64
}

func (it *tempItem) in(now int64) bool { return it.start <= now && now < it.end }

// next returns the instant of the item's next change after now, or Never.
func (it *tempItem) next(now int64) int64 {
	switch {
	case now < it.start:
		return it.start
	case now < it.end:
		return it.end
	}
	return Never
}

// temporalCond is one temporal comparison, evaluated with the row's side
// and the clock in slots.
type temporalCond struct {
	t       *expr.Temporal
	cmp     expr.Expr
	rowSlot expr.ParamSlot
	nowSlot expr.ParamSlot
	bound   expr.Expr // Bound over the now slot
	leaves  bool
}

// NewTemporal returns the operator over the comparisons conds (each one
// expr.AsTemporal accepts) at time now (microseconds since 2000-01-01
// UTC).
func NewTemporal(conds []*expr.Temporal, now int64) *Temporal {
	t := &Temporal{now: now, newNow: now, due: btree.NewBTreeGOptions(tempLess, btree.Options{NoLocks: true})}
	for _, tc := range conds {
		for _, half := range tc.Halves() {
			t.conds = append(t.conds, newTemporalCond(tc, half))
		}
	}
	for _, tc := range conds {
		t.text = append(t.text, tc.Cmp.String())
	}
	return t
}

// newTemporalCond returns the comparison half (one of tc.Halves()).
func newTemporalCond(tc *expr.Temporal, half expr.CmpOp) *temporalCond {
	c := &temporalCond{t: tc, leaves: expr.Leaves(half)}
	c.rowSlot = expr.ParamSlot{T: tc.Row.Type(), Set: true}
	c.nowSlot = expr.ParamSlot{T: value.TimestampTZType, Set: true}
	now := &expr.Param{Slot: &c.nowSlot, T: value.TimestampTZType}
	c.bound = expr.Rewrite(tc.Bound, func(x expr.Expr) expr.Expr {
		if f, ok := x.(*expr.Func); ok && f.Def != nil && expr.IsClockFunc(f.Def.Name) {
			if f.T.Kind == value.Date {
				return &expr.Cast{E: now, To: value.DateType, Explicit: true}
			}
			return now
		}
		return x
	})
	c.cmp = &expr.Cmp{Op: half, L: &expr.Param{Slot: &c.rowSlot, T: tc.Row.Type()}, R: c.bound}
	return c
}

func tempLess(a, b tempItem) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return value.CompareRows(a.row, b.row) < 0
}

// late reports whether the comparison of the row's value v has its late
// value at time at (false for one that leaves, true for one that enters);
// an error counts as not yet.
func (c *temporalCond) late(v value.Value, at int64) bool {
	c.rowSlot.V = v
	c.nowSlot.V = value.NewTimestamp(value.TimestampTZ, at)
	r, err := c.cmp.Eval(nil)
	if err != nil || r.Kind() != value.Bool {
		return false
	}
	return r.Bool() != c.leaves
}

// instant returns the first time at which the comparison of v takes its
// late value: -clockLimit when it always has it, Never when it never
// does. It searches from a guess (exact when the bound is the clock plus
// a fixed interval), galloping then bisecting, so a bound with months or
// a date costs a few dozen evaluations at most.
func (c *temporalCond) instant(v value.Value, hint int64) int64 {
	g := hint
	c.nowSlot.V = value.NewTimestamp(value.TimestampTZ, hint)
	if b, err := c.bound.Eval(nil); err == nil && b.Kind() == v.Kind() {
		switch v.Kind() {
		case value.Timestamp, value.TimestampTZ:
			g = hint + clampDiff(v.Int(), b.Int(), 1)
		case value.Date:
			g = hint + clampDiff(v.Int(), b.Int(), 86400_000000)
		}
	}
	g = max(-clockLimit, min(clockLimit, g))
	var lo, hi int64 // !late(lo), late(hi)
	if c.late(v, g) {
		hi = g
		for step := int64(1); ; step *= 2 {
			if g-step <= -clockLimit {
				if c.late(v, -clockLimit) {
					return -clockLimit
				}
				lo = -clockLimit
				break
			}
			if !c.late(v, g-step) {
				lo = g - step
				break
			}
			hi = g - step
		}
	} else {
		lo = g
		for step := int64(1); ; step *= 2 {
			if g+step >= clockLimit {
				if !c.late(v, clockLimit) {
					return Never
				}
				hi = clockLimit
				break
			}
			if c.late(v, g+step) {
				hi = g + step
				break
			}
			lo = g + step
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if c.late(v, mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// clampDiff returns (a-b)*unit, clamped to ±clockLimit (infinite values
// sit at the ends of int64).
func clampDiff(a, b, unit int64) int64 {
	d := float64(a)/float64(unit) - float64(b)/float64(unit)
	d *= float64(unit)
	if d > clockLimit {
		return clockLimit
	}
	if d < -clockLimit {
		return -clockLimit
	}
	return int64(d)
}

// window returns the times [start, end) at which row is in the output;
// ok is false when it never is (a NULL, or an empty window).
func (t *Temporal) window(row value.Row, hint int64) (start, end int64, ok bool, err error) {
	start, end = -clockLimit, Never
	for _, c := range t.conds {
		v, err := c.t.Row.Eval(row)
		if err != nil {
			return 0, 0, false, err
		}
		if v.IsNull() {
			return 0, 0, false, nil
		}
		at := c.instant(v, hint)
		if c.leaves {
			end = min(end, at)
		} else {
			start = max(start, at)
		}
	}
	return start, end, start < end, nil
}

// Step moves the rows whose instant has come when the clock advances,
// then filters the new rows at the (new) time.
func (t *Temporal) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(t.out)
	t.out = nil
	t.staged = t.staged[:0]
	now := t.now
	for _, e := range in[1] {
		if e.W > 0 && len(e.Row) == 1 {
			now = max(now, e.Row[0].Int())
		}
	}
	t.newNow = now
	if now > t.now {
		t.due.Scan(func(it tempItem) bool {
			if it.at > now {
				return false
			}
			was, is := it.in(t.now), it.in(now)
			switch {
			case is && !was:
				out = append(out, zset.Entry{Row: it.row, W: it.w})
			case was && !is:
				out = append(out, zset.Entry{Row: it.row, W: -it.w})
			}
			gone := it
			gone.w = -it.w
			t.staged = append(t.staged, gone)
			if at := it.next(now); at != Never {
				it.at = at
				t.staged = append(t.staged, it)
			}
			return true
		})
	}
	for _, e := range in[0] {
		start, end, ok, err := t.window(e.Row, now)
		if err != nil {
			clear(out)
			t.out = out[:0]
			t.staged = t.staged[:0]
			return nil, err
		}
		if !ok {
			continue
		}
		it := tempItem{row: e.Row, w: e.W, start: start, end: end}
		if it.in(now) {
			out = append(out, e)
		}
		if it.at = it.next(now); it.at != Never {
			t.staged = append(t.staged, it)
		}
	}
	out = zset.Consolidate(out)
	t.out = out
	return out, nil
}

// Commit applies the step's changes to the tree and the time.
func (t *Temporal) Commit() {
	for _, s := range t.staged {
		it, ok := t.due.Get(s)
		if !ok {
			t.due.Set(s)
			t.bytes += tempItemBytes(s.row)
			continue
		}
		it.w += s.w
		if it.w == 0 {
			t.due.Delete(it)
			t.bytes -= tempItemBytes(it.row)
		} else {
			t.due.Set(it)
		}
	}
	clear(t.staged)
	t.staged = t.staged[:0]
	t.now = t.newNow
}

// Abort drops the step's changes.
func (t *Temporal) Abort() {
	clear(t.staged)
	t.staged = t.staged[:0]
	t.newNow = t.now
}

// tempItemBytes is the memory of an item in the tree: its slot (with the
// tree's slack) and its row's values.
func tempItemBytes(r value.Row) int64 {
	return int64(unsafe.Sizeof(tempItem{}))*3/2 + dataflow.RowBytes(r)
}

// Now returns the committed time, in microseconds since 2000-01-01 UTC.
func (t *Temporal) Now() int64 { return t.now }

// NextChange returns the instant of the next row's change, or Never.
func (t *Temporal) NextChange() int64 {
	if it, ok := t.due.Min(); ok {
		return it.at
	}
	return Never
}

// Info describes the operator.
func (t *Temporal) Info() dataflow.Info {
	return dataflow.Info{Kind: "TemporalFilter", Detail: strings.Join(t.text, " AND "),
		State: "the rows waiting for the clock, ordered by the instant their predicate flips",
		Cost:  "O(log n) per change; O(log n) per row that flips as time passes"}
}

// State reports the rows waiting for the clock.
func (t *Temporal) State() dataflow.StateSize {
	return dataflow.StateSize{Rows: int64(t.due.Len()), Bytes: t.bytes}
}

// Start sets the time before the operator's first step.
func (t *Temporal) Start(now int64) { t.now, t.newNow = now, now }
