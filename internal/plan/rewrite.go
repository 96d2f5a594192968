package plan

import (
	"slices"

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
	// into join keys. Over set-returning functions of each input row
	// (LATERAL) it moves the conjuncts that read only the input below
	// them, so that the functions never run on rows the filter drops.
	PushFilter = Rule{Name: "push-filter", Apply: pushFilter}
	// ExtractJoinKeys turns equalities between a left and a right
	// expression in a join's residual into equi-join keys, and pushes
	// residual conjuncts that read only a side that may be filtered early.
	ExtractJoinKeys = Rule{Name: "extract-join-keys", Apply: extractJoinKeys}
)

// Conjuncts splits a predicate on its top-level ANDs. A conjunct common
// to every branch of an OR is pulled out of it ((a AND x) OR (a AND y) is
// a AND (x OR y), in three-valued logic too), so that an equality every
// branch repeats becomes a join key and a condition on one side filters
// it early.
func Conjuncts(e expr.Expr) []expr.Expr {
	if e == nil {
		return nil
	}
	switch x := e.(type) {
	case *expr.And:
		var out []expr.Expr
		for _, a := range x.Args {
			out = append(out, Conjuncts(a)...)
		}
		return out
	case *expr.Or:
		return factorOr(x)
	}
	return []expr.Expr{e}
}

// factorOr returns the conjuncts common to every branch of o, then o over
// what remains of its branches (nothing when a branch has nothing left:
// a OR (a AND x) is a).
func factorOr(o *expr.Or) []expr.Expr {
	if len(o.Args) < 2 || o.Volatile() {
		return []expr.Expr{o}
	}
	branches := make([][]expr.Expr, len(o.Args))
	for i, a := range o.Args {
		branches[i] = Conjuncts(a)
	}
	var common []expr.Expr
	for _, c := range branches[0] {
		k := expr.Key(c)
		inAll := true
		for _, b := range branches[1:] {
			if !slices.ContainsFunc(b, func(d expr.Expr) bool { return expr.Key(d) == k }) {
				inAll = false
				break
			}
		}
		if inAll && !slices.ContainsFunc(common, func(d expr.Expr) bool { return expr.Key(d) == k }) {
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return []expr.Expr{o}
	}
	rest := make([]expr.Expr, len(branches))
	for i, b := range branches {
		var left []expr.Expr
		for _, c := range b {
			k := expr.Key(c)
			if !slices.ContainsFunc(common, func(d expr.Expr) bool { return expr.Key(d) == k }) {
				left = append(left, c)
			}
		}
		if len(left) == 0 {
			return common
		}
		rest[i] = AndOf(left)
	}
	return append(common, &expr.Or{Args: rest})
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
	// A conjunct implied by an OR may be pushed again when the join is
	// rewritten again: keep one of each.
	seen := map[string]bool{}
	cs = slices.DeleteFunc(cs, func(c expr.Expr) bool {
		k := expr.Key(c)
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
	return pushFilter(&Filter{Input: n, Pred: AndOf(cs)})
}

func pushFilter(n Node) Node {
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	if tf, ok := f.Input.(*TableFunc); ok {
		return pushBelowTableFunc(f, tf)
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
		canLeft := j.Kind == InnerJoin || j.Kind == RightJoin || j.Kind == SemiJoin
		canRight := j.Kind != RightJoin && j.Kind != FullJoin && j.Kind != AntiNullJoin
		switch {
		case s == 1 && canLeft:
			pushLeft = append(pushLeft, c)
		case s == 2 && canRight:
			pushRight = append(pushRight, Shift(c, -lw))
		default:
			rest = append(rest, c)
			// An OR over both sides stays, and also filters each side
			// by what it implies there.
			if l := impliedOn(c, lw, 1); l != nil && canLeft {
				pushLeft = append(pushLeft, l)
			}
			if r := impliedOn(c, lw, 2); r != nil && canRight {
				pushRight = append(pushRight, Shift(r, -lw))
			}
		}
	}
	out.Residual = AndOf(rest)
	out.Left = withFilter(out.Left, pushLeft)
	out.Right = withFilter(out.Right, pushRight)
	return out
}

// impliedOn returns what an OR implies on one side of a join (want: 1
// left, 2 right): the OR of each branch's conjuncts that read only that
// side; nil when a branch has none. In (n1 = 'A' AND n2 = 'B') OR
// (n1 = 'B' AND n2 = 'A') it is n1 = 'A' OR n1 = 'B': where the OR is
// TRUE, some branch is, and so are that branch's conjuncts.
func impliedOn(c expr.Expr, lw, want int) expr.Expr {
	o, ok := c.(*expr.Or)
	if !ok || o.Volatile() {
		return nil
	}
	args := make([]expr.Expr, len(o.Args))
	for i, b := range o.Args {
		var parts []expr.Expr
		for _, d := range Conjuncts(b) {
			if side(d, lw) == want {
				parts = append(parts, d)
			}
		}
		if len(parts) == 0 {
			return nil
		}
		args[i] = AndOf(parts)
	}
	return &expr.Or{Args: args}
}

// equiKey recognises l = r with l over the left columns and r over the
// right ones (or the reverse), both of one type.
func equiKey(c expr.Expr, lw int) (expr.Expr, expr.Expr, bool) {
	cmp, ok := c.(*expr.Cmp)
	if !ok || cmp.Op != expr.EQ || cmp.L.Type().Kind != cmp.R.Type().Kind || cmp.L.Type().Kind == value.Unknown {
		return nil, nil, false
	}
	if cmp.Check != nil && !cmp.Check.Elems {
		return nil, nil, false // records whose fields differ in type: compared pair by pair, to fail as PostgreSQL does
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
