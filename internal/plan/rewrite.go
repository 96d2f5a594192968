package plan

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// Rule is a named rewrite of plan nodes, applied as a plan is built.
// Rules return their input unchanged when they do not apply.
type Rule struct {
	Name  string
	Apply func(Node) Node
}

// Rules, in the order the binder applies them.
var (
	// PushFilter moves the conjuncts of a filter over a join that read
	// only one side below the join (for outer joins, only onto the
	// preserved side), and turns cross-side equalities above an inner join
	// into join keys.
	PushFilter = Rule{Name: "push-filter", Apply: pushFilter}
	// ExtractJoinKeys turns equalities between a left and a right
	// expression in a join's residual into equi-join keys, and pushes
	// residual conjuncts that read only a side that may be filtered early.
	ExtractJoinKeys = Rule{Name: "extract-join-keys", Apply: extractJoinKeys}
)

// Conjuncts splits a predicate on its top-level ANDs.
func Conjuncts(e expr.Expr) []expr.Expr {
	if e == nil {
		return nil
	}
	if a, ok := e.(*expr.And); ok {
		var out []expr.Expr
		for _, x := range a.Args {
			out = append(out, Conjuncts(x)...)
		}
		return out
	}
	return []expr.Expr{e}
}

// AndOf joins conjuncts; nil when there are none.
func AndOf(cs []expr.Expr) expr.Expr {
	switch len(cs) {
	case 0:
		return nil
	case 1:
		return cs[0]
	}
	return &expr.And{Args: cs}
}

// side says which input's columns an expression reads: 0 none, 1 left
// only, 2 right only, 3 both.
func side(e expr.Expr, lw int) int {
	s := 0
	for _, c := range expr.Columns(e) {
		if c < lw {
			s |= 1
		} else {
			s |= 2
		}
	}
	return s
}

// Shift renumbers the column references of e by delta.
func Shift(e expr.Expr, delta int) expr.Expr {
	if delta == 0 {
		return e
	}
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if c, ok := x.(*expr.Col); ok {
			return &expr.Col{Idx: c.Idx + delta, T: c.T, Name: c.Name}
		}
		return x
	})
}

func withFilter(n Node, cs []expr.Expr) Node {
	if len(cs) == 0 {
		return n
	}
	if f, ok := n.(*Filter); ok {
		cs = append(Conjuncts(f.Pred), cs...)
		n = f.Input
	}
	return pushFilter(&Filter{Input: n, Pred: AndOf(cs)})
}

func pushFilter(n Node) Node {
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	j, ok := f.Input.(*Join)
	if !ok || !j.Kind.Outputs() {
		return n
	}
	lw := len(j.Left.Columns())
	var left, right, keep []expr.Expr
	for _, c := range Conjuncts(f.Pred) {
		if c.Volatile() {
			keep = append(keep, c)
			continue
		}
		switch s := side(c, lw); {
		case (s == 1 || s == 0) && (j.Kind == InnerJoin || j.Kind == LeftJoin):
			left = append(left, c)
		case s == 2 && (j.Kind == InnerJoin || j.Kind == RightJoin):
			right = append(right, Shift(c, -lw))
		case s == 3 && j.Kind == InnerJoin:
			// Becomes part of the join condition, where it may be a key.
			j = extractJoinKeys(&Join{Kind: j.Kind, Left: j.Left, Right: j.Right, LeftKeys: j.LeftKeys,
				RightKeys: j.RightKeys, Residual: AndOf(append(Conjuncts(j.Residual), c)), Cols: j.Cols}).(*Join)
		default:
			keep = append(keep, c)
		}
	}
	nj := &Join{Kind: j.Kind, Left: withFilter(j.Left, left), Right: withFilter(j.Right, right),
		LeftKeys: j.LeftKeys, RightKeys: j.RightKeys, Residual: j.Residual, Cols: j.Cols}
	if len(keep) == 0 {
		return nj
	}
	return &Filter{Input: nj, Pred: AndOf(keep)}
}

func extractJoinKeys(n Node) Node {
	j, ok := n.(*Join)
	if !ok || j.Residual == nil {
		return n
	}
	lw := len(j.Left.Columns())
	out := &Join{Kind: j.Kind, Left: j.Left, Right: j.Right, Cols: j.Cols,
		LeftKeys: append([]expr.Expr(nil), j.LeftKeys...), RightKeys: append([]expr.Expr(nil), j.RightKeys...)}
	var rest, pushLeft, pushRight []expr.Expr
	for _, c := range Conjuncts(j.Residual) {
		if l, r, ok := equiKey(c, lw); ok && j.Kind != AntiNullJoin {
			out.LeftKeys = append(out.LeftKeys, l)
			out.RightKeys = append(out.RightKeys, Shift(r, -lw))
			continue
		}
		if c.Volatile() {
			rest = append(rest, c)
			continue
		}
		// A condition on one side only may filter that side early when
		// the side's unmatched rows are dropped anyway.
		s := side(c, lw)
		switch {
		case s == 1 && (j.Kind == InnerJoin || j.Kind == RightJoin || j.Kind == SemiJoin):
			pushLeft = append(pushLeft, c)
		case s == 2 && j.Kind != RightJoin && j.Kind != FullJoin && j.Kind != AntiNullJoin:
			pushRight = append(pushRight, Shift(c, -lw))
		default:
			rest = append(rest, c)
		}
	}
	out.Residual = AndOf(rest)
	out.Left = withFilter(out.Left, pushLeft)
	out.Right = withFilter(out.Right, pushRight)
	return out
}

// equiKey recognises l = r with l over the left columns and r over the
// right ones (or the reverse), both of one type.
func equiKey(c expr.Expr, lw int) (expr.Expr, expr.Expr, bool) {
	cmp, ok := c.(*expr.Cmp)
	if !ok || cmp.Op != expr.EQ || cmp.L.Type().Kind != cmp.R.Type().Kind || cmp.L.Type().Kind == value.Unknown {
		return nil, nil, false
	}
	if cmp.L.Volatile() || cmp.R.Volatile() {
		return nil, nil, false
	}
	ls, rs := side(cmp.L, lw), side(cmp.R, lw)
	switch {
	case ls == 1 && rs == 2:
		return expr.EqualityKey(cmp.L), expr.EqualityKey(cmp.R), true
	case ls == 2 && rs == 1:
		return expr.EqualityKey(cmp.R), expr.EqualityKey(cmp.L), true
	}
	return nil, nil, false
}
