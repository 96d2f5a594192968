package expr

import (
	"slices"
)

// children returns e's direct subexpressions in evaluation order.
func children(e Expr) []Expr {
	switch n := e.(type) {
	case *Cast:
		return []Expr{n.E}
	case *Collate:
		return []Expr{n.E}
	case *Indeterminate:
		return []Expr{n.E}
	case *DomainCheck:
		return []Expr{n.E}
	case *Arith:
		return []Expr{n.L, n.R}
	case *Neg:
		return []Expr{n.E}
	case *Concat:
		return []Expr{n.L, n.R}
	case *Func:
		return n.Args
	case *ZoneCast:
		return []Expr{n.Cast.E}
	case *ZoneArith:
		return []Expr{n.A.L, n.A.R}
	case *ZoneFunc:
		return n.F.Args
	case *SeqCall:
		return n.Args
	case *BackendCall:
		return n.Args
	case *RoutineCall:
		return n.Args
	case *XMLWellFormedCall:
		return []Expr{n.Arg}
	case *SleepCall:
		return []Expr{n.Arg}
	case *SessionFuncCall:
		return n.Args
	case *XMLOptionCheck:
		return []Expr{n.E}
	case *TSMatchCall:
		return []Expr{n.L, n.R}
	case *TSDefaultCall:
		return n.Args
	case *RowCons:
		return n.Args
	case *FieldSelect:
		return []Expr{n.E}
	case *Cmp:
		return []Expr{n.L, n.R}
	case *InList:
		return append([]Expr{n.E}, n.List...)
	case *And:
		return n.Args
	case *Or:
		return n.Args
	case *Not:
		return []Expr{n.E}
	case *IsNull:
		return []Expr{n.E}
	case *IsBool:
		return []Expr{n.E}
	case *IsDistinct:
		return []Expr{n.L, n.R}
	case *Case:
		kids := make([]Expr, 0, 2*len(n.Whens)+1)
		for _, w := range n.Whens {
			kids = append(kids, w.Cond, w.Result)
		}
		if n.Else != nil {
			kids = append(kids, n.Else)
		}
		return kids
	case *Coalesce:
		return n.Args
	case *NullIf:
		return []Expr{n.L, n.R}
	case *MinMax:
		return n.Args
	case *Like:
		if n.Escape != nil {
			return []Expr{n.E, n.Pattern, n.Escape}
		}
		return []Expr{n.E, n.Pattern}
	case *Regex:
		if n.Escape != nil {
			return []Expr{n.E, n.Pattern, n.Escape}
		}
		return []Expr{n.E, n.Pattern}
	}
	return nil
}

