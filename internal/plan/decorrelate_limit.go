package plan

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// limitByRowNumber rewrites a Limit whose count or offset is no constant
// (it reads the outer query's columns, or the values of subqueries in
// Params) into operators that decorrelation runs per domain row: the
// input's rows numbered in the order (row_number), kept when their number
// falls after the offset and within the count, then sorted again. Params
// joins each input row (it has one row).
func limitByRowNumber(n *Limit) Node {
	var order []SortKey
	input := n.Input
	if s, ok := input.(*Sort); ok {
		order, input = s.Keys, s.Input
	}
	cols := input.Columns()
	var x Node = input
	count, offset := n.Count, n.Offset
	if n.Params != nil {
		x = &Join{Kind: InnerJoin, Left: input, Right: n.Params, Cols: append(append([]Column{}, cols...), n.Params.Columns()...)}
		count, offset = shiftCols(count, len(cols)), shiftCols(offset, len(cols))
	}
	xc := x.Columns()
	number := func(in Node, kind WinKind, name string) Node {
		return &Window{Input: in, Order: order, Func: WinFunc{Kind: kind, Name: name, Type: value.Int8Type},
			Cols: append(append([]Column{}, in.Columns()...), Column{Name: "?" + name + "?", Type: value.Int8Type}), Pos: -1}
	}
	win := number(x, WinRowNumber, "row_number")
	null := &expr.Const{V: value.Null, T: value.Int8Type}
	if count == nil {
		count = null
	}
	if offset == nil {
		offset = null
	}
	args := []expr.Expr{&expr.Col{Idx: len(xc), T: value.Int8Type}, count, offset}
	if n.Ties != nil {
		// WITH TIES keeps a row after the count when it ties with the
		// last row counted: when its rank is within the count too.
		win = number(win, WinRank, "rank")
		args = append(args, &expr.Col{Idx: len(xc) + 1, T: value.Int8Type})
	}
	keep := &expr.Func{Def: limitKeep, Args: args, T: value.BoolType}
	exprs := make([]expr.Expr, len(cols))
	for i, c := range cols {
		exprs[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	var out Node = &Project{Input: &Filter{Input: win, Pred: keep}, Exprs: exprs, Cols: cols}
	if len(order) > 0 {
		out = &Sort{Input: out, Keys: order}
	}
	return out
}

// limitKeep(row, count, offset[, rank]) is true when the row numbered row
// (from 1) is among those LIMIT count OFFSET offset keep; a NULL count
// keeps every row after the offset, a NULL offset is 0. A negative one is
// PostgreSQL's error. With rank (WITH TIES), a row after the count is kept
// when its rank is within it.
var limitKeep = &expr.FuncDef{Name: "limit_keeps", Eval: func(a []value.Value) (value.Value, error) {
	off := int64(0)
	if !a[2].IsNull() {
		if off = a[2].Int(); off < 0 {
			return value.Null, pgerr.New("2201X", "OFFSET must not be negative")
		}
	}
	if a[1].IsNull() {
		return value.NewBool(a[0].Int() > off), nil
	}
	cnt := a[1].Int()
	if cnt < 0 {
		return value.Null, pgerr.New("2201W", "LIMIT must not be negative")
	}
	if len(a) > 3 {
		return value.NewBool(cnt > 0 && a[0].Int() > off && a[3].Int()-off <= cnt), nil
	}
	return value.NewBool(a[0].Int() > off && a[0].Int()-off <= cnt), nil
}}

// shiftCols returns e reading each column k places further right.
func shiftCols(e expr.Expr, k int) expr.Expr {
	if e == nil {
		return nil
	}
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if c, ok := x.(*expr.Col); ok {
			return &expr.Col{Idx: c.Idx + k, T: c.T, Name: c.Name}
		}
		return x
	})
}

// LimitKeepArgs returns the arguments (row number, count, offset[, rank])
// of pred when it is the condition limitByRowNumber writes, else nil.
func LimitKeepArgs(pred expr.Expr) []expr.Expr {
	if f, ok := pred.(*expr.Func); ok && f.Def == limitKeep {
		return f.Args
	}
	return nil
}
