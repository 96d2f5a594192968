package plan

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Decorrelation, after Neumann and Kemper ("Unnesting Arbitrary Queries"):
// a subquery that reads columns of the query around it (expr.Outer
// references, its free variables) is evaluated once per distinct value of
// those columns, its domain D, instead of once per outer row. The
// dependent join D ⋈ Q is pushed down Q's tree until it meets subtrees
// that read no outer column, where it becomes an ordinary join (a cross
// join whose conditions the filters above turn into keys or a residual);
// every operator on the way keeps D's columns: a grouping groups by them
// too, a top-k partitions by them, a join of two dependent sides matches
// them. The result, D's columns followed by Q's, is joined back to the
// outer rows on D's columns, with IS NOT DISTINCT FROM semantics.

// Free returns the outer references n reads, each (depth, column) once,
// in the order first met.
func Free(n Node) []*expr.Outer {
	var out []*expr.Outer
	seen := map[[2]int]bool{}
	var walk func(Node)
	walk = func(n Node) {
		for _, e := range nodeExprs(n) {
			expr.Walk(e, func(x expr.Expr) bool {
				if o, ok := x.(*expr.Outer); ok && !seen[[2]int{o.Depth, o.Idx}] {
					seen[[2]int{o.Depth, o.Idx}] = true
					out = append(out, o)
				}
				return true
			})
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
	return out
}

// HasOuter reports whether n's tree reads an outer reference.
func HasOuter(n Node) bool {
	for _, e := range nodeExprs(n) {
		if expr.HasOuter(e) {
			return true
		}
	}
	for _, c := range n.Children() {
		if HasOuter(c) {
			return true
		}
	}
	return false
}

// nodeExprs lists the expressions a node evaluates itself.
func nodeExprs(n Node) []expr.Expr {
	var out []expr.Expr
	keys := func(ks []SortKey) {
		for _, k := range ks {
			out = append(out, k.Expr)
		}
	}
	switch n := n.(type) {
	case *Filter:
		out = append(out, n.Pred)
	case *Project:
		out = append(out, n.Exprs...)
	case *Values:
		for _, r := range n.Rows {
			out = append(out, r...)
		}
	case *TableFunc:
		out = append(out, n.exprs()...)
	case *GenerateSeries:
		out = append(out, n.Start, n.Stop)
		if n.Step != nil {
			out = append(out, n.Step)
		}
	case *Sort:
		keys(n.Keys)
	case *Limit:
		if n.Count != nil {
			out = append(out, n.Count)
		}
		if n.Offset != nil {
			out = append(out, n.Offset)
		}
	case *Join:
		out = append(append(out, n.LeftKeys...), n.RightKeys...)
		if n.Residual != nil {
			out = append(out, n.Residual)
		}
	case *Aggregate:
		out = append(out, n.GroupBy...)
		for _, a := range n.Aggs {
			for _, e := range []expr.Expr{a.Arg, a.Sep, a.X, a.Direct, a.Filter} {
				if e != nil {
					out = append(out, e)
				}
			}
			keys(a.OrderBy)
		}
	case *TopK:
		out = append(out, n.Partition...)
		keys(n.Order)
	case *Window:
		out = append(out, n.Partition...)
		out = append(out, n.Func.Exprs()...)
		keys(n.Order)
	}
	return out
}

// Decorrelate returns dom ⋈ n: for each row of dom, the rows of n where
// the outer reference free[i] reads dom's column i. Its columns are dom's
// followed by n's. Every outer reference n reads must be in free.
func Decorrelate(n Node, dom Node, free []*expr.Outer) (Node, error) {
	d := &decorrelator{dom: dom, w: len(dom.Columns()), pos: map[[2]int]int{}}
	for i, o := range free {
		d.pos[[2]int{o.Depth, o.Idx}] = i
	}
	return d.dep(n)
}

type decorrelator struct {
	dom Node
	w   int
	pos map[[2]int]int
	// recs names the recursive queries being decorrelated: their
	// RecRefs carry the domain's columns in front (see recursive).
	recs map[string]bool
}

// dependent reports whether n depends on the domain: it reads outer
// columns, or the previous round of a recursion that does.
func (d *decorrelator) dependent(n Node) bool {
	return HasOuter(n) || d.readsRec(n)
}

// readsRec reports whether n reads a RecRef that recs names.
func (d *decorrelator) readsRec(n Node) bool {
	if len(d.recs) == 0 {
		return false
	}
	if r, ok := n.(*RecRef); ok {
		return d.recs[r.Name]
	}
	for _, c := range n.Children() {
		if d.readsRec(c) {
			return true
		}
	}
	return false
}

// bind renumbers e for a row that has the domain's columns in front of
// the node's own row (whose columns at or above from move by shift, the
// others by w) and reads the domain for outer references.
func (d *decorrelator) bind(e expr.Expr, shift int) expr.Expr {
	if e == nil {
		return nil
	}
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		switch c := x.(type) {
		case *expr.Col:
			return &expr.Col{Idx: c.Idx + shift, T: c.T, Name: c.Name}
		case *expr.Outer:
			return &expr.Col{Idx: d.pos[[2]int{c.Depth, c.Idx}], T: c.T, Name: c.Name}
		}
		return x
	})
}