// withChildren returns a copy of e with its children replaced by kids, in
// the order children returns them.
func withChildren(e Expr, kids []Expr) Expr {
	switch n := e.(type) {
	case *Cast:
		return &Cast{E: kids[0], To: n.To, Explicit: n.Explicit, Saturate: n.Saturate}
	case *DomainCheck:
		return &DomainCheck{E: kids[0], Domain: n.Domain}
	case *Arith:
		return &Arith{Op: n.Op, L: kids[0], R: kids[1], T: n.T}
	case *Neg:
		return &Neg{E: kids[0]}
	case *Concat:
		return &Concat{L: kids[0], R: kids[1]}
	case *Func:
		return &Func{Def: n.Def, Args: kids, T: n.T}
	case *ZoneCast:
		return &ZoneCast{C: n.C, Cast: &Cast{E: kids[0], To: n.Cast.To, Explicit: n.Cast.Explicit, Saturate: n.Cast.Saturate}, Fixed: n.Fixed}
	case *ZoneArith:
		return &ZoneArith{C: n.C, A: &Arith{Op: n.A.Op, L: kids[0], R: kids[1], T: n.A.T}, Fixed: n.Fixed}
	case *ZoneFunc:
		return &ZoneFunc{C: n.C, F: &Func{Def: n.F.Def, Args: kids, T: n.F.T}, Z: n.Z, Fixed: n.Fixed}
	case *XMLWellFormedCall:
		return &XMLWellFormedCall{C: n.C, Arg: kids[0]}
	case *SleepCall:
		return &SleepCall{C: n.C, Def: n.Def, Arg: kids[0]}
	case *SessionFuncCall:
		return &SessionFuncCall{C: n.C, Def: n.Def, Args: kids}
	case *XMLOptionCheck:
		return &XMLOptionCheck{C: n.C, E: kids[0]}
	case *TSMatchCall:
		return &TSMatchCall{C: n.C, L: kids[0], R: kids[1]}
	case *TSDefaultCall:
		c := *n
		c.Args = kids
		return &c
	case *SeqCall:
		return &SeqCall{Fn: n.Fn, Args: kids, C: n.C}
	case *BackendCall:
		return &BackendCall{C: n.C, Fn: n.Fn, Args: kids}
	case *RoutineCall:
		c := *n
		c.Args = kids
		return &c
	case *RowCons:
		c := *n // its literals (Untyped) too
		c.Args = kids
		return &c
	case *FieldSelect:
		return &FieldSelect{E: kids[0], Idx: n.Idx, Name: n.Name, T: n.T}
	case *Cmp:
		return &Cmp{Op: n.Op, L: kids[0], R: kids[1], Check: n.Check}
	case *InList:
		return &InList{E: kids[0], List: kids[1:], Not: n.Not, Checks: n.Checks}
	case *And:
		return &And{Args: kids}
	case *Or:
		return &Or{Args: kids}
	case *Not:
		return &Not{E: kids[0]}
	case *IsNull:
		return &IsNull{E: kids[0], Not: n.Not}
	case *IsBool:
		return &IsBool{E: kids[0], Want: n.Want, Not: n.Not}
	case *IsDistinct:
		return &IsDistinct{L: kids[0], R: kids[1], Not: n.Not, Check: n.Check}
	case *Case:
		c := &Case{Whens: make([]When, len(n.Whens)), T: n.T}
		for i := range n.Whens {
			c.Whens[i] = When{Cond: kids[2*i], Result: kids[2*i+1]}
		}
		if n.Else != nil {
			c.Else = kids[2*len(n.Whens)]
		}
		return c
	case *Coalesce:
		return &Coalesce{Args: kids, T: n.T}
	case *NullIf:
		return &NullIf{L: kids[0], R: kids[1]}
	case *MinMax:
		return &MinMax{Args: kids, T: n.T, Least: n.Least}
	case *Collate:
		return &Collate{E: kids[0], ID: n.ID, Name: n.Name, Implicit: n.Implicit, Loc: n.Loc, Derived: n.Derived}
	case *Indeterminate:
		return &Indeterminate{E: kids[0], Elems: n.Elems}
	case *Like:
		l := &Like{E: kids[0], Pattern: kids[1], ILike: n.ILike, Not: n.Not}
		if len(kids) > 2 {
			l.Escape = kids[2]
		}
		return l
	case *Regex:
		r := &Regex{E: kids[0], Pattern: kids[1], Similar: n.Similar, Fold: n.Fold, Not: n.Not}
		if len(kids) > 2 {
			r.Escape = kids[2]
		}
		return r
	}
	return e
}

// Walk visits e and its subexpressions in pre-order, descending into a
// node's children only when f returns true for it.
func Walk(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	for _, c := range children(e) {
		Walk(c, f)
	}
}

// Rewrite rebuilds e bottom-up: each node's children are rewritten first,
// the node is copied if any child changed, and f is applied to the result.
// f returns its argument to keep a node. e itself is never modified.
func Rewrite(e Expr, f func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	kids := children(e)
	var changed []Expr
	for i, c := range kids {
		nc := Rewrite(c, f)
		if nc != c && changed == nil {
			changed = make([]Expr, len(kids))
			copy(changed, kids[:i])
		}
		if changed != nil {
			changed[i] = nc
		}
	}
	if changed != nil {
		e = withChildren(e, changed)
	}
	return f(e)
}

// Columns returns the sorted, distinct indexes of the columns e reads.
func Columns(e Expr) []int {
	var cols []int
	Walk(e, func(x Expr) bool {
		if c, ok := x.(*Col); ok {
			cols = append(cols, c.Idx)
		}
		return true
	})
	slices.Sort(cols)
	return slices.Compact(cols)
}

// Renumber returns e with each column reference c read as column m[c]
// instead; nil stays nil.
func Renumber(e Expr, m []int) Expr {
	if e == nil {
		return nil
	}
	return Rewrite(e, func(x Expr) Expr {
		if c, ok := x.(*Col); ok && m[c.Idx] != c.Idx {
			return &Col{Idx: m[c.Idx], T: c.T, Name: c.Name}
		}
		return x
	})
}

// Key renders e with its columns as positions, so that two expressions
// have equal keys exactly when they compute the same thing over the same
// row: names can collide (a.v and b.v of a join both print as v).
func Key(e Expr) string {
	if e == nil {
		return ""
	}
	return Rewrite(e, func(x Expr) Expr {
		switch c := x.(type) {
		case *Col:
			return &Col{Idx: c.Idx, T: c.T}
		case *Outer:
			return &Outer{Depth: c.Depth, Idx: c.Idx, T: c.T}
		case *Collate:
			if c.ID == 0 {
				return byteCollateKey{c}
			}
		}
		return x
	}).String()
}

// byteCollateKey names a byte-wise COLLATE in a key, which its String
// leaves out: x COLLATE "C" orders differently from an x that carries an
// ICU collation, so the two must not match.
type byteCollateKey struct{ *Collate }

func (k byteCollateKey) String() string {
	return "(" + k.E.String() + " COLLATE " + quoteIdent(k.Name) + ")"
}
