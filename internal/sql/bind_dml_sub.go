package sql

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Subqueries in the expressions of INSERT, UPDATE and DELETE. A statement
// whose expressions hold none is bound as before: its expressions are
// evaluated over each row it acts on. One whose expressions hold a
// subquery gets plans instead, bound as a query's select list and WHERE
// are, so that its subqueries, correlated or not, are decorrelated into
// joins as a query's are (docs/decorrelation.md). The plans read the rows
// the statement acts on through a plan.Target that the statement supplies
// when it runs: the table's rows with their row ids (Update.Rows,
// Delete.Rows), the rows it changed (RetPlan), an existing row with the
// row proposed in its place (OnConflict.Rows). Their subqueries read the
// statement's snapshot, the database before its changes.

// anySubLink reports whether one of ns holds a subquery.
func anySubLink(ns ...*pg_query.Node) bool {
	for _, n := range ns {
		if hasSubLink(n) {
			return true
		}
	}
	return false
}

// targetScope is the scope of a table's row as a DML statement's target:
// the table's columns under alias, then a hidden row id when withID.
func targetScope(rel *Relation, alias string, withID bool) (*scope, []plan.Column) {
	sc := targetRowScope(alias, rel)
	cols := append([]plan.Column{}, rel.Cols...)
	if withID {
		sc.star = sc.starCols()
		sc.cols = append(sc.cols, scopeCol{typ: value.Int8Type})
		cols = append(cols, plan.Column{Name: "?id?", Type: value.Int8Type})
	}
	return sc, cols
}

