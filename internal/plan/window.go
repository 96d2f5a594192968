package plan

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// WindowTopK turns a filter rn <= k (or rn < k, rn = 1) over the row
// number of a Window into a Window over a TopK that keeps the first k rows
// of each partition: the rows the filter keeps, numbered the same, and a
// bounded state per partition. n is the filter; the row number may reach it
// through projections.
var WindowTopK = Rule{Name: "window-topk", Apply: windowTopK}

func windowTopK(n Node) Node {
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	for _, c := range Conjuncts(f.Pred) {
		col, k, ok := rowNumberBound(c)
		if !ok {
			continue
		}
		if in, ok := limitWindow(f.Input, col, k); ok {
			return &Filter{Input: in, Pred: f.Pred}
		}
	}
	return n
}

// rowNumberBound recognises col <= k, col < k, k >= col, k > col and
// col = 1 with an integer constant k, and returns the largest row number
// kept.
func rowNumberBound(c expr.Expr) (int, int64, bool) {
	cmp, ok := c.(*expr.Cmp)
	if !ok {
		return 0, 0, false
	}
	l, r, op := cmp.L, cmp.R, cmp.Op
	if _, isCol := r.(*expr.Col); isCol {
		l, r = r, l
		switch op {
		case expr.LT:
			op = expr.GT
		case expr.LE:
			op = expr.GE
		case expr.GT:
			op = expr.LT
		case expr.GE:
			op = expr.LE
		}
	}
	col, ok := l.(*expr.Col)
	if !ok || len(expr.Columns(r)) > 0 || r.Volatile() {
		return 0, 0, false
	}
	v, err := r.Eval(nil)
	if err != nil || v.IsNull() || !v.Kind().IsInteger() {
		return 0, 0, false
	}
	k := v.Int()
	switch op {
	case expr.LE:
	case expr.LT:
		k--
	case expr.EQ:
		if k != 1 {
			return 0, 0, false
		}
	default:
		return 0, 0, false
	}
	if k < 0 {
		k = 0
	}
	return col.Idx, k, true
}

// limitWindow follows column col of n through projections down to a
// Window's row number and puts a TopK of k rows per partition under that
// Window.
func limitWindow(n Node, col int, k int64) (Node, bool) {
	switch n := n.(type) {
	case *Project:
		c, ok := n.Exprs[col].(*expr.Col)
		if !ok {
			return n, false
		}
		in, ok := limitWindow(n.Input, c.Idx, k)
		if !ok {
			return n, false
		}
		return &Project{Input: in, Exprs: n.Exprs, Cols: n.Cols}, true
	case *Filter:
		in, ok := limitWindow(n.Input, col, k)
		if !ok {
			return n, false
		}
		return &Filter{Input: in, Pred: n.Pred}, true
	case *Window:
		if col != len(n.Cols)-1 || n.Func.Kind != WinRowNumber {
			return n, false
		}
		if t, ok := n.Input.(*TopK); ok && t.Limit <= k {
			return n, true // already bounded
		}
		top := &TopK{Input: n.Input, Partition: n.Partition, Order: n.Order, Limit: k}
		return &Window{Input: top, Partition: n.Partition, Order: n.Order, Func: n.Func, Cols: n.Cols, Pos: n.Pos}, true
	}
	return n, false
}

// Bounded reports whether a Window's partitions are bounded: its input is
// a TopK on the same partition and order, so it can be maintained.
func (n *Window) Bounded() bool {
	t, ok := n.Input.(*TopK)
	return ok && n.Func.Kind == WinRowNumber && t.Offset == 0 && len(t.Partition) == len(n.Partition) && len(t.Order) == len(n.Order)
}

// WinKind is a window function.
type WinKind uint8

// The window functions.
const (
	WinRowNumber   WinKind = iota // row_number()
	WinRank                       // rank()
	WinDenseRank                  // dense_rank()
	WinPercentRank                // percent_rank()
	WinCumeDist                   // cume_dist()
	WinNtile                      // ntile(n)
	WinLag                        // lag(x [, offset [, default]])
	WinLead                       // lead(x [, offset [, default]])
	WinFirstValue                 // first_value(x)
	WinLastValue                  // last_value(x)
	WinNthValue                   // nth_value(x, n)
	WinAgg                        // an aggregate OVER (…)
)

