package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
)

// Implicit collations: a reference of a table's column of an ICU
// collation applies it with implicit strength (columnCollated), and the
// expressions over it derive theirs as PostgreSQL's parse_collate.c
// does: an explicit COLLATE wins over an implicit collation, an implicit
// ICU collation over the default (a column without one, a literal), and
// two different implicit ones conflict. A conflict fails where the
// collation is needed: a comparison, greatest or least when it runs on
// values that are not NULL (42P22, expr.Indeterminate), a sort key when
// the statement is bound (42P21, sortCollationConflict).

// collStrength orders the derivations, weakest first.
type collStrength uint8

const (
	collNone collStrength = iota
	collImplicit
	collConflict
	collExplicit
)

// collState is the collation derived for an expression: for a conflict,
// the two collations' names and the second's position.
type collState struct {
	strength collStrength
	id       uint8
	name     string
	other    string
	loc      int32
	// uncollated (with collNone) is a reference of a column without a
	// collation (scopeCol.uncollated): what consumes it alone has none,
	// where an expression over it has the default one, as PostgreSQL
	// gives a Var its column's collation and any other node the default
	// when its operands give none.
	uncollated bool
}

// collationState derives e's collation from its Collate nodes and its
// operands, through the string-typed expressions only: a function of
// another type (length(s)) yields none.
func collationState(e expr.Expr) collState {
	if c, ok := e.(*expr.Collate); ok {
		if c.Implicit {
			return collState{strength: collImplicit, id: c.ID, name: c.Name, loc: c.Loc}
		}
		return collState{strength: collExplicit, id: c.ID, name: c.Name}
	}
	if !collatable(e.Type().Kind) {
		return collState{}
	}
	return operandsCollation(e)
}

// operandsCollation merges the collations of e's operands.
func operandsCollation(e expr.Expr) collState {
	var st collState
	for _, k := range expr.Children(e) {
		st = mergeCollation(st, collationState(k))
	}
	st.uncollated = false
	return st
}

// mergeCollation combines two operands' derivations.
func mergeCollation(a, b collState) collState {
	switch {
	case b.strength == collNone:
		return a
	case a.strength == collNone:
		return b
	case a.strength == collExplicit:
		return a // two different explicit ones are 42P21 (collationMismatch)
	case b.strength == collExplicit:
		return b
	case a.strength == collConflict:
		return a
	case b.strength == collConflict:
		return b
	case a.id != b.id || a.id == 0 && a.name != b.name: // byte-wise ones by name
		return collState{strength: collConflict, name: a.name, other: b.name, loc: b.loc}
	}
	return a
}

// implicitCollation finishes the binding of e, bound from n, with its
// derived collation: a string computed from an implicitly collated
// operand carries its collation (upper(s) sorts as s does); a comparison,
// greatest and least compare under the winning collation, and fail when
// it runs on a conflict.
func (b *binder) implicitCollation(s *scope, n *pg_query.Node, e expr.Expr) (expr.Expr, error) {
	if err := b.sortKeyHash(n, e); err != nil {
		return nil, err
	}
	switch x := e.(type) {
	case *expr.Collate, *expr.Col, *expr.Outer, *expr.Const:
		return e, nil
	case *expr.Cmp:
		return b.compareUnder(s, x, []*expr.Expr{&x.L, &x.R}, b.bytewiseExplicit(n)), nil
	case *expr.MinMax:
		ops := make([]*expr.Expr, len(x.Args))
		for i := range x.Args {
			ops[i] = &x.Args[i]
		}
		if e = b.compareUnder(s, x, ops, b.bytewiseExplicit(n)); e != x {
			return e, nil
		}
	case *expr.IsDistinct, *expr.InList:
		return b.consumeCollation(s, x), nil
	case *expr.NullIf:
		e = b.consumeCollation(s, x)
	case *expr.Func:
		e = b.caseNoCollation(s, x)
	}
	if !isString(e.Type().Kind) || explicitCollation(n) != "" {
		return e, nil
	}
	if st := b.scopedCollation(s, e); st.strength == collImplicit && st.id != 0 {
		return &expr.Collate{E: e, ID: st.id, Name: st.name, Implicit: true, Loc: st.loc, Derived: true}, nil
	}
	return e, nil
}

// compareUnder makes the comparison e of the operands ops, bound over s,
// compare under their derived collation: an operand carrying another is
// given it (an explicit COLLATE over an implicit one), and a conflict (of
// two ICU columns, or of a "C" column and an ICU one) makes e fail when
// it runs (expr.Indeterminate). ops are e's own fields, rewritten in
// place: e was built by this binding. bytewise says that an explicit
// byte-wise COLLATE ("C") among the operands, which leaves no node on a
// constant, wins over their implicit collations.
func (b *binder) compareUnder(s *scope, e expr.Expr, ops []*expr.Expr, bytewise bool) expr.Expr {
	var st collState
	for _, op := range ops {
		if !isString((*op).Type().Kind) {
			return e
		}
		st = mergeCollation(st, b.scopedCollation(s, *op))
	}
	if bytewise && st.strength != collExplicit {
		st = collState{strength: collExplicit}
	}
	switch st.strength {
	case collConflict:
		return &expr.Indeterminate{E: e}
	case collNone:
		if b.allUncollated(s, ops) {
			return &expr.Indeterminate{E: e}
		}
	case collExplicit:
		for _, op := range ops {
			if collationState(*op).id != st.id {
				*op = &expr.Collate{E: *op, ID: st.id, Name: st.name}
			}
		}
	}
	return e
}

// bytewiseExplicit reports whether the explicit COLLATE that n's
// operands carry is one that compares byte by byte ("C", "POSIX",
// "default", a libc user collation).
func (b *binder) bytewiseExplicit(n *pg_query.Node) bool {
	name := explicitCollation(n)
	switch name {
	case "":
		return false
	case "C", "POSIX", "default", "ucs_basic":
		return true
	}
	uc := b.userCollationOf([]string{name})
	return uc != nil && uc.ID == 0
}

// sortCollationConflict is PostgreSQL's error for a sort or grouping key,
// bound over s, whose implicit collations conflict, at the second's
// position; nil for another key.
func (b *binder) sortCollationConflict(s *scope, e expr.Expr) error {
	if !isString(e.Type().Kind) {
		return nil
	}
	st := b.scopedCollation(s, e)
	if st.strength != collConflict {
		return nil
	}
	return b.stmt.errf(st.loc, "42P21", "collation mismatch between implicit collations \"%s\" and \"%s\"", st.name, st.other).
		WithHint("You can choose the collation by applying the COLLATE clause to one or both expressions.")
}

// sortKeyCollation refuses an ORDER BY key whose implicit collations
// conflict (sortCollationConflict), or that reads a column without a
// collation (sortKeyNoCollation): key reads an output column (idx, of
// targets) or a hidden one of extra, bound over s.
func (b *binder) sortKeyCollation(s *scope, idx int, targets, extra []expr.Expr, key expr.Expr) error {
	c, ok := key.(*expr.Col)
	var e expr.Expr
	switch {
	case !ok:
		return nil
	case idx >= 0 && idx < len(targets):
		e = targets[idx]
	case idx < 0 && c.Idx >= len(targets) && c.Idx-len(targets) < len(extra):
		e = extra[c.Idx-len(targets)]
	case idx < 0 && c.Idx < len(targets):
		e = targets[c.Idx]
	default:
		return nil
	}
	if err := b.sortCollationConflict(s, e); err != nil {
		return err
	}
	return b.sortKeyNoCollation(s, e)
}
