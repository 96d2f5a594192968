package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// targetTable resolves the table a DML statement writes.
func (b *binder) targetTable(rv *pg_query.RangeVar, verb string) (*Relation, string, error) {
	rel, ok := b.targetRelation(rv)
	if !ok || (rv.Schemaname != "" && rv.Schemaname != "public") {
		if _, seq := b.sequence(rv.Relname); seq && rv.Schemaname == "" {
			return nil, "", b.stmt.errf(rv.Location, pgerr.WrongObjectType, "cannot change sequence %q", rv.Relname)
		}
		return nil, "", b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	}
	if rel.Kind == KindView && verb == "copy to" {
		if err := b.copyToView(rv, rel); err != nil {
			return nil, "", err
		}
	} else if rel.Kind != KindTable && !(rel.Kind == KindView && verb != "merge into") {
		what := "view"
		if rel.Kind == KindMatView {
			what = "materialized view"
			if verb == "insert into" || verb == "update" || verb == "delete from" {
				verb = "change" // PostgreSQL's word for DML on a materialized view
			}
		}
		return nil, "", b.stmt.errf(rv.Location, pgerr.WrongObjectType, "cannot %s %s %q", verb, what, rel.Name).
			WithHint("views are maintained from their tables: change the tables")
	}
	alias := b.refName(rel.Name)
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
	}
	b.partTarget = nil
	if rel.Partition != nil {
		// The partition's rows are its root's that its constraint
		// accepts: the statement writes the root.
		root, ok := b.cat.Relation(rel.Partition.Root)
		if !ok {
			return nil, "", b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rel.Partition.Root)
		}
		defaults := rel.Partition.Defaults
		b.partTarget, rel = rel.Partition.Filter, root
		if defaults != nil {
			r := *rel
			r.Defaults = defaults // the partition's own, for rows naming it
			rel = &r
		}
	} else if !rv.Inh && rel.Def != nil && rel.Def.PartitionBy != nil {
		b.partTarget = &expr.PartitionOf{Name: rel.Name, None: true} // keeps no rows of its own
	}
	return rel, alias, nil
}

// partWhere restricts a DML statement's WHERE to the rows of the
// partition it names.
func (b *binder) partWhere(where expr.Expr) expr.Expr {
	switch {
	case b.partTarget == nil:
		return where
	case where == nil:
		return b.partTarget
	}
	return &expr.And{Args: []expr.Expr{b.partTarget, where}}
}

