package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// recUse counts the references to a recursive query from its recursive
// term, and where the last one is.
type recUse struct {
	uses int
	loc  int32
}

// bindRecursiveCTE binds one item of a WITH RECURSIVE list into scope. An
// item may read itself (once, linearly) and the items before it; the items
// after it are named but refused, as PostgreSQL refuses mutual recursion.
func (b *binder) bindRecursiveCTE(c *pg_query.CommonTableExpr, later []*pg_query.Node, scope map[string]*cte) error {
	if old, dup := scope[c.Ctename]; dup && old.plan != nil {
		return b.stmt.errf(c.Location, pgerr.DuplicateAlias, "WITH query name %q specified more than once", c.Ctename)
	}
	if (c.SearchClause != nil || c.CycleClause != nil) && c.Ctequery.GetSelectStmt() != nil {
		// Rewritten in a copy: the statement's tree stays as written.
		c = proto.Clone(c).(*pg_query.CommonTableExpr)
		if err := b.rewriteSearchCycle(c, c.Ctequery.GetSelectStmt()); err != nil {
			return err
		}
	}
	for _, n := range later {
		name := n.GetCommonTableExpr().Ctename
		if _, ok := scope[name]; ok {
			continue
		}
		scope[name] = &cte{refuse: func(loc int32) error {
			return b.refuse(loc, "a WITH RECURSIVE item that reads a later item (%q) is not supported", name).
				WithHint("order the WITH items so that each reads only itself and the items before it; mutual recursion is not supported")
		}}
	}
	sel := c.Ctequery.GetSelectStmt()
	if sel == nil {
		return b.bindModifyingCTE(c, scope, true)
	}
	p, err := b.bindRecursiveQuery(c, sel, scope)
	if err != nil {
		return err
	}
	scope[c.Ctename] = &cte{plan: p}
	return nil
}

func (b *binder) bindRecursiveQuery(c *pg_query.CommonTableExpr, sel *pg_query.SelectStmt, scope map[string]*cte) (plan.Node, error) {
	name := c.Ctename
	if sel.Op != pg_query.SetOperation_SETOP_UNION || sel.Larg == nil {
		// Not of the recursive form: a plain query, unless it reads
		// itself.
		scope[name] = &cte{refuse: func(loc int32) error {
			return b.stmt.errf(loc, pgerr.InvalidRecursion, "recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name)
		}}
		p, err := b.bindSelect(sel)
		if err != nil {
			return nil, err
		}
		return b.renameColumns(p, c.Aliascolnames, name, c.Location)
	}
	scope[name] = &cte{refuse: func(loc int32) error {
		return b.stmt.errf(loc, pgerr.InvalidRecursion, "recursive reference to query %q must not appear within its non-recursive term", name)
	}}
	anchor, err := b.bindSelect(sel.Larg)
	if err != nil {
		return nil, err
	}
	if anchor, err = b.renameColumns(anchor, c.Aliascolnames, name, c.Location); err != nil {
		return nil, err
	}
	cols := append([]plan.Column(nil), anchor.Columns()...)
	for i := range cols {
		if cols[i].Type.Kind == value.Unknown {
			cols[i].Type = value.TextType
		}
	}
	if anchor, err = b.castColumns(anchor, cols); err != nil {
		return nil, err
	}
	use := &recUse{loc: -1}
	scope[name] = &cte{plan: &plan.RecRef{Name: name, Cols: cols}, rec: use}
	step, err := b.bindSelect(sel.Rarg)
	if err != nil {
		return nil, err
	}
	if use.uses == 0 {
		// It never reads itself: an ordinary UNION.
		delete(scope, name)
		p, err := b.bindSelect(sel)
		if err != nil {
			return nil, err
		}
		return b.renameColumns(p, c.Aliascolnames, name, c.Location)
	}
	if len(sel.SortClause) > 0 {
		return nil, b.refuse(b.keyword("order", int(c.Location)), "ORDER BY in a recursive query is not implemented")
	}
	if sel.LimitCount != nil || sel.LimitOffset != nil {
		return nil, b.refuse(nodeLoc(sel.LimitCount, nodeLoc(sel.LimitOffset, c.Location)), "OFFSET/LIMIT in a recursive query is not implemented")
	}
	if _, err := b.checkLinear(step, name, use.loc, c.Location); err != nil {
		return nil, err
	}
	sc := step.Columns()
	if len(sc) != len(cols) {
		return nil, b.refuseCode(pgerr.SyntaxError, b.keyword("union", int(c.Location)), "each UNION query must have the same number of columns")
	}
	for i := range cols {
		if sc[i].Type == cols[i].Type {
			continue
		}
		t, err := expr.CommonType([]value.Type{cols[i].Type, sc[i].Type}, "UNION")
		if err != nil || t != cols[i].Type {
			loc := c.Location
			if tl := sel.Larg.TargetList; i < len(tl) {
				loc = nodeLoc(tl[i].GetResTarget().GetVal(), loc)
			}
			return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch,
				"recursive query %q column %d has type %s in non-recursive term but type %s overall", name, i+1, cols[i].Type, sc[i].Type).
				WithHint("Cast the output of the non-recursive term to the correct type.")
		}
	}
	if step, err = b.castColumns(step, cols); err != nil {
		return nil, err
	}
	return &plan.Recursive{Name: name, Anchor: anchor, Step: step, All: sel.All, Cols: cols, MaxIterations: b.maxRecursion()}, nil
}

