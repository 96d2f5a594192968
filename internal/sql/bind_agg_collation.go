package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
)

// aggCollated gives the result col of the aggregate call, a string or an
// array of strings (array_agg), the collation its arguments derive over
// the input scope in (a byte-wise column's too, scopedCollation), as PostgreSQL derives an
// aggregate's result collation from its inputs': min(s), max(s),
// string_agg(s, ',') and mode() WITHIN GROUP (ORDER BY s) sort, compare
// and name (COLLATION FOR) the collation of s, with its strength (an
// explicit COLLATE in the arguments stays explicit); a string that an
// aggregate builds (string_agg) otherwise carries none. Its strings come
// from the input's, so no repertoire check (Derived). loc is the call's
// position, where a conflict with another implicit collation is
// reported.
func (b *binder) aggCollated(in *scope, call *plan.AggCall, col *expr.Col, loc int32) expr.Expr {
	return b.resultCollated(in, col, loc, call.Arg, call.Sep)
}

// windowCollated is aggCollated for the result col of the window
// function fn: lag(s), first_value(s) and max(s) OVER (…) carry the
// collation of s, as PostgreSQL's window functions take their
// arguments'.
func (b *binder) windowCollated(in *scope, fn *plan.WinFunc, col *expr.Col, loc int32) expr.Expr {
	return b.resultCollated(in, col, loc, fn.Arg, fn.Default, fn.Sep)
}

// resultCollated gives col, the result of a call over in with the
// arguments args (nil ones absent), the collation they derive; when they
// conflict (string_agg(c, e) of a "C" and an ICU column) col derives the
// conflict, which COLLATION FOR shows as NULL and a comparison refuses
// (conflictRefs).
func (b *binder) resultCollated(in *scope, col *expr.Col, loc int32, args ...expr.Expr) expr.Expr {
	if !collatable(col.T.Kind) {
		return col
	}
	var st collState
	for _, a := range args {
		if a != nil && collatable(a.Type().Kind) {
			st = mergeCollation(st, b.scopedCollation(in, a))
		}
	}
	if st.strength == collConflict {
		if b.conflictRefs == nil {
			b.conflictRefs = map[*expr.Col]collState{}
		}
		b.conflictRefs[col] = st
		return col
	}
	if !st.named() {
		return col
	}
	if st.loc >= 0 {
		loc = st.loc // the argument's, as PostgreSQL's collation bubbles up from it
	}
	return &expr.Collate{E: col, ID: st.id, Name: st.name, Implicit: st.strength == collImplicit, Loc: loc, Derived: true}
}
