// Collations of VALUES columns and of constants given an explicit COLLATE in a subquery.
package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
)

// A VALUES column has the collation its rows' items derive, merged as
// PostgreSQL's select_common_collation merges them: an explicit COLLATE
// on an item wins (two different ones are 42P21), and outside the VALUES
// a reference of the column applies it with implicit strength, so that
// VALUES ('a' COLLATE "C") conflicts with an ICU column. A byte-wise
// COLLATE on a constant leaves no node on it (bindCollate): the item's
// COLLATE clause tells it.

// valuesCollations derives the collations of the columns of p, bound
// from the VALUES lists lists.
func (b *binder) valuesCollations(lists []*pg_query.Node, p plan.Node) ([]collState, error) {
	vals, _ := p.(*plan.Values)
	out := make([]collState, len(p.Columns()))
	for r, l := range lists {
		for c, it := range l.GetList().GetItems() {
			if c >= len(out) || !collatable(p.Columns()[c].Type.Kind) {
				continue
			}
			var st collState
			if vals != nil && r < len(vals.Rows) && c < len(vals.Rows[r]) {
				st = collationState(vals.Rows[r][c])
			}
			if cc := explicitCollateClause(it); cc != nil {
				if st.strength != collExplicit {
					st = explicitConstCollation(it, st)
				}
				if prev := out[c]; prev.strength == collExplicit && prev.name != st.name {
					return nil, b.stmt.errf(cc.Location, "42P21", "collation mismatch between explicit collations \"%s\" and \"%s\"", prev.name, st.name)
				}
			}
			out[c] = mergeCollation(out[c], st)
		}
	}
	if vals != nil {
		// Each row's string carries the column's ICU collation, so that
		// the rows sort under it.
		for c, st := range out {
			if !st.named() || st.id == 0 || !isString(p.Columns()[c].Type.Kind) {
				continue
			}
			for _, row := range vals.Rows {
				if x, ok := row[c].(*expr.Collate); !ok || x.ID != st.id {
					row[c] = &expr.Collate{E: row[c], ID: st.id, Name: st.name, Implicit: true, Derived: true}
				}
			}
		}
	}
	return out, nil
}

// explicitConstCollation is st, the collation derived for the bound
// item n, or the explicit byte-wise one n's COLLATE names when the
// binding left no node for it.
func explicitConstCollation(n *pg_query.Node, st collState) collState {
	cc := explicitCollateClause(n)
	if cc == nil || len(cc.Collname) == 0 {
		return st
	}
	name := cc.Collname[len(cc.Collname)-1].GetString_().Sval
	if name == "default" {
		return st
	}
	return collState{strength: collExplicit, name: name, loc: cc.Location}
}

// deriveOutCollations gives the columns of sc that have none derived
// from their relation's plan the collations colls (binder.collOut) its
// query derives: an explicit one of a constant or of a VALUES item.
func deriveOutCollations(sc *scope, colls []collState) {
	for i, st := range colls {
		if i >= len(sc.cols) {
			break
		}
		c := &sc.cols[i]
		if c.coll != 0 || c.bytewise != "" || c.uncollated || !collatable(c.typ.Kind) {
			continue
		}
		switch {
		case st.strength == collConflict:
			c.uncollated = true
		case !st.named():
		case st.id != 0:
			c.coll = st.id
		default:
			c.bytewise = st.name
		}
	}
}