// checkLinear refuses a recursive term whose result is not a sum over the
// previous round's rows taken one at a time: one where the reference
// passes through anything but filters, projections, the
// preserved side of a join or the outer side of EXISTS/IN. It reports
// whether n holds the reference. An ad-hoc query meets only
// PostgreSQL's own rules. loc is the reference's position, cteLoc the
// query's, where PostgreSQL reports EXCEPT's errors.
func (b *binder) checkLinear(n plan.Node, name string, loc, cteLoc int32) (bool, error) {
	if r, ok := n.(*plan.RecRef); ok {
		return r.Name == name, nil
	}
	which := -1
	for i, k := range n.Children() {
		has, err := b.checkLinear(k, name, loc, cteLoc)
		if err != nil {
			return false, err
		}
		if has {
			which = i
		}
	}
	if which < 0 {
		return false, nil
	}
	switch n := n.(type) {
	case *plan.Filter, *plan.Project:
		return true, nil
	case *plan.Join:
		switch {
		case n.Kind == plan.InnerJoin,
			n.Kind == plan.LeftJoin && which == 0,
			n.Kind == plan.RightJoin && which == 1:
			return true, nil
		case n.Kind == plan.LeftJoin, n.Kind == plan.RightJoin, n.Kind == plan.FullJoin:
			return false, b.stmt.errf(loc, pgerr.InvalidRecursion, "recursive reference to query %q must not appear within an outer join", name)
		case which == 1:
			return false, b.stmt.errf(loc, pgerr.InvalidRecursion, "recursive reference to query %q must not appear within a subquery", name)
		}
		return true, nil
	case *plan.Aggregate:
		return false, b.stmt.errf(loc, pgerr.InvalidRecursion, "aggregate functions are not allowed in a recursive query's recursive term")
	case *plan.SetOp:
		switch {
		case n.Kind == plan.IntersectAll:
			return false, b.stmt.errf(loc, pgerr.InvalidRecursion, "recursive reference to query %q must not appear within INTERSECT", name)
		case n.Kind == plan.ExceptAll, n.Kind == plan.Except && which == 1:
			return false, b.stmt.errf(cteLoc, pgerr.InvalidRecursion, "recursive reference to query %q must not appear within EXCEPT", name)
		}
	}
	if !b.forView {
		// Evaluated once, round by round over the working table: any
		// step PostgreSQL accepts runs.
		return true, nil
	}
	return false, b.refuse(loc, "recursive reference to query %q under %s is not supported", name, kindName(n)).
		WithHint("the recursive term may filter, project and join the previous round's rows")
}

// kindName names a plan node's kind for messages.
func kindName(n plan.Node) string {
	switch n.(type) {
	case *plan.Distinct:
		return "DISTINCT"
	case *plan.SetOp:
		return "INTERSECT or EXCEPT"
	case *plan.TopK, *plan.Sort, *plan.Limit:
		return "ORDER BY or LIMIT"
	case *plan.Window:
		return "a window function"
	case *plan.UnionAll:
		return "UNION ALL"
	case *plan.Recursive:
		return "a nested WITH RECURSIVE"
	}
	return fmt.Sprintf("%T", n)[len("*plan."):]
}
