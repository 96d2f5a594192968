package plan

import (
	"github.com/deltaview/deltaview/internal/expr"
)

// PruneColumns narrows the rows that flow into stateful operators to the
// columns the plan reads: below a join, each input keeps only the columns
// the join's keys, residual and consumers use, so the join's indexes hold
// nothing more. Operators whose output is their whole input (UNION ALL,
// DISTINCT, set operations, top-k) pass every column through.
var PruneColumns = Rule{Name: "prune-columns", Apply: func(n Node) Node {
	all := make([]bool, len(n.Columns()))
	for i := range all {
		all[i] = true
	}
	out, _ := prune(n, all)
	return out
}}

// prune returns n rewritten to output only the columns need marks (it may
// keep more), and for each original column its new position (-1 when
// dropped).
func prune(n Node, need []bool) (Node, []int) {
	switch n := n.(type) {
	case *Project:
		var exprs []expr.Expr
		var cols []Column
		remap := make([]int, len(n.Exprs))
		for i, e := range n.Exprs {
			remap[i] = -1
			if need[i] || e.Volatile() {
				remap[i] = len(exprs)
				exprs = append(exprs, e)
				cols = append(cols, n.Cols[i])
			}
		}
		in, inMap := prune(n.Input, used(len(n.Input.Columns()), exprs...))
		return project(in, remapAll(exprs, inMap), cols), remap
	case *Filter:
		childNeed := append([]bool(nil), need...)
		mark(childNeed, n.Pred)
		in, m := prune(n.Input, childNeed)
		return &Filter{Input: in, Pred: expr.Renumber(n.Pred, m)}, m
	case *Join:
		lw, rw := len(n.Left.Columns()), len(n.Right.Columns())
		ln, rn := make([]bool, lw), make([]bool, rw)
		if n.Kind.Outputs() {
			copy(ln, need[:lw])
			copy(rn, need[lw:])
		} else {
			copy(ln, need)
		}
		for _, k := range n.LeftKeys {
			mark(ln, k)
		}
		for _, k := range n.RightKeys {
			mark(rn, k)
		}
		if n.Residual != nil {
			for _, c := range expr.Columns(n.Residual) {
				if c < lw {
					ln[c] = true
				} else {
					rn[c-lw] = true
				}
			}
		}
		l, lm := narrow(n.Left, ln)
		r, rm := narrow(n.Right, rn)
		nl := len(l.Columns())
		both := append(append([]int(nil), lm...), make([]int, rw)...)
		for i, x := range rm {
			both[lw+i] = -1
			if x >= 0 {
				both[lw+i] = nl + x
			}
		}
		j := &Join{Kind: n.Kind, Left: l, Right: r, LeftKeys: remapAll(n.LeftKeys, lm), RightKeys: remapAll(n.RightKeys, rm)}
		if n.Residual != nil {
			j.Residual = expr.Renumber(n.Residual, both)
		}
		j.Cols = append([]Column(nil), l.Columns()...)
		if n.Kind.Outputs() {
			j.Cols = append(j.Cols, r.Columns()...)
			return j, both
		}
		return j, lm
	case *Aggregate:
		childNeed := used(len(n.Input.Columns()), n.GroupBy...)
		for _, a := range n.Aggs {
			mark(childNeed, a.Arg, a.Sep, a.X, a.Direct, a.Filter)
			for _, k := range a.OrderBy {
				mark(childNeed, k.Expr)
			}
		}
		in, m := narrow(n.Input, childNeed)
		out := &Aggregate{Input: in, GroupBy: remapAll(n.GroupBy, m), Cols: n.Cols}
		for _, a := range n.Aggs {
			a.Arg, a.Sep, a.Filter = expr.Renumber(a.Arg, m), expr.Renumber(a.Sep, m), expr.Renumber(a.Filter, m)
			a.X, a.Direct = expr.Renumber(a.X, m), expr.Renumber(a.Direct, m)
			keys := make([]SortKey, len(a.OrderBy))
			for i, k := range a.OrderBy {
				keys[i] = SortKey{Expr: expr.Renumber(k.Expr, m), Desc: k.Desc, NullsFirst: k.NullsFirst}
			}
			a.OrderBy = keys
			out.Aggs = append(out.Aggs, a)
		}
		return out, identity(len(n.Cols))
	}
	// A barrier: every column of every input is kept.
	kids := n.Children()
	if len(kids) == 0 {
		return n, identity(len(n.Columns()))
	}
	newKids := make([]Node, len(kids))
	for i, k := range kids {
		newKids[i], _ = prune(k, allTrue(len(k.Columns())))
	}
	return withChildren(n, newKids), identity(len(n.Columns()))
}

