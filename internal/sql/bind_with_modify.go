package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// WithModify is a statement whose WITH list holds data-modifying
// statements: INSERT, UPDATE or DELETE, with or without RETURNING, as
// PostgreSQL allows them in the WITH list of a top-level SELECT, INSERT,
// UPDATE, DELETE or MERGE. Items are those statements in the list's order;
// Main is the statement after the list (a *Select, *Insert, *Update,
// *Delete or *Merge). A plan of Main or of an item reads an item's RETURNING rows
// through a plan.Returned of the item's index.
//
// Every part reads the database as it was before the statement; none sees
// another's changes to the tables, only their RETURNING rows. Each item
// runs exactly once and to completion, whether or not anything reads its
// rows.
type WithModify struct {
	Items []ModifyItem
	Main  Bound
}

// ModifyItem is one data-modifying item of a WITH list.
type ModifyItem struct {
	Name string
	Stmt Bound // *Insert, *Update or *Delete
}

func (*WithModify) bound() {}

// Reads lists the items that b's plans read (through plan.Returned), each
// once, in the order they are first met. b is Main or an item's Stmt.
func Reads(b Bound) []int {
	var out []int
	add := func(p plan.Node) {
		if p == nil {
			return
		}
		for _, i := range plan.ReturnedItems(p) {
			if !containsInt(out, i) {
				out = append(out, i)
			}
		}
	}
	switch b := b.(type) {
	case *Select:
		add(b.Plan)
	case *Insert:
		add(b.Source)
		if b.OnConflict != nil {
			add(b.OnConflict.Rows)
		}
		add(b.RetPlan)
	case *Update:
		add(b.From)
		add(b.Rows)
		add(b.RetPlan)
	case *Delete:
		add(b.Using)
		add(b.Rows)
		add(b.RetPlan)
	case *Merge:
		add(b.Join)
		for _, c := range b.Clauses {
			add(c.Rows)
		}
	}
	return out
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// modifyingWith is the binder's state for the WITH list of the top-level
// statement, the only list where data-modifying items are allowed.
type modifyingWith struct {
	top   map[*pg_query.CommonTableExpr]bool // the list's items
	items []ModifyItem
	// bound holds each item's scope entry, by item: a query bound twice
	// (a fast path that gives up, then the general one) binds its items
	// once.
	bound map[*pg_query.CommonTableExpr]*cte
}

// modifies reports whether w holds a data-modifying item.
func modifies(w *pg_query.WithClause) bool {
	if w == nil {
		return false
	}
	for _, n := range w.Ctes {
		if c := n.GetCommonTableExpr(); c != nil && c.Ctequery.GetSelectStmt() == nil {
			return true
		}
	}
	return false
}

// topLevel binds a top-level statement with WITH list w: a WithModify when
// w holds data-modifying items, otherwise the statement bind binds.
func (b *binder) topLevel(w *pg_query.WithClause, bind func() (Bound, error)) (Bound, error) {
	if !modifies(w) {
		return bind()
	}
	mw := &modifyingWith{top: map[*pg_query.CommonTableExpr]bool{}, bound: map[*pg_query.CommonTableExpr]*cte{}}
	for _, n := range w.Ctes {
		mw.top[n.GetCommonTableExpr()] = true
	}
	b.modWith = mw
	main, err := bind()
	if err != nil {
		return nil, err
	}
	return &WithModify{Items: mw.items, Main: main}, nil
}

// bindModifyingCTE binds a data-modifying item of a WITH list into scope.
// Under WITH RECURSIVE it may not read itself (42P19), as in PostgreSQL.
func (b *binder) bindModifyingCTE(c *pg_query.CommonTableExpr, scope map[string]*cte, recursive bool) error {
	mw := b.modWith
	if mw == nil || !mw.top[c] {
		return b.stmt.errf(c.Location, pgerr.FeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level")
	}
	if done, ok := mw.bound[c]; ok {
		scope[c.Ctename] = done
		return nil
	}
	name := c.Ctename
	if recursive {
		scope[name] = &cte{refuse: func(int32) error {
			return b.stmt.errf(c.Location, pgerr.InvalidRecursion, "recursive query %q must not contain data-modifying statements", name)
		}}
	}
	var (
		bd      Bound
		err     error
		retCols []plan.Column
	)
	q := c.Ctequery
	if rd, ok, err := b.ruleTarget(q); ok || err != nil {
		if err != nil {
			return err
		}
		// Unless its rules leave it alone (DO ALSO NOTHING), bound as
		// it is below, PostgreSQL's error.
		if err := b.ruleInWith(rd, q, c.Location); err != nil {
			return err
		}
	}
	switch {
	case q.GetInsertStmt() != nil:
		bd, err = b.bindInsert(q.GetInsertStmt())
		if err == nil && len(bd.(*Insert).Returning) > 0 {
			retCols = bd.(*Insert).RetCols
		}
	case q.GetUpdateStmt() != nil:
		bd, err = b.bindUpdate(q.GetUpdateStmt())
		if err == nil && len(bd.(*Update).Returning) > 0 {
			retCols = bd.(*Update).RetCols
		}
	case q.GetDeleteStmt() != nil:
		bd, err = b.bindDelete(q.GetDeleteStmt())
		if err == nil && len(bd.(*Delete).Returning) > 0 {
			retCols = bd.(*Delete).RetCols
		}
	case q.GetMergeStmt() != nil:
		return b.stmt.errf(c.Location, pgerr.FeatureNotSupported, "MERGE not supported in WITH query")
	default:
		return b.refuse(c.Location, "%s in WITH is not supported", stmtName(q))
	}
	if err != nil {
		return err
	}
	item := len(mw.items)
	mw.items = append(mw.items, ModifyItem{Name: name, Stmt: bd})
	var entry *cte
	if retCols == nil {
		entry = &cte{refuse: func(loc int32) error {
			return b.stmt.errf(loc, pgerr.FeatureNotSupported, "WITH query %q does not have a RETURNING clause", name)
		}}
	} else {
		if len(c.Aliascolnames) > len(retCols) {
			return b.stmt.errf(c.Location, pgerr.InvalidColumnRef, "WITH query %q has %d columns available but %d columns specified", name, len(retCols), len(c.Aliascolnames))
		}
		p, err := b.renameColumns(&plan.Returned{Name: name, Item: item, Cols: retCols}, c.Aliascolnames, name, c.Location)
		if err != nil {
			return err
		}
		entry = &cte{plan: p}
	}
	mw.bound[c] = entry
	scope[name] = entry
	return nil
}

// explainModifying binds the statement EXPLAIN explains when it has
// data-modifying WITH items: a WithModify, whose parts are explained
// together, each item as an InitPlan of the main statement, as in
// PostgreSQL. ok is false for any other statement.
func (b *binder) explainModifying(q *pg_query.Node) (w Bound, ok bool, err error) {
	if !Modifies(&Stmt{Node: q}) {
		return nil, false, nil
	}
	w, err = b.bindStmt(q)
	return w, true, err
}

// Modifies reports whether s is a SELECT, INSERT, UPDATE, DELETE or MERGE with
// data-modifying items in its WITH list.
func Modifies(s *Stmt) bool {
	if s == nil || s.Node == nil {
		return false
	}
	n := s.Node
	switch {
	case n.GetSelectStmt() != nil:
		return modifies(n.GetSelectStmt().WithClause)
	case n.GetInsertStmt() != nil:
		return modifies(n.GetInsertStmt().WithClause)
	case n.GetUpdateStmt() != nil:
		return modifies(n.GetUpdateStmt().WithClause)
	case n.GetDeleteStmt() != nil:
		return modifies(n.GetDeleteStmt().WithClause)
	case n.GetMergeStmt() != nil:
		return modifies(n.GetMergeStmt().WithClause)
	}
	return false
}

// viewModifying refuses a view whose query's WITH list holds
// data-modifying items, with PostgreSQL's messages.
func (b *binder) viewModifying(w *pg_query.WithClause, materialized bool) error {
	if !modifies(w) {
		return nil
	}
	loc := w.Location
	for _, n := range w.Ctes {
		if c := n.GetCommonTableExpr(); c.Ctequery.GetSelectStmt() == nil {
			loc = c.Location
			break
		}
	}
	if materialized {
		return b.refuse(loc, "materialized views must not use data-modifying statements in WITH")
	}
	return b.refuse(loc, "views must not contain data-modifying statements in WITH")
}