func (b *binder) bindInsert(ins *pg_query.InsertStmt) (Bound, error) {
	b.writes = true // volatile SQL functions run per call (bind_volatile_call.go)
	if ins.WithClause != nil {
		if err := b.pushWith(ins.WithClause); err != nil {
			return nil, err
		}
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	}
	rel, alias, err := b.targetTable(ins.Relation, "insert into")
	if err != nil {
		return nil, err
	}
	var auto *AutoView
	if rel.Kind == KindView {
		b.autoReads = len(ins.ReturningList) > 0
		auto, err = b.autoTarget(rel, TriggerInsert, ins.Relation.Location)
		b.autoReads = false
		if err != nil {
			return nil, err
		} else if auto != nil {
			rel = autoInsertRel(rel, auto)
		}
	}
	in, err := b.insertInto(rel, ins.Cols)
	if err != nil {
		return nil, err
	}
	cols := rel.Cols
	out := &Insert{Table: rel.Name, Partition: b.partTarget}
	sel := ins.SelectStmt.GetSelectStmt()
	switch {
	case sel == nil: // DEFAULT VALUES
		out.Source = &plan.Values{Rows: [][]expr.Expr{in.fill(b, nil)}, Cols: cols}
	case len(sel.ValuesLists) > 0 && sel.Op == pg_query.SetOperation_SETOP_NONE && len(sel.SortClause) == 0 && sel.LimitCount == nil && sel.WithClause == nil:
		out.Targets = in.targets[:min(len(in.targets), len(sel.ValuesLists[0].GetList().GetItems()))]
		var rows [][]expr.Expr
		var parts []plan.Node // with subqueries: the rows so far, in order
		for _, l := range sel.ValuesLists {
			if items := l.GetList().GetItems(); len(items) != len(sel.ValuesLists[0].GetList().GetItems()) {
				return nil, b.stmt.errf(nodeLoc(items[0], -1), pgerr.SyntaxError, "VALUES lists must all be the same length")
			}
			empty := &scope{allowScalar: true}
			row, err := b.valuesRow(in, empty, l.GetList().GetItems(), ins.Override)
			if err != nil {
				return nil, err
			}
			if len(empty.pending) == 0 {
				rows = append(rows, row)
				continue
			}
			// A row with subqueries: its values over their joins.
			if len(rows) > 0 {
				parts, rows = append(parts, &plan.Values{Rows: rows, Cols: cols}), nil
			}
			parts = append(parts, &plan.Project{Input: applyPending(empty, &plan.Values{Rows: [][]expr.Expr{{}}}), Exprs: row, Cols: cols})
		}
		out.Source = &plan.Values{Rows: rows, Cols: cols}
		if len(parts) > 0 {
			if len(rows) > 0 {
				parts = append(parts, out.Source)
			}
			out.Source = &plan.UnionAll{Inputs: parts, Cols: cols}
		}
	default:
		if len(sel.DistinctClause) == 0 && len(sel.GroupClause) == 0 && len(sel.SortClause) == 0 {
			// PostgreSQL reads a sorted or grouped column as text.
			b.insertSelectList, b.insertSelectTypes = sel.TargetList, in.itemTypes(sel.TargetList)
			b.insertSelectDomains = in.itemDomains(sel.TargetList)
		}
		src, err := b.bindSelect(sel)
		b.insertSelectList, b.insertSelectTypes, b.insertSelectDomains = nil, nil, nil
		if err != nil {
			return nil, err
		}
		sc := src.Columns()
		if len(sc) > len(in.targets) {
			// At the first select-list item too many, as PostgreSQL points.
			at := selectItemAt(sel, len(in.targets), len(sc))
			return nil, b.stmt.errf(at, pgerr.SyntaxError, "INSERT has more expressions than target columns")
		}
		if len(sc) < len(in.targets) && len(in.list) > len(sc) {
			return nil, b.stmt.errf(in.list[len(sc)].GetResTarget().GetLocation(), pgerr.SyntaxError, "INSERT has more target columns than expressions")
		}
		out.Targets = in.targets[:len(sc)]
		vals := map[int]expr.Expr{}
		for j, c := range sc {
			if keep, err := b.identityInsert(rel, in.targets[j], ins.Override, -1); !keep || err != nil {
				if err != nil {
					return nil, err
				}
				continue
			}
			loc := selectItemLoc(sel, len(sc), j)
			if err := in.assign(b, vals, j, &expr.Col{Idx: j, T: c.Type, Name: c.Name}, loc, loc); err != nil {
				return nil, err
			}
		}
		out.Source = &plan.Project{Input: src, Exprs: in.fill(b, vals), Cols: cols}
	}
	if rel.Security != nil {
		upsert := ins.OnConflictClause != nil && ins.OnConflictClause.Action == pg_query.OnConflictAction_ONCONFLICT_UPDATE
		if out.Checks, err = b.securityRowChecks(rel, PolicyInsert, len(ins.ReturningList) > 0); err != nil {
			return nil, err
		}
		if upsert {
			if out.ConflictChecks, out.UpdateChecks, err = b.conflictRowChecks(rel); err != nil {
				return nil, err
			}
		}
	}
	tableScope := newScope(alias, cols)
	markOrigin(tableScope, rel)
	if rel.Kind == KindView && auto == nil {
		if out.View, _, err = b.viewTarget(ins.Relation, rel, TriggerInsert, ins.OnConflictClause); err != nil {
			return nil, err
		}
	}
	if oc := ins.OnConflictClause; oc != nil && out.View == nil {
		if out.OnConflict, err = b.bindOnConflict(oc, rel, tableScope); err != nil {
			return nil, err
		}
	}
	retScope, retSys := b.returningSystemColumns(rel, alias, tableScope, ins.ReturningList)
	out.RetSystem = retSys
	if out.RetPlan, out.Returning, out.RetCols, err = b.bindReturning(rel, alias, retScope, nil, ins.ReturningList); err != nil {
		return nil, err
	}
	out.RetOrigins = b.originsOf(ins.ReturningList)
	retSys.markRouted(out.Returning, b.leafTarget())
	if auto != nil {
		return b.autoInsert(out, in, insertGiven(ins, in, out.Source), auto, rel)
	}
	return out, nil
}

