package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// Byte-wise collations derived: a table's column declared COLLATE "C"
// (or "POSIX", ucs_basic, a libc collation of CREATE COLLATION) orders
// its strings as any other column does, so its references carry no
// Collate node; PostgreSQL still derives that collation, with implicit
// strength, for the expressions and the aggregates over the column:
// COLLATION FOR names it, and it conflicts with another implicit one
// (max(c) < max(e) of an ICU column e fails, 42P22). scopedCollation
// derives it from the scope the expression was bound in.

// collatable reports whether k has collations: a string, or an array of
// strings (whose collation is its elements').
func collatable(k value.Kind) bool {
	return isString(k) || k.IsArray() && isString(k.Elem())
}

// scopedCollation is collationState of e, bound over s, where a
// reference of a table column with a byte-wise collation other than
// "default" derives it with implicit strength (id 0, its name).
func (b *binder) scopedCollation(s *scope, e expr.Expr) collState {
	switch x := e.(type) {
	case *expr.Collate:
		return collationState(x)
	case *expr.Col:
		if st, ok := b.conflictRefs[x]; ok {
			return st
		}
		if as := b.agg; as != nil && s == as.post && x.Idx >= 0 && x.Idx < len(as.groups) {
			return b.scopedCollation(as.input, as.groups[x.Idx]) // a grouping key
		}
		if s == nil || !collatable(x.T.Kind) || x.Idx < 0 || x.Idx >= len(s.cols) || s.cols[x.Idx].coll != 0 {
			return collState{}
		}
		if s.cols[x.Idx].uncollated {
			return collState{uncollated: true}
		}
		if name := b.columnCollationName(s, x); name != "" && name != "default" {
			loc, ok := b.bytewiseRefs[x]
			if !ok {
				loc = -1
			}
			return collState{strength: collImplicit, name: name, loc: loc}
		}
		return collState{}
	}
	if !collatable(e.Type().Kind) {
		return collState{}
	}
	var st collState
	for _, k := range expr.Children(e) {
		st = mergeCollation(st, b.scopedCollation(s, k))
	}
	st.uncollated = false
	return st
}

// named reports whether st names a collation (an ICU one, or a byte-wise
// one other than "default").
func (st collState) named() bool {
	return (st.strength == collImplicit || st.strength == collExplicit) && (st.id != 0 || st.name != "" && st.name != "default")
}
