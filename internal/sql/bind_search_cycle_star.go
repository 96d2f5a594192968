package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// isStarRef reports whether n is * or q.*.
func isStarRef(n *pg_query.Node) bool {
	cr := n.GetColumnRef()
	return cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil
}

// expandSearchCycleStars replaces the * and q.* of a recursive query's two
// terms with references to the columns they stand for, so that SEARCH and
// CYCLE can add their columns beside them. Each term's FROM list is bound
// apart to learn its columns: the non-recursive term's as the query's
// reference refused (42P19, as when the term is bound), the recursive
// term's with the query's columns as the non-recursive term gives them. A
// column that no reference would find again (two of one name under one
// relation) leaves the star, which is then refused.
func (b *binder) expandSearchCycleStars(c *pg_query.CommonTableExpr, anchor, step *pg_query.SelectStmt) error {
	name := c.Ctename
	own := map[string]*cte{name: {refuse: func(loc int32) error {
		return b.stmt.errf(loc, pgerr.InvalidRecursion, "recursive reference to query %q must not appear within its non-recursive term", name)
	}}}
	sub := &binder{rlsOpen: b.rlsOpen, cat: b.cat, stmt: b.stmt, stmtClock: b.stmtClock, forView: b.forView, ctes: append(b.ctes[:len(b.ctes):len(b.ctes)], own),
		params: b.params, outers: b.outers, rows: b.rowCounts()}
	if err := sub.expandStars(anchor); err != nil {
		return err
	}
	if !hasStar(step.TargetList) {
		return nil
	}
	p, err := sub.bindSelect(anchor)
	if err != nil {
		return err
	}
	if p, err = sub.renameColumns(p, c.Aliascolnames, name, c.Location); err != nil {
		return err
	}
	cols := append([]plan.Column(nil), p.Columns()...)
	for i := range cols {
		if cols[i].Type.Kind == value.Unknown {
			cols[i].Type = value.TextType
		}
	}
	own[name] = &cte{plan: &plan.RecRef{Name: name, Cols: cols}, rec: &recUse{loc: -1}}
	sub.ctes[len(sub.ctes)-1] = own
	return sub.expandStars(step)
}

// expandStars rewrites the stars of sel's select list into column
// references, binding its FROM list to find the columns; a select list
// without stars, or a SELECT with a WITH list of its own, is left as it is.
func (b *binder) expandStars(sel *pg_query.SelectStmt) error {
	if !hasStar(sel.TargetList) || sel.WithClause != nil {
		return nil
	}
	_, sc, err := b.bindFrom(sel.FromClause)
	if err != nil {
		return err
	}
	var out []*pg_query.Node
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		if !isStarRef(rt.GetVal()) {
			out = append(out, t)
			continue
		}
		cr := rt.Val.GetColumnRef()
		var idxs []int
		if len(cr.Fields) == 1 {
			idxs = sc.starCols()
		} else {
			qual := cr.Fields[0].GetString_().GetSval()
			for i, c := range sc.cols {
				if c.qual == qual && !c.system {
					idxs = append(idxs, i)
				}
			}
		}
		if len(idxs) == 0 {
			out = append(out, t) // binding the term reports it
			continue
		}
		refs := make([]*pg_query.Node, 0, len(idxs))
		for _, i := range idxs {
			c := sc.cols[i]
			qual := c.qual // "" for the merged column of JOIN … USING
			e, err := b.resolveLevel(sc, qual, c.name, cr.Location, false)
			if col, ok := e.(*expr.Col); err != nil || !ok || col.Idx != i {
				refs = nil
				break
			}
			fields := []*pg_query.Node{pg_query.MakeStrNode(c.name)}
			if qual != "" {
				fields = append([]*pg_query.Node{pg_query.MakeStrNode(qual)}, fields...)
			}
			refs = append(refs, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
				Val: pg_query.MakeColumnRefNode(fields, cr.Location), Location: rt.Location}}})
		}
		if refs == nil {
			out = append(out, t)
			continue
		}
		out = append(out, refs...)
	}
	sel.TargetList = out
	return nil
}