// selectItemLoc is the position of the select-list item of sel that
// computes its column j of n, where PostgreSQL places an error of
// assigning it; -1 when the list has a * or is a set operation's.
func selectItemLoc(sel *pg_query.SelectStmt, n, j int) int32 {
	if len(sel.TargetList) != n {
		return -1
	}
	rt := sel.TargetList[j].GetResTarget()
	if cr := rt.GetVal().GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
		return -1
	}
	return rt.Location
}

// insertInto is the column list of an INSERT into rel, or of MERGE's
// INSERT action: the column each value goes to, and how a subscripted
// one (a[1], j['k']) assigns.
type insertInto struct {
	rel         *Relation
	list        []*pg_query.Node // the columns listed; nil for all
	targets     []int
	subscripted map[int]subscriptAssigner // by position in targets
}

func (b *binder) insertInto(rel *Relation, list []*pg_query.Node) (*insertInto, error) {
	in := &insertInto{rel: rel, list: list}
	if len(list) == 0 {
		for i := range rel.Cols {
			in.targets = append(in.targets, i)
		}
		return in, nil
	}
	var err error
	in.targets, in.subscripted, err = b.insertTargets(rel, list)
	return in, err
}

// assign puts e, bound at loc (its leftmost position at), into vals
// for the target at position j.
func (in *insertInto) assign(b *binder, vals map[int]expr.Expr, j int, e expr.Expr, loc, at int32) (err error) {
	rel := in.rel
	ci := in.targets[j]
	if sub, ok := in.subscripted[j]; ok {
		base, ok := vals[ci]
		if !ok {
			base = &expr.Const{V: value.Null, T: rel.Cols[ci].Type}
		}
		vals[ci], err = sub(base, e, loc)
		return err
	}
	inferred := untypedParam(e)
	if vals[ci], err = b.assignColumn(e, rel, ci, loc, at); err != nil {
		return err
	}
	inferDomain(inferred, columnDomain(rel, ci))
	return nil
}

// untypedParam returns the slot of e when e is a parameter whose type no
// use has given yet, else nil.
func untypedParam(e expr.Expr) *expr.ParamSlot {
	if p, ok := e.(*expr.Param); ok && p.Slot.T.Kind == value.Unknown {
		return p.Slot
	}
	return nil
}

// columnDomain is the domain of rel's i-th column, nil for a column of
// a base type or a relation without a table's definition.
func columnDomain(rel *Relation, i int) *expr.Domain {
	if rel.Def == nil || i >= len(rel.Def.Cols) || rel.Def.Cols[i].Name != rel.Cols[i].Name {
		return nil
	}
	return rel.Def.Cols[i].Domain
}

// inferDomain makes slot, a parameter whose type an assignment to a
// column of domain d gave, of that domain, as PostgreSQL infers it: its
// value is then checked against the domain at Bind (the engine's
// CheckArgs), before the statement runs.
func inferDomain(slot *expr.ParamSlot, d *expr.Domain) {
	if slot != nil && d != nil && slot.Domain == nil && slot.T.Kind != value.Unknown {
		slot.Domain = d
	}
}

// itemTypes returns the types of the columns a select list's items go
// to, by position; unknown for an item going to a subscripted target, and
// all unknown when the list has a *, whose items go to several columns.
func (in *insertInto) itemTypes(list []*pg_query.Node) []value.Type {
	ts := make([]value.Type, len(list))
	for j, n := range list {
		ts[j] = value.UnknownType
		if cr := n.GetResTarget().GetVal().GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			return nil
		}
		if _, sub := in.subscripted[j]; !sub && j < len(in.targets) {
			ts[j] = in.rel.Cols[in.targets[j]].Type
		}
	}
	return ts
}

// fill returns the table's full row: the values of vals, by column, and
// the columns' defaults for the others.
func (in *insertInto) fill(b *binder, vals map[int]expr.Expr) []expr.Expr {
	rel := in.rel
	row := make([]expr.Expr, len(rel.Cols))
	for i, c := range rel.Cols {
		if e, ok := vals[i]; ok {
			row[i] = e
		} else if i < len(rel.Defaults) && rel.Defaults[i] != nil {
			row[i] = expr.WithClock(rel.Defaults[i], b.stmtClock)
		} else {
			row[i] = &expr.Const{V: value.Null, T: c.Type}
		}
	}
	return row
}