// WinFuncNames maps the window functions' SQL names to their kinds.
var WinFuncNames = map[string]WinKind{
	"row_number": WinRowNumber, "rank": WinRank, "dense_rank": WinDenseRank,
	"percent_rank": WinPercentRank, "cume_dist": WinCumeDist, "ntile": WinNtile,
	"lag": WinLag, "lead": WinLead, "first_value": WinFirstValue,
	"last_value": WinLastValue, "nth_value": WinNthValue,
}

// UsesFrame reports whether the function reads its frame (the others read
// the partition, or rows at a fixed distance).
func (k WinKind) UsesFrame() bool {
	return k == WinFirstValue || k == WinLastValue || k == WinNthValue || k == WinAgg
}

// FrameBound is one end of a window frame.
type FrameBound uint8

// The frame bounds.
const (
	UnboundedPreceding FrameBound = iota
	OffsetPreceding
	CurrentRow
	OffsetFollowing
	UnboundedFollowing
)

// Frame is a window frame: ROWS counts rows, RANGE (without offsets)
// extends CURRENT ROW to the current row's peers, GROUPS counts peer
// groups. Exclude takes rows out of every row's frame.
type Frame struct {
	Rows             bool
	Groups           bool // GROUPS (Rows false)
	Start, End       FrameBound
	StartOff, EndOff int64
	// StartVal and EndVal are the offsets of a RANGE frame, of the type
	// RangeOffsetType gives (StartOff and EndOff are unused then).
	StartVal, EndVal value.Value
	Exclude          FrameExclude
	// StartExpr and EndExpr are an offset read from an enclosing query
	// (a correlated subquery's ROWS BETWEEN t.n PRECEDING …): the same
	// for every row of a partition, evaluated over its first row (where
	// decorrelation puts the outer value) into StartOff and EndOff, or
	// StartVal and EndVal for RANGE; ResolveOuter does it.
	StartExpr, EndExpr expr.Expr
}

// FrameExclude is a frame's EXCLUDE clause.
type FrameExclude uint8

// The frame exclusions: none (EXCLUDE NO OTHERS), the current row, its
// peer group, or its peers but not itself.
const (
	ExcludeNoOthers FrameExclude = iota
	ExcludeCurrentRow
	ExcludeGroup
	ExcludeTies
)

// DefaultFrame is PostgreSQL's: RANGE BETWEEN UNBOUNDED PRECEDING AND
// CURRENT ROW, the current row's peers included.
var DefaultFrame = Frame{Start: UnboundedPreceding, End: CurrentRow}

// String is the frame as SQL.
func (f Frame) String() string {
	b := func(x FrameBound, off int64, val value.Value, e expr.Expr) string {
		o := fmt.Sprint(off)
		if e != nil {
			o = e.String()
		} else if !f.Rows && !f.Groups {
			o = (&expr.Const{V: val, T: value.Type{Kind: val.Kind(), Mod: -1}}).String()
		}
		switch x {
		case UnboundedPreceding:
			return "UNBOUNDED PRECEDING"
		case OffsetPreceding:
			return o + " PRECEDING"
		case CurrentRow:
			return "CURRENT ROW"
		case OffsetFollowing:
			return o + " FOLLOWING"
		}
		return "UNBOUNDED FOLLOWING"
	}
	mode := "RANGE"
	if f.Rows {
		mode = "ROWS"
	} else if f.Groups {
		mode = "GROUPS"
	}
	out := mode + " BETWEEN " + b(f.Start, f.StartOff, f.StartVal, f.StartExpr) + " AND " + b(f.End, f.EndOff, f.EndVal, f.EndExpr)
	switch f.Exclude {
	case ExcludeCurrentRow:
		out += " EXCLUDE CURRENT ROW"
	case ExcludeGroup:
		out += " EXCLUDE GROUP"
	case ExcludeTies:
		out += " EXCLUDE TIES"
	}
	return out
}

// Running reports whether the frame starts at the partition's first row
// and ends at or after the current row: a change to a row changes the
// results of every row after it.
func (f Frame) Running() bool { return f.Start == UnboundedPreceding }

