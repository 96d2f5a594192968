package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Collations through relations: a column of a subquery in FROM, of a CTE
// or of a view has the collation its query derives for it (PostgreSQL's
// parse_collate.c gives each target entry its expression's collation), and
// a reference of it applies that collation with implicit strength, as a
// table column's does. So two subquery columns of different ICU
// collations conflict as two table columns do (42P22 in a comparison),
// and an explicit COLLATE inside the subquery becomes an implicit one
// outside it.

// planCollations derives the collation of each of p's output columns,
// looking through the nodes that pass their input's columns on (filters,
// sorts, limits, DISTINCT), projections, joins, UNION ALL (the inputs'
// collations merged) and aggregates (a string result's from its
// arguments); other nodes' columns derive none.
func planCollations(p plan.Node) []collState { return planCollationsBy(p, nil) }

// planCollationsBy is planCollations where bytewise, when not nil, names
// the byte-wise collation ("C") of a scanned table's column, "" for none.
func planCollationsBy(p plan.Node, bytewise func(*plan.Scan, int) string) []collState {
	out := make([]collState, len(p.Columns()))
	switch n := p.(type) {
	case *plan.Scan:
		for i, c := range n.Cols {
			if c.Coll != 0 {
				out[i] = implicitColl(c.Coll)
			} else if name := ""; bytewise != nil && collatable(c.Type.Kind) {
				if name = bytewise(n, i); name != "" && name != "default" {
					out[i] = collState{strength: collImplicit, name: name, loc: -1}
				}
			}
		}
	case *plan.Filter, *plan.Sort, *plan.Limit, *plan.Distinct:
		copy(out, planCollationsBy(p.Children()[0], bytewise))
	case *plan.Project:
		in := planCollationsBy(n.Input, bytewise)
		for i, e := range n.Exprs {
			if i < len(out) {
				out[i] = exprCollation(e, in)
			}
		}
	case *plan.Join:
		in := append(planCollationsBy(n.Left, bytewise), planCollationsBy(n.Right, bytewise)...)
		copy(out, in)
	case *plan.SetOp:
		for _, c := range []plan.Node{n.Left, n.Right} {
			for i, st := range planCollationsBy(c, bytewise) {
				if i < len(out) {
					out[i] = mergeCollation(out[i], st)
				}
			}
		}
	case *plan.UnionAll:
		for _, c := range n.Inputs {
			for i, st := range planCollationsBy(c, bytewise) {
				if i < len(out) {
					out[i] = mergeCollation(out[i], st)
				}
			}
		}
	case *plan.Aggregate:
		in := planCollationsBy(n.Input, bytewise)
		for i, g := range n.GroupBy {
			out[i] = exprCollation(g, in)
		}
		for j, a := range n.Aggs {
			i := len(n.GroupBy) + j
			if i >= len(out) || a.Arg == nil || !isString(a.Type.Kind) {
				continue
			}
			out[i] = exprCollation(a.Arg, in)
			if a.Sep != nil {
				out[i] = mergeCollation(out[i], exprCollation(a.Sep, in))
			}
			out[i].uncollated = false // the default, as for any call
		}
	}
	return out
}

// implicitColl is the implicit derivation of the ICU collation id.
func implicitColl(id uint8) collState {
	st := collState{strength: collImplicit, id: id}
	if c := value.CollationByID(id); c != nil {
		st.name = c.Name
	}
	return st
}

// exprCollation is collationState of e over an input whose columns
// derive the collations in: a reference of an input column takes its.
func exprCollation(e expr.Expr, in []collState) collState {
	switch x := e.(type) {
	case *expr.Collate:
		return collationState(x)
	case *expr.Col:
		if x.Idx >= len(in) || !isString(x.T.Kind) {
			return collState{}
		}
		if st := in[x.Idx]; st.strength == collConflict || st.uncollated {
			return collState{uncollated: true} // a column without one
		}
		return in[x.Idx]
	}
	if !isString(e.Type().Kind) {
		return collState{}
	}
	var st collState
	for _, k := range expr.Children(e) {
		st = mergeCollation(st, exprCollation(k, in))
	}
	st.uncollated = false
	return st
}

// deriveCollations gives the columns of sc, the scope of the relation p,
// the collations p's query derives for them (planCollationsBy), where
// they have none already: an ICU one (coll), or a byte-wise one other
// than "default" (bytewise); a conflict leaves a column without one
// (uncollated), as does a reference of such a column.
func (b *binder) deriveCollations(sc *scope, p plan.Node) {
	for i, st := range planCollationsBy(p, b.scanBytewise) {
		if i < len(sc.cols) && sc.cols[i].coll == 0 && (st.strength == collConflict || st.uncollated) && collatable(sc.cols[i].typ.Kind) {
			sc.cols[i].uncollated = true
			continue
		}
		if i >= len(sc.cols) || sc.cols[i].coll != 0 || st.strength == collConflict || !st.named() {
			continue
		}
		if st.id != 0 {
			sc.cols[i].coll = st.id
		} else {
			sc.cols[i].bytewise = st.name
		}
	}
}

// subqueryCollated gives e, a scalar subquery over the plan p, the
// collation p derives for its column (an ICU one, or a byte-wise one such
// as "C"), with implicit strength, as PostgreSQL's sublink takes its
// target's collation.
func (b *binder) subqueryCollated(e expr.Expr, p plan.Node, loc int32) expr.Expr {
	st := planCollationsBy(p, b.scanBytewise)
	if len(st) == 0 || !st[0].named() || st[0].strength == collConflict || !isString(e.Type().Kind) {
		return e
	}
	return &expr.Collate{E: e, ID: st[0].id, Name: st[0].name, Implicit: true, Loc: loc, Derived: true}
}