// valuesRow binds one row of VALUES, items, over sc: the table's full
// row.
func (b *binder) valuesRow(in *insertInto, sc *scope, items []*pg_query.Node, over pg_query.OverridingKind) ([]expr.Expr, error) {
	if len(items) > len(in.targets) {
		return nil, b.stmt.errf(nodeLoc(items[len(in.targets)], -1), pgerr.SyntaxError, "INSERT has more expressions than target columns")
	}
	if len(items) < len(in.targets) && len(in.list) > 0 {
		// At the first column without an expression, as PostgreSQL.
		return nil, b.stmt.errf(in.list[len(items)].GetResTarget().GetLocation(), pgerr.SyntaxError, "INSERT has more target columns than expressions")
	}
	vals := map[int]expr.Expr{}
	for j, it := range items {
		if it.GetSetToDefault() != nil {
			if _, ok := in.subscripted[j]; ok {
				return nil, b.refuseDefaultSubscript(in.list[j].GetResTarget().Indirection, in.list[j].GetResTarget().Location)
			}
			continue
		}
		if keep, err := b.identityInsert(in.rel, in.targets[j], over, nodeLoc(it, -1)); !keep || err != nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		e, err := b.bindExpr(sc, it)
		if err != nil {
			return nil, err
		}
		if err := in.assign(b, vals, j, e, nodeLoc(it, -1), leftmostLoc(it)); err != nil {
			return nil, err
		}
	}
	return in.fill(b, vals), nil
}

func colIndex(cols []plan.Column, name string) int {
	for i, c := range cols {
		if c.Name == name {
			return i
		}
	}
	return -1
}