// WinFunc is one window function call of a Window.
type WinFunc struct {
	Kind WinKind
	Name string    // as written
	Arg  expr.Expr // the value argument: lag, lead, *_value, aggregates (nil for count(*))
	// N is ntile's bucket count, lag's and lead's offset, nth_value's n;
	// NullN says that constant was NULL (the result is NULL).
	N     int64
	NullN bool
	// Default is lag's and lead's default, over the current row (nil:
	// NULL).
	Default expr.Expr
	Agg     AggFunc // for WinAgg
	// Sep is string_agg's separator, over the row; Filter an aggregate's
	// FILTER (WHERE …): rows for which it is not TRUE are left out of
	// every frame. Both nil when absent.
	Sep    expr.Expr
	Filter expr.Expr
	Frame  Frame
	Type   value.Type
	// NExpr is a non-constant ntile, nth_value, lag or lead argument
	// (N's), over the current row (ntile: the partition's first). A view
	// has one only when it reads nothing but the outer query's columns,
	// the same over a partition: ResolveOuter evaluates it into N; or,
	// NPerRow set, one that reads the row's own columns (lag, lead,
	// nth_value), evaluated for each row as PostgreSQL does.
	NExpr   expr.Expr
	NPerRow bool
	// Call, ad hoc only, is an aggregate over the frame that only the
	// from-scratch evaluation computes (the statistical aggregates, the
	// json aggregates' array_agg): its arguments are over the window's
	// input row.
	Call *AggCall
}

// String is the call as SQL, without its window.
func (f *WinFunc) String() string {
	var args []string
	switch f.Kind {
	case WinNtile:
		args = append(args, f.nString())
	case WinLag, WinLead:
		args = append(args, f.Arg.String(), f.nString())
		if f.Default != nil {
			args = append(args, f.Default.String())
		}
	case WinNthValue:
		args = append(args, f.Arg.String(), f.nString())
	case WinAgg:
		if s, ok := f.jsonString(); ok {
			return s
		}
		if f.Call != nil {
			return f.Call.String()
		}
		if f.Arg == nil {
			args = append(args, "*")
		} else {
			args = append(args, f.Arg.String())
		}
		if f.Sep != nil {
			args = append(args, f.Sep.String())
		}
	case WinFirstValue, WinLastValue:
		args = append(args, f.Arg.String())
	}
	out := f.Name + "(" + strings.Join(args, ", ") + ")"
	if f.Filter != nil {
		out += " FILTER (WHERE " + f.Filter.String() + ")"
	}
	return out
}

// nString is N as SQL, or NExpr.
func (f *WinFunc) nString() string {
	if f.NExpr != nil {
		return f.NExpr.String()
	}
	return fmt.Sprint(f.N)
}

// Exprs lists the expressions of the call.
func (f *WinFunc) Exprs() []expr.Expr {
	var out []expr.Expr
	if f.Arg != nil {
		out = append(out, f.Arg)
	}
	if f.Default != nil {
		out = append(out, f.Default)
	}
	if f.Sep != nil {
		out = append(out, f.Sep)
	}
	if f.Filter != nil {
		out = append(out, f.Filter)
	}
	if f.NExpr != nil {
		out = append(out, f.NExpr)
	}
	for _, e := range []expr.Expr{f.Frame.StartExpr, f.Frame.EndExpr} {
		if e != nil {
			out = append(out, e)
		}
	}
	if c := f.Call; c != nil {
		for _, e := range []expr.Expr{c.Arg, c.Sep, c.X, c.Direct, c.Filter} {
			if e != nil {
				out = append(out, e)
			}
		}
		for _, o := range c.OrderBy {
			out = append(out, o.Expr)
		}
	}
	return out
}

// Map returns the call with its expressions replaced by m of them.
func (f WinFunc) Map(m func(expr.Expr) expr.Expr) WinFunc {
	if f.Arg != nil {
		f.Arg = m(f.Arg)
	}
	if f.Default != nil {
		f.Default = m(f.Default)
	}
	if f.Sep != nil {
		f.Sep = m(f.Sep)
	}
	if f.Filter != nil {
		f.Filter = m(f.Filter)
	}
	if f.NExpr != nil {
		f.NExpr = m(f.NExpr)
	}
	if f.Frame.StartExpr != nil {
		f.Frame.StartExpr = m(f.Frame.StartExpr)
	}
	if f.Frame.EndExpr != nil {
		f.Frame.EndExpr = m(f.Frame.EndExpr)
	}
	if f.Call != nil {
		c := *f.Call
		for _, e := range []*expr.Expr{&c.Arg, &c.Sep, &c.X, &c.Direct, &c.Filter} {
			if *e != nil {
				*e = m(*e)
			}
		}
		c.OrderBy = append([]SortKey(nil), c.OrderBy...)
		for i := range c.OrderBy {
			c.OrderBy[i].Expr = m(c.OrderBy[i].Expr)
		}
		f.Call = &c
	}
	return f
}