// bindRows binds the rows an UPDATE (set non-nil) or a DELETE whose SET
// list or WHERE holds a subquery acts on: a plan over a plan.Target of the
// table's rows, each followed by its row id, joined with the FROM (or
// USING) items, filtered by WHERE, whose rows are the row id, the new row
// (UPDATE only) and the FROM row. fromCols are the FROM items' scope
// columns, for RETURNING.
func (b *binder) bindRows(rel *Relation, alias string, from []*pg_query.Node, where *pg_query.Node, set []*pg_query.Node, update bool) (plan.Node, []scopeCol, error) {
	sc, tcols := targetScope(rel, alias, true)
	n := len(rel.Cols)
	var input plan.Node = &plan.Target{Name: rel.Name, Cols: tcols}
	if b.partTarget != nil {
		input = &plan.Filter{Input: input, Pred: b.partTarget}
	}
	if oid, ok := b.systemColumnsOf(rel); ok {
		input, sc = targetSystemColumns(input, sc, alias, rel.Name, oid)
	}
	fromAt := len(sc.cols) // where the FROM items' columns start
	var fromCols []scopeCol
	if len(from) > 0 {
		fp, fsc, err := b.bindFrom(from)
		if err != nil {
			return nil, nil, err
		}
		fromCols = append(fromCols, fsc.cols...)
		input, sc = crossJoin(input, sc, fp, fsc)
	}
	sc.allowScalar = true
	if where != nil {
		var err error
		if input, err = b.bindWhere(sc, input, where); err != nil {
			return nil, nil, err
		}
	}
	input = b.orderJoins(input)
	exprs := []expr.Expr{&expr.Col{Idx: n, T: value.Int8Type, Name: "?id?"}}
	cols := []plan.Column{{Name: "?id?", Type: value.Int8Type}}
	row := make([]expr.Expr, n)
	for i, c := range rel.Cols {
		row[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	if update {
		set, err := b.expandMultiAssign(set)
		if err != nil {
			return nil, nil, err
		}
		assigns, err := b.bindSet(sc, rel, set)
		if err != nil {
			return nil, nil, err
		}
		for _, a := range assigns {
			row[a.Col] = a.Expr
		}
	}
	exprs = append(exprs, row...)
	cols = append(cols, rel.Cols...)
	for i, c := range fromCols {
		exprs = append(exprs, &expr.Col{Idx: fromAt + i, T: c.typ, Name: c.name})
		cols = append(cols, plan.Column{Name: c.name, Type: c.typ})
	}
	sc.allowScalar = false
	return &plan.Project{Input: applyPending(sc, input), Exprs: exprs, Cols: cols}, fromCols, nil
}

// bindReturningPlan binds a RETURNING list that holds a subquery: a plan
// over a plan.Target of the rows RETURNING reads (the table's row under
// alias, then the FROM or USING row, whose scope columns are fromCols),
// and the Returning expressions that read its rows.
func (b *binder) bindReturningPlan(rel *Relation, alias string, fromCols []scopeCol, list []*pg_query.Node) (plan.Node, []expr.Expr, []plan.Column, error) {
	sc, cols := targetScope(rel, alias, false)
	for _, c := range fromCols {
		sc.cols = append(sc.cols, c)
		cols = append(cols, plan.Column{Name: c.name, Type: c.typ})
	}
	sc.allowScalar = true
	exprs, rcols, err := b.bindTargets(sc, list)
	if err != nil {
		return nil, nil, nil, err
	}
	sc.allowScalar = false
	p := &plan.Project{Input: applyPending(sc, &plan.Target{Name: rel.Name, Cols: cols}), Exprs: exprs, Cols: rcols}
	ret := make([]expr.Expr, len(rcols))
	for i, c := range rcols {
		ret[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	return p, ret, rcols, nil
}

// bindReturning binds a DML statement's RETURNING list over sc, the
// table's row under alias followed by the FROM row (fromCols): as
// expressions, or as a plan (RetPlan) when it holds a subquery.
func (b *binder) bindReturning(rel *Relation, alias string, sc *scope, fromCols []scopeCol, list []*pg_query.Node) (plan.Node, []expr.Expr, []plan.Column, error) {
	if !anySubLink(list...) {
		exprs, cols, err := b.bindTargets(sc, list)
		return nil, exprs, cols, err
	}
	return b.bindReturningPlan(rel, alias, fromCols, list)
}

// bindConflictRows binds ON CONFLICT DO UPDATE whose SET list or WHERE
// holds a subquery: a plan over a plan.Target of the existing row followed
// by the proposed one (EXCLUDED), whose one row is the new row, none when
// WHERE rejects the pair.
func (b *binder) bindConflictRows(oc *pg_query.OnConflictClause, rel *Relation, tableScope *scope) (plan.Node, error) {
	sc := &scope{cols: append([]scopeCol{}, tableScope.cols...)}
	sc.addExcluded(rel)
	cols := append(append([]plan.Column{}, rel.Cols...), rel.Cols...)
	var input plan.Node = &plan.Target{Name: rel.Name, Cols: cols}
	sc.allowScalar = true
	if oc.WhereClause != nil {
		var err error
		if input, err = b.bindWhere(sc, input, oc.WhereClause); err != nil {
			return nil, err
		}
	}
	set, err := b.expandMultiAssign(oc.TargetList)
	if err != nil {
		return nil, err
	}
	assigns, err := b.bindSet(sc, rel, set)
	if err != nil {
		return nil, err
	}
	row := make([]expr.Expr, len(rel.Cols))
	for i, c := range rel.Cols {
		row[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	for _, a := range assigns {
		row[a.Col] = a.Expr
	}
	sc.allowScalar = false
	return &plan.Project{Input: applyPending(sc, input), Exprs: row, Cols: rel.Cols}, nil
}

// multiAssignSub reports whether a SET list holds (a, b, …) = (SELECT …).
func multiAssignSub(targets []*pg_query.Node) bool {
	for _, t := range targets {
		if m := t.GetResTarget().GetVal().GetMultiAssignRef(); m != nil && m.Source.GetSubLink() != nil {
			return true
		}
	}
	return false
}

// expandMultiAssign rewrites each item of SET (a, b, …) = (SELECT x, y, …)
// into a scalar subquery of its own, a = (SELECT x …), b = (SELECT y …),
// each reading its column of the sub-SELECT's one row (none: NULL; more
// than one: 21000, as PostgreSQL's). The other items are left as they are.
func (b *binder) expandMultiAssign(targets []*pg_query.Node) ([]*pg_query.Node, error) {
	out := make([]*pg_query.Node, len(targets))
	for i, t := range targets {
		out[i] = t
		rt := t.GetResTarget()
		m := rt.GetVal().GetMultiAssignRef()
		if m == nil || m.Source.GetSubLink() == nil {
			continue
		}
		sl := m.Source.GetSubLink()
		sel := sl.Subselect.GetSelectStmt()
		if sel == nil {
			return nil, b.refuse(sl.Location, "this subquery is not supported")
		}
		if sel.Op == pg_query.SetOperation_SETOP_NONE && len(sel.ValuesLists) == 0 && !hasStar(sel.TargetList) && len(sel.TargetList) != int(m.Ncolumns) {
			return nil, b.stmt.errf(sl.Location, "42601", "number of columns does not match number of values")
		}
		names := make([]*pg_query.Node, m.Ncolumns)
		for j := range names {
			names[j] = pg_query.MakeStrNode("?column" + strconv.Itoa(j+1) + "?")
		}
		from := &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
			Subquery: sl.Subselect,
			Alias:    &pg_query.Alias{Aliasname: "?multi?", Colnames: names},
		}}}
		col := pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode("?column" + strconv.Itoa(int(m.Colno)) + "?")}, sl.Location)
		one := &pg_query.SelectStmt{
			TargetList:  []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(col, sl.Location)},
			FromClause:  []*pg_query.Node{from},
			Op:          pg_query.SetOperation_SETOP_NONE,
			LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
		}
		val := &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
			SubLinkType: pg_query.SubLinkType_EXPR_SUBLINK,
			Subselect:   &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: one}},
			Location:    sl.Location,
		}}}
		out[i] = &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
			Name: rt.Name, Indirection: rt.Indirection, Val: val, Location: rt.Location,
		}}}
	}
	return out, nil
}

// hasStar reports whether a select list holds * or t.*.
func hasStar(list []*pg_query.Node) bool {
	for _, n := range list {
		if isStarRef(n.GetResTarget().GetVal()) {
			return true
		}
	}
	return false
}

// targetRowScope is the scope of the row of rel that an UPDATE, DELETE or
// INSERT changes, its columns marked as rel's (RefLog), as a scan's are.
func targetRowScope(alias string, rel *Relation) *scope {
	sc := rowScope(alias, relRowType(rel), rel.Cols)
	markOrigin(sc, rel)
	return sc
}

// addExcluded adds ON CONFLICT's EXCLUDED row of rel to sc, its columns
// marked as rel's (RefLog): reading EXCLUDED.c reads the table's column
// c to PostgreSQL's privilege checks, and a rename of c renames it.
func (s *scope) addExcluded(rel *Relation) {
	for i, c := range rel.Cols {
		s.cols = append(s.cols, scopeCol{qual: "excluded", name: c.Name, typ: c.Type, origin: rel.Name, originCol: i})
	}
}

// markOrigin marks the first columns of sc as rel's.
func markOrigin(sc *scope, rel *Relation) {
	for i := range sc.cols {
		if i < len(rel.Cols) {
			sc.cols[i].origin, sc.cols[i].originCol = rel.Name, i
		}
	}
}