func (b *binder) bindOnConflict(oc *pg_query.OnConflictClause, rel *Relation, tableScope *scope) (*OnConflict, error) {
	out := &OnConflict{DoNothing: oc.Action == pg_query.OnConflictAction_ONCONFLICT_NOTHING}
	if oc.Infer != nil {
		if err := b.bindConflictTarget(oc.Infer, rel, tableScope, out); err != nil {
			return nil, err
		}
	} else if !out.DoNothing {
		return nil, b.stmt.errf(oc.Location, pgerr.SyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
			WithHint("For example, ON CONFLICT (column_name).")
	}
	if out.DoNothing {
		return out, nil
	}
	out.SetCols = setTargetCols(rel, oc.TargetList)
	if anySubLink(oc.WhereClause) || anySubLink(oc.TargetList...) || multiAssignSub(oc.TargetList) {
		var err error
		out.Rows, err = b.bindConflictRows(oc, rel, tableScope)
		return out, err
	}
	sc := &scope{cols: append([]scopeCol{}, tableScope.cols...)}
	sc.addExcluded(rel)
	set, err := b.bindSet(sc, rel, oc.TargetList)
	if err != nil {
		return nil, err
	}
	out.Set = set
	if oc.WhereClause != nil {
		w, err := b.bindExpr(sc, oc.WhereClause)
		if err != nil {
			return nil, err
		}
		if out.Where, err = b.toBool(w, "WHERE", nodeLoc(oc.WhereClause, -1)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bindSet binds SET col = expr, … over sc, whose first columns are the
// table's.
func (b *binder) bindSet(sc *scope, rel *Relation, targets []*pg_query.Node) ([]Assign, error) {
	var out []Assign
	seen := map[int]int{}   // a column → its assignment in out
	plain := map[int]bool{} // a column assigned whole
	for _, t := range targets {
		rt := t.GetResTarget()
		if rt == nil {
			return nil, b.refuse(-1, "this assignment is not supported")
		}
		if mar := rt.Val.GetMultiAssignRef(); mar != nil {
			var err error
			if rt, err = b.multiAssignItem(rt, mar); err != nil {
				return nil, err
			}
		}
		i := colIndex(rel.Cols, rt.Name)
		if i < 0 && colIndex(plan.SystemColumns, rt.Name) >= 0 && rel.Kind == KindTable {
			return nil, b.stmt.errf(rt.Location, pgerr.FeatureNotSupported, "cannot assign to system column %q", rt.Name)
		}
		if i < 0 {
			return nil, b.stmt.errf(rt.Location, pgerr.UndefinedColumn, "column %q of relation %q does not exist", rt.Name, rel.Name)
		}
		prev, again := seen[i]
		if again && (plain[i] || len(rt.Indirection) == 0) {
			// Without a position: PostgreSQL finds it rewriting the target list.
			return nil, pgerr.New(pgerr.SyntaxError, "multiple assignments to same column %q", rt.Name)
		}
		if len(rt.Indirection) > 0 {
			if err := b.generatedWrite(rel, i, true); err != nil {
				return nil, err
			}
			var base expr.Expr = &expr.Col{Idx: i, T: rel.Cols[i].Type, Name: rt.Name}
			if again {
				base = out[prev].Expr
			}
			e, err := b.bindSubscriptSet(sc, rel, i, rt, base)
			if err != nil {
				return nil, err
			}
			if again {
				out[prev].Expr = e
			} else {
				seen[i] = len(out)
				out = append(out, Assign{Col: i, Expr: e})
			}
			continue
		}
		seen[i], plain[i] = len(out), true
		var e expr.Expr
		if rt.Val.GetSetToDefault() != nil {
			e = expr.WithClock(rel.Defaults[i], b.stmtClock)
			if e == nil {
				e = &expr.Const{V: value.Null, T: rel.Cols[i].Type}
			}
		} else {
			if err := b.identityUpdate(rel, i, rt.Location); err != nil {
				return nil, err
			}
			var err error
			if e, err = b.bindExpr(sc, rt.Val); err != nil {
				return nil, err
			}
			inferred := untypedParam(e)
			if e, err = b.assignColumn(e, rel, i, assignedLoc(rt), leftmostAssignedLoc(rt)); err != nil {
				return nil, err
			}
			inferDomain(inferred, columnDomain(rel, i))
		}
		out = append(out, Assign{Col: i, Expr: e})
	}
	return genNulls(rel, out, seen), nil
}

func (b *binder) bindUpdate(up *pg_query.UpdateStmt) (Bound, error) {
	b.writes = true // volatile SQL functions run per call (bind_volatile_call.go)
	if up.WithClause != nil {
		if err := b.pushWith(up.WithClause); err != nil {
			return nil, err
		}
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	}
	defer b.currentOfHierarchy(up.Relation)()
	bd, err := b.bindUpdateOne(up)
	if err != nil {
		return nil, err
	}
	err = b.inheritedTargets(up.Relation, &up.ReturningList, up.FromClause, func() error {
		c, err := b.bindUpdateOne(up)
		bd.Inherited = append(bd.Inherited, c)
		return err
	})
	if err == nil && len(bd.Inherited) > 0 {
		bd.ReadsHierarchy = b.readsHierarchy(up.Relation, bd.Rows, bd.From, bd.RetPlan)
	}
	if err == nil && bd.Auto != nil && len(bd.Auto.Inherit) > 0 {
		// Through a view over a parent: the statement again over each
		// descendant, reading what the statement found.
		for _, m := range bd.Auto.Inherit {
			c := *bd
			c.Auto, c.Inherited = bd.Auto.ForMember(m), nil
			bd.Inherited = append(bd.Inherited, &c)
		}
		bd.ReadsHierarchy = true
	}
	return bd, err
}

func (b *binder) bindUpdateOne(up *pg_query.UpdateStmt) (*Update, error) {
	rel, alias, err := b.targetTable(up.Relation, "update")
	if err != nil {
		return nil, err
	}
	if rel.Security != nil {
		// The rows an UPDATE reads (WHERE, RETURNING, SET over the row)
		// meet the SELECT policies too, as in PostgreSQL.
		reads := len(up.ReturningList) > 0 || readsTarget(rel, alias, up.WhereClause) || readsTarget(rel, alias, up.TargetList...)
		where, err := b.securityWhere(rel, alias, PolicyUpdate, reads, up.WhereClause)
		if err != nil {
			return nil, err
		}
		saved := up.WhereClause
		up.WhereClause = where
		defer func() { up.WhereClause = saved }()
		checks, err := b.securityRowChecks(rel, PolicyUpdate, reads)
		if err != nil {
			return nil, err
		}
		bd, err := b.bindUpdateTarget(up, rel, alias)
		if err != nil {
			return nil, err
		}
		bd.Checks = checks
		return bd, nil
	}
	return b.bindUpdateTarget(up, rel, alias)
}

func (b *binder) bindUpdateTarget(up *pg_query.UpdateStmt, rel *Relation, alias string) (*Update, error) {
	var err error
	sc := targetRowScope(alias, rel)
	out := &Update{Table: rel.Name, SetCols: setTargetCols(rel, up.TargetList), Partition: b.partTarget}
	if out.CurrentOf, err = b.currentOfTarget(up.WhereClause, rel, up.Relation.Relname, alias); err != nil {
		return nil, err
	}
	if rel.Kind == KindView {
		b.autoReads = len(up.ReturningList) > 0 || readsTarget(rel, alias, up.WhereClause) || readsTarget(rel, alias, up.TargetList...)
		out.View, out.Auto, err = b.viewTarget(up.Relation, rel, TriggerUpdate, nil)
		b.autoReads = false
		if err != nil {
			return nil, err
		}
		if out.Auto != nil {
			if _, err := autoSetCols(out.Auto, rel, out.SetCols); err != nil {
				return nil, err
			}
			if err := autoSetGenerated(out.Auto, rel, up.TargetList); err != nil {
				return nil, err
			}
		}
	}
	if _, sys := b.systemColumnsOf(rel); sys || out.View != nil || anySubLink(up.WhereClause) || anySubLink(up.TargetList...) || multiAssignSub(up.TargetList) {
		var fromCols []scopeCol
		if out.Rows, fromCols, err = b.bindRows(rel, alias, up.FromClause, up.WhereClause, up.TargetList, true); err != nil {
			return nil, err
		}
		sc.cols = append(sc.cols, fromCols...)
		retScope, retSys := b.returningSystemColumns(rel, alias, sc, up.ReturningList)
		out.RetSystem = retSys
		if out.RetPlan, out.Returning, out.RetCols, err = b.bindReturning(rel, alias, retScope, fromCols, up.ReturningList); err != nil {
			return nil, err
		}
		out.RetOrigins = b.originsOf(up.ReturningList)
		return out, nil
	}
	var fromCols []scopeCol
	if len(up.FromClause) > 0 {
		from, fsc, err := b.bindFrom(up.FromClause)
		if err != nil {
			return nil, err
		}
		out.From = from
		fromCols = fsc.cols
		sc.cols = append(sc.cols, fsc.cols...)
	}
	if out.Set, err = b.bindSet(sc, rel, up.TargetList); err != nil {
		return nil, err
	}
	if up.WhereClause != nil {
		w, err := b.bindExpr(sc, up.WhereClause)
		if err != nil {
			return nil, err
		}
		if out.Where, err = b.toBool(w, "WHERE", nodeLoc(up.WhereClause, -1)); err != nil {
			return nil, err
		}
	}
	out.Where = b.partWhere(out.Where)
	retScope, retSys := b.returningSystemColumns(rel, alias, sc, up.ReturningList)
	out.RetSystem = retSys
	if out.RetPlan, out.Returning, out.RetCols, err = b.bindReturning(rel, alias, retScope, fromCols, up.ReturningList); err != nil {
		return nil, err
	}
	out.RetOrigins = b.originsOf(up.ReturningList)
	return out, nil
}

func (b *binder) bindDelete(del *pg_query.DeleteStmt) (Bound, error) {
	b.writes = true // user SQL functions reading tables run per call (bind_volatile_call.go)
	if del.WithClause != nil {
		if err := b.pushWith(del.WithClause); err != nil {
			return nil, err
		}
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	}
	defer b.currentOfHierarchy(del.Relation)()
	bd, err := b.bindDeleteOne(del)
	if err != nil {
		return nil, err
	}
	err = b.inheritedTargets(del.Relation, &del.ReturningList, del.UsingClause, func() error {
		c, err := b.bindDeleteOne(del)
		bd.Inherited = append(bd.Inherited, c)
		return err
	})
	if err == nil && len(bd.Inherited) > 0 {
		bd.ReadsHierarchy = b.readsHierarchy(del.Relation, bd.Rows, bd.Using, bd.RetPlan)
	}
	if err == nil && bd.Auto != nil && len(bd.Auto.Inherit) > 0 {
		for _, m := range bd.Auto.Inherit {
			c := *bd
			c.Auto, c.Inherited = bd.Auto.ForMember(m), nil
			bd.Inherited = append(bd.Inherited, &c)
		}
		bd.ReadsHierarchy = true
	}
	return bd, err
}

func (b *binder) bindDeleteOne(del *pg_query.DeleteStmt) (*Delete, error) {
	rel, alias, err := b.targetTable(del.Relation, "delete from")
	if err != nil {
		return nil, err
	}
	if rel.Security != nil {
		reads := len(del.ReturningList) > 0 || readsTarget(rel, alias, del.WhereClause)
		where, err := b.securityWhere(rel, alias, PolicyDelete, reads, del.WhereClause)
		if err != nil {
			return nil, err
		}
		saved := del.WhereClause
		del.WhereClause = where
		defer func() { del.WhereClause = saved }()
	}
	sc := targetRowScope(alias, rel)
	out := &Delete{Table: rel.Name, Partition: b.partTarget}
	if out.CurrentOf, err = b.currentOfTarget(del.WhereClause, rel, del.Relation.Relname, alias); err != nil {
		return nil, err
	}
	if rel.Kind == KindView {
		b.autoReads = len(del.ReturningList) > 0 || readsTarget(rel, alias, del.WhereClause)
		out.View, out.Auto, err = b.viewTarget(del.Relation, rel, TriggerDelete, nil)
		b.autoReads = false
		if err != nil {
			return nil, err
		}
	}
	if _, sys := b.systemColumnsOf(rel); sys || out.View != nil || anySubLink(del.WhereClause) {
		var usingCols []scopeCol
		if out.Rows, usingCols, err = b.bindRows(rel, alias, del.UsingClause, del.WhereClause, nil, false); err != nil {
			return nil, err
		}
		sc.cols = append(sc.cols, usingCols...)
		retScope, retSys := b.returningSystemColumns(rel, alias, sc, del.ReturningList)
		out.RetSystem = retSys
		if out.RetPlan, out.Returning, out.RetCols, err = b.bindReturning(rel, alias, retScope, usingCols, del.ReturningList); err != nil {
			return nil, err
		}
		out.RetOrigins = b.originsOf(del.ReturningList)
		return out, nil
	}
	var usingCols []scopeCol
	if len(del.UsingClause) > 0 {
		using, usc, err := b.bindFrom(del.UsingClause)
		if err != nil {
			return nil, err
		}
		out.Using = using
		usingCols = usc.cols
		sc.cols = append(sc.cols, usc.cols...)
	}
	if del.WhereClause != nil {
		w, err := b.bindExpr(sc, del.WhereClause)
		if err != nil {
			return nil, err
		}
		if out.Where, err = b.toBool(w, "WHERE", nodeLoc(del.WhereClause, -1)); err != nil {
			return nil, err
		}
	}
	out.Where = b.partWhere(out.Where)
	retScope, retSys := b.returningSystemColumns(rel, alias, sc, del.ReturningList)
	out.RetSystem = retSys
	if out.RetPlan, out.Returning, out.RetCols, err = b.bindReturning(rel, alias, retScope, usingCols, del.ReturningList); err != nil {
		return nil, err
	}
	out.RetOrigins = b.originsOf(del.ReturningList)
	return out, nil
}

// selectItemAt is the location of the select-list item of sel that gives
// output column k of width: a `*` gives as many as it expands to (one
// star at most is counted); -1 for a set operation or two stars.
func selectItemAt(sel *pg_query.SelectStmt, k, width int) int32 {
	if sel.Op != pg_query.SetOperation_SETOP_NONE {
		return -1
	}
	stars := 0
	for _, t := range sel.TargetList {
		if cr := t.GetResTarget().GetVal().GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			stars++
		}
	}
	if stars > 1 {
		return -1
	}
	starWidth := width - (len(sel.TargetList) - stars)
	col := 0
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		n := 1
		if cr := rt.GetVal().GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			n = starWidth
		}
		if k < col+n {
			return rt.GetLocation()
		}
		col += n
	}
	return -1
}

// assignedLoc is where PostgreSQL points an error in converting SET's
// value to its column: at the value (an operator's leftmost operand), or
// at the target when the value has no location of its own.
func assignedLoc(rt *pg_query.ResTarget) int32 {
	n := rt.Val
	for n.GetAExpr() != nil && n.GetAExpr().Lexpr != nil {
		n = n.GetAExpr().Lexpr
	}
	if loc := nodeLoc(n, -1); loc >= 0 {
		return loc
	}
	return rt.Location
}

// leftmostAssignedLoc is where PostgreSQL points the 42804 of SET's
// value of a type its column does not take: the value's leftmost
// position (a cast's operand's), or the target's.
func leftmostAssignedLoc(rt *pg_query.ResTarget) int32 {
	if loc := leftmostLoc(rt.Val); loc >= 0 {
		return loc
	}
	return rt.Location
}