func (d *decorrelator) bindAll(es []expr.Expr, shift int) []expr.Expr {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		out[i] = d.bind(e, shift)
	}
	return out
}

func (d *decorrelator) bindKeys(ks []SortKey) []SortKey {
	out := make([]SortKey, len(ks))
	for i, k := range ks {
		out[i] = SortKey{Expr: d.bind(k.Expr, d.w), Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out
}

// domCols are the domain's columns as references.
func (d *decorrelator) domCols(at int) []expr.Expr {
	cols := d.dom.Columns()
	out := make([]expr.Expr, d.w)
	for i, c := range cols {
		out[i] = &expr.Col{Idx: at + i, T: c.Type, Name: c.Name}
	}
	return out
}

func (d *decorrelator) withDom(cols []Column) []Column {
	return append(append([]Column{}, d.dom.Columns()...), cols...)
}

func (d *decorrelator) dep(n Node) (Node, error) {
	if !d.dependent(n) {
		return &Join{Kind: InnerJoin, Left: d.dom, Right: n, Cols: d.withDom(n.Columns())}, nil
	}
	switch n := n.(type) {
	case *Filter:
		in, err := d.dep(n.Input)
		if err != nil {
			return nil, err
		}
		return withFilter(in, Conjuncts(d.bind(n.Pred, d.w))), nil
	case *Project:
		in, err := d.dep(n.Input)
		if err != nil {
			return nil, err
		}
		return &Project{Input: in, Exprs: append(d.domCols(0), d.bindAll(n.Exprs, d.w)...), Cols: d.withDom(n.Cols)}, nil
	case *Distinct:
		in, err := d.dep(n.Input)
		if err != nil {
			return nil, err
		}
		return &Distinct{Input: in}, nil
	case *UnionAll:
		out := &UnionAll{Cols: d.withDom(n.Cols)}
		for _, c := range n.Inputs {
			in, err := d.dep(c)
			if err != nil {
				return nil, err
			}
			out.Inputs = append(out.Inputs, in)
		}
		return out, nil
	case *SetOp:
		l, err := d.dep(n.Left)
		if err != nil {
			return nil, err
		}
		r, err := d.dep(n.Right)
		if err != nil {
			return nil, err
		}
		return &SetOp{Kind: n.Kind, Left: l, Right: r, Cols: d.withDom(n.Cols)}, nil
	case *Sort:
		in, err := d.dep(n.Input)
		if err != nil {
			return nil, err
		}
		return &Sort{Input: in, Keys: d.bindKeys(n.Keys)}, nil
	case *Limit:
		return d.limit(n)
	case *TopK:
		in, err := d.dep(n.Input)
		if err != nil {
			return nil, err
		}
		return &TopK{Input: in, Partition: append(d.domCols(0), d.bindAll(n.Partition, d.w)...), Order: d.bindKeys(n.Order),
			Limit: n.Limit, Offset: n.Offset}, nil
	case *Window:
		in, err := d.dep(n.Input)
		if err != nil {
			return nil, err
		}
		return &Window{Input: in, Partition: append(d.domCols(0), d.bindAll(n.Partition, d.w)...), Order: d.bindKeys(n.Order),
			Func: n.Func.Map(func(e expr.Expr) expr.Expr { return d.bind(e, d.w) }), Cols: d.withDom(n.Cols), Pos: n.Pos}, nil
	case *Aggregate:
		return d.aggregate(n)
	case *Join:
		return d.join(n)
	case *Recursive:
		return d.recursive(n)
	case *RecRef:
		return &RecRef{Name: n.Name, Cols: d.withDom(n.Cols)}, nil
	case *TableFunc:
		if n.Input == nil {
			return n.MapArgs(d.dom, func(e expr.Expr) expr.Expr { return d.bind(e, 0) }), nil
		}
		// The functions run over each row of the dependent input,
		// which keeps the domain's columns in front.
		in, err := d.dep(n.Input)
		if err != nil {
			return nil, err
		}
		return n.MapArgs(in, func(e expr.Expr) expr.Expr { return d.bind(e, d.w) }), nil
	case *Values:
		// VALUES reading outer columns (LATERAL (VALUES (t.a), (t.b))):
		// each of its rows once per domain row.
		out := &UnionAll{Cols: d.withDom(n.Cols)}
		for _, r := range n.Rows {
			out.Inputs = append(out.Inputs, &Project{Input: d.dom, Exprs: append(d.domCols(0), d.bindAll(r, 0)...), Cols: d.withDom(n.Cols)})
		}
		return out, nil
	case *GenerateSeries:
		if n.Input == nil {
			// A function in FROM reading outer columns: once per domain row.
			return &GenerateSeries{Input: d.dom, Start: d.bind(n.Start, 0), Stop: d.bind(n.Stop, 0), Step: d.bind(n.Step, 0), Col: n.Col}, nil
		}
		// A function in FROM reading both the items before it and
		// outer columns: over each row of the dependent input, which
		// keeps the domain's columns in front.
		in, err := d.dep(n.Input)
		if err != nil {
			return nil, err
		}
		return &GenerateSeries{Input: in, Start: d.bind(n.Start, d.w), Stop: d.bind(n.Stop, d.w), Step: d.bind(n.Step, d.w), Col: n.Col}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "a subquery whose %s reads the outer query's columns is not supported", describe(n))
}

// limit keeps, per domain row, the first rows: a top-k partitioned by the
// domain (LIMIT and OFFSET must be constants).
func (d *decorrelator) limit(n *Limit) (Node, error) {
	if n.Params != nil || n.Ties != nil || expr.HasOuter(n.Count) || expr.HasOuter(n.Offset) {
		return d.dep(limitByRowNumber(n))
	}
	var order []SortKey
	input := n.Input
	if s, ok := input.(*Sort); ok {
		order, input = s.Keys, s.Input
	}
	in, err := d.dep(input)
	if err != nil {
		return nil, err
	}
	eval := func(e expr.Expr, dflt int64) (int64, error) {
		if e == nil {
			return dflt, nil
		}
		if expr.HasOuter(e) || len(expr.Columns(e)) > 0 {
			return 0, pgerr.New(pgerr.FeatureNotSupported, "a LIMIT or OFFSET that reads the outer query's columns is not supported")
		}
		v, err := e.Eval(nil)
		if err != nil {
			return 0, err
		}
		if v.IsNull() {
			return dflt, nil
		}
		if v.Int() < 0 {
			return 0, pgerr.New("2201W", "LIMIT must not be negative")
		}
		return v.Int(), nil
	}
	limit, err := eval(n.Count, -1)
	if err != nil {
		return nil, err
	}
	offset, err := eval(n.Offset, 0)
	if err != nil {
		return nil, err
	}
	if limit < 0 {
		if offset == 0 {
			return in, nil
		}
		limit = 1 << 62
	}
	return &TopK{Input: in, Partition: d.domCols(0), Order: d.bindKeys(order), Limit: limit, Offset: offset}, nil
}

// aggregate groups by the domain too. A global aggregate has one row per
// domain row even when no input row matches it: the domain is left-joined
// to the grouping and an unmatched row gets each aggregate's value over no
// rows (0 for count, NULL otherwise), the "COUNT bug" of naive unnesting.
func (d *decorrelator) aggregate(n *Aggregate) (Node, error) {
	in, err := d.dep(n.Input)
	if err != nil {
		return nil, err
	}
	aggs := make([]AggCall, len(n.Aggs))
	for i, a := range n.Aggs {
		a.Arg, a.Sep, a.Filter = d.bind(a.Arg, d.w), d.bind(a.Sep, d.w), d.bind(a.Filter, d.w)
		a.X, a.Direct = d.bind(a.X, d.w), d.bind(a.Direct, d.w)
		a.OrderBy = d.bindKeys(a.OrderBy)
		aggs[i] = a
	}
	agg := &Aggregate{Input: in, GroupBy: append(d.domCols(0), d.bindAll(n.GroupBy, d.w)...), Aggs: aggs, Cols: d.withDom(n.Cols)}
	if len(n.GroupBy) > 0 {
		return agg, nil
	}
	// agg ++ matched, left-joined to the domain.
	aw := len(agg.Cols)
	marked := &Project{Input: agg, Cols: append(append([]Column{}, agg.Cols...), Column{Name: "?matched?", Type: value.BoolType})}
	for i, c := range agg.Cols {
		marked.Exprs = append(marked.Exprs, &expr.Col{Idx: i, T: c.Type, Name: c.Name})
	}
	marked.Exprs = append(marked.Exprs, &expr.Const{V: value.NewBool(true), T: value.BoolType})
	j := &Join{Kind: LeftJoin, Left: d.dom, Right: marked, Cols: append(d.withDom(nil), marked.Cols...)}
	for _, c := range d.domCols(0) {
		lk, rk := NullSafeKeys(c, c)
		j.LeftKeys = append(j.LeftKeys, lk...)
		j.RightKeys = append(j.RightKeys, rk...)
	}
	unmatched := &expr.IsNull{E: &expr.Col{Idx: d.w + aw, T: value.BoolType}}
	out := &Project{Input: j, Exprs: d.domCols(0), Cols: agg.Cols}
	for i, a := range n.Aggs {
		col := &expr.Col{Idx: d.w + d.w + i, T: a.Type, Name: a.Name}
		if a.Func != AggCountStar && a.Func != AggCount {
			out.Exprs = append(out.Exprs, col)
			continue
		}
		zero := &expr.Const{V: value.NewInt(a.Type.Kind, 0), T: a.Type}
		out.Exprs = append(out.Exprs, &expr.Case{Whens: []expr.When{{Cond: unmatched, Result: zero}}, Else: col, T: a.Type})
	}
	return out, nil
}

// join pushes the domain into the side that reads outer columns, or into
// both sides, which then also match on the domain's columns.
func (d *decorrelator) join(n *Join) (Node, error) {
	lw := len(n.Left.Columns())
	ro := d.dependent(n.Right)
	for _, k := range n.RightKeys {
		ro = ro || expr.HasOuter(k)
	}
	if !ro && n.Kind != RightJoin && n.Kind != FullJoin {
		l, err := d.dep(n.Left)
		if err != nil {
			return nil, err
		}
		cols := d.withDom(n.Cols)
		return &Join{Kind: n.Kind, Left: l, Right: n.Right, LeftKeys: d.bindAll(n.LeftKeys, d.w), RightKeys: n.RightKeys,
			Residual: d.bind(n.Residual, d.w), Cols: cols}, nil
	}
	if n.Kind == AntiNullJoin {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a subquery with %s whose right side reads the outer query's columns is not supported", n.Kind)
	}
	l, err := d.dep(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := d.dep(n.Right)
	if err != nil {
		return nil, err
	}
	// Rows: D ++ left ++ D ++ right.
	residual := n.Residual
	if residual != nil {
		residual = expr.Rewrite(residual, func(x expr.Expr) expr.Expr {
			switch c := x.(type) {
			case *expr.Col:
				if c.Idx < lw {
					return &expr.Col{Idx: c.Idx + d.w, T: c.T, Name: c.Name}
				}
				return &expr.Col{Idx: c.Idx + 2*d.w, T: c.T, Name: c.Name}
			case *expr.Outer:
				return &expr.Col{Idx: d.pos[[2]int{c.Depth, c.Idx}], T: c.T, Name: c.Name}
			}
			return x
		})
	}
	j := &Join{Kind: n.Kind, Left: l, Right: r, LeftKeys: d.bindAll(n.LeftKeys, d.w), RightKeys: d.bindAll(n.RightKeys, d.w), Residual: residual}
	for _, c := range d.domCols(0) {
		lk, rk := NullSafeKeys(c, c)
		j.LeftKeys = append(j.LeftKeys, lk...)
		j.RightKeys = append(j.RightKeys, rk...)
	}
	if !n.Kind.Outputs() {
		j.Cols = d.withDom(n.Cols)
		return j, nil
	}
	j.Cols = append(append(d.withDom(n.Left.Columns()), d.dom.Columns()...), n.Right.Columns()...)
	// Keep one copy of the domain: the right one for a right join, whose
	// unmatched right rows have no left row; for a full join, the side
	// that is there (the two are equal, NULLs included, when both are).
	at := 0
	if n.Kind == RightJoin {
		at = d.w + lw
	}
	exprs := d.domCols(at)
	if n.Kind == FullJoin {
		for i, r := range d.domCols(d.w + lw) {
			exprs[i] = &expr.Coalesce{Args: []expr.Expr{exprs[i], r}, T: r.Type()}
		}
	}
	for i, c := range n.Left.Columns() {
		exprs = append(exprs, &expr.Col{Idx: d.w + i, T: c.Type, Name: c.Name})
	}
	for i, c := range n.Right.Columns() {
		exprs = append(exprs, &expr.Col{Idx: 2*d.w + lw + i, T: c.Type, Name: c.Name})
	}
	return &Project{Input: j, Exprs: exprs, Cols: d.withDom(n.Cols)}, nil
}

// NullSafeKeys returns equi-join keys that match l and r when they are
// not distinct (NULL matches NULL): whether each is NULL, and each with
// NULL replaced by a fixed value of its type.
func NullSafeKeys(l, r expr.Expr) (lk, rk []expr.Expr) {
	l, r = expr.EqualityKey(l), expr.EqualityKey(r)
	zero, ok := zeroOf(l.Type())
	if !ok {
		return []expr.Expr{l}, []expr.Expr{r}
	}
	c := &expr.Const{V: zero, T: l.Type()}
	return []expr.Expr{&expr.IsNull{E: l}, &expr.Coalesce{Args: []expr.Expr{l, c}, T: l.Type()}},
		[]expr.Expr{&expr.IsNull{E: r}, &expr.Coalesce{Args: []expr.Expr{r, c}, T: r.Type()}}
}

// zeroOf returns some value of type t.
func zeroOf(t value.Type) (value.Value, bool) {
	for _, s := range []string{"0", "", "false", "2000-01-01", "2000-01-01 00:00:00+00", "0 seconds"} {
		if v, err := value.Parse(s, t); err == nil && !v.IsNull() {
			return v, true
		}
	}
	return value.Null, false
}
