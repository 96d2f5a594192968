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
	if !collatable(call.Type.Kind) {
		return col
	}
	var st collState
	for _, a := range []expr.Expr{call.Arg, call.Sep} {
		if a != nil && collatable(a.Type().Kind) {
			st = mergeCollation(st, b.scopedCollation(in, a))
		}
	}
	if !st.named() {
		return col
	}
	return &expr.Collate{E: col, ID: st.id, Name: st.name, Implicit: st.strength == collImplicit, Loc: loc, Derived: true}
}