// narrow prunes n and, when the result still has columns nobody needs,
// projects them away. A table's rows (a scan, filtered or not) are left
// whole: they are the table's own, which an index holds by reference at no
// cost but its entry, where a projection would allocate a new row per
// change and keep it.
func narrow(n Node, need []bool) (Node, []int) {
	p, m := prune(n, need)
	if tableRows(p) {
		return p, m
	}
	keep := 0
	for i, x := range m {
		if x >= 0 && need[i] {
			keep++
		}
	}
	if keep == len(p.Columns()) {
		return p, m
	}
	cols := p.Columns()
	var exprs []expr.Expr
	var outCols []Column
	remap := make([]int, len(m))
	for i, x := range m {
		remap[i] = -1
		if x >= 0 && need[i] {
			remap[i] = len(exprs)
			exprs = append(exprs, &expr.Col{Idx: x, T: cols[x].Type, Name: cols[x].Name})
			outCols = append(outCols, cols[x])
		}
	}
	return project(p, exprs, outCols), remap
}

// tableRows reports whether n's rows are a stored table's own rows.
func tableRows(n Node) bool {
	switch n := n.(type) {
	case *Scan:
		return true
	case *Filter:
		return tableRows(n.Input)
	}
	return false
}

// project builds a projection of in, composing it with a projection below
// and dropping it when it passes its input through unchanged: each Map
// operator costs a new row per change.
func project(in Node, exprs []expr.Expr, cols []Column) Node {
	if inner, ok := in.(*Project); ok && !anyVolatile(inner.Exprs) {
		composed := make([]expr.Expr, len(exprs))
		for i, e := range exprs {
			composed[i] = expr.Rewrite(e, func(x expr.Expr) expr.Expr {
				if c, ok := x.(*expr.Col); ok {
					return inner.Exprs[c.Idx]
				}
				return x
			})
		}
		in, exprs = inner.Input, composed
	}
	if len(exprs) == len(in.Columns()) {
		identical := true
		for i, e := range exprs {
			c, ok := e.(*expr.Col)
			identical = identical && ok && c.Idx == i
		}
		if identical {
			return in
		}
	}
	return &Project{Input: in, Exprs: exprs, Cols: cols}
}

func anyVolatile(es []expr.Expr) bool {
	for _, e := range es {
		if e.Volatile() {
			return true
		}
	}
	return false
}

func withChildren(n Node, kids []Node) Node {
	switch n := n.(type) {
	case *UnionAll:
		return &UnionAll{Inputs: kids, Cols: n.Cols}
	case *Distinct:
		return &Distinct{Input: kids[0]}
	case *SetOp:
		return &SetOp{Kind: n.Kind, Left: kids[0], Right: kids[1], Cols: n.Cols}
	case *TopK:
		return &TopK{Input: kids[0], Partition: n.Partition, Order: n.Order, Limit: n.Limit, Offset: n.Offset}
	case *Window:
		return &Window{Input: kids[0], Partition: n.Partition, Order: n.Order, Func: n.Func, Cols: n.Cols, Pos: n.Pos}
	case *Sort:
		return &Sort{Input: kids[0], Keys: n.Keys}
	case *Limit:
		l := &Limit{Input: kids[0], Count: n.Count, Offset: n.Offset, Ties: n.Ties}
		if len(kids) > 1 {
			l.Params = kids[1]
		}
		return l
	case *Recursive:
		return &Recursive{Name: n.Name, Anchor: kids[0], Step: kids[1], All: n.All, Cols: n.Cols, MaxIterations: n.MaxIterations}
	case *TableFunc:
		if n.Input != nil {
			c := *n
			c.Input = kids[0]
			return &c
		}
	}
	return n
}

func used(width int, es ...expr.Expr) []bool {
	need := make([]bool, width)
	mark(need, es...)
	return need
}

func mark(need []bool, es ...expr.Expr) {
	for _, e := range es {
		if e == nil {
			continue
		}
		for _, c := range expr.Columns(e) {
			need[c] = true
		}
	}
}

func allTrue(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func remapAll(es []expr.Expr, m []int) []expr.Expr {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		out[i] = expr.Renumber(e, m)
	}
	return out
}
