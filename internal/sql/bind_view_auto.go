package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// INSERT, UPDATE and DELETE on a view that PostgreSQL calls automatically
// updatable (it reads one table or automatically updatable view, without
// DISTINCT, GROUP BY, … : notUpdatable) and that has no INSTEAD OF
// trigger for the statement's event change the table under it, as
// PostgreSQL's rewriter makes them do. The binder resolves the view, and
// the views under it, to that table (AutoView): which table column each
// view column is, the view's columns as expressions over the table's row,
// the condition of the rows the views show, and the conditions WITH CHECK
// OPTION puts on new rows.
//
// An INSERT becomes an INSERT into the table (its source's rows made the
// table's, the columns the statement does not give taking the table's
// defaults; ON CONFLICT and RETURNING read over the table's row); UPDATE
// and DELETE keep the view's form (their Rows plan over the view's rows),
// and the engine hands that plan the view's rows computed from the
// table's, each with the table row's id, then changes those table rows.
// Nothing is kept: the view stays a query.

// AutoView is how a statement on an automatically updatable view reaches
// the table under it, through the views between.
type AutoView struct {
	View  string // the view the statement names
	Table string // the table it changes
	// Cols are, per column of the view, the table's column it shows; -1
	// for a column an expression computes, which cannot be assigned.
	Cols []int
	// Exprs compute the view's columns from the table's row.
	Exprs []expr.Expr
	// Where is the condition on the table's rows that the view and the
	// views under it show; nil for all.
	Where expr.Expr
	// Checks are the conditions WITH CHECK OPTION puts on a row the
	// statement writes (over the table's row), innermost view first, as
	// PostgreSQL checks them.
	Checks []ViewCheck
	// Partition is the constraint of the partition the innermost view
	// reads, whose rows its root (Table) keeps; nil for a table.
	Partition *expr.PartitionOf
	// Inherit are the inheritance descendants of the table, when the
	// innermost view reads it without ONLY and the statement is an
	// UPDATE or DELETE: it changes their rows too (ForMember).
	Inherit []InheritMember
	// Shown are, per view between whose WHERE holds a subquery, the
	// plan of the ids of the table's rows it shows (bind_view_shown.go).
	Shown []plan.Node
	// ShownMap is, for a descendant of the table (ForMember), the
	// column of its row that each column of the table is: the rows the
	// Shown plans read are in the table's columns.
	ShownMap []int
	// RowChecks are row-level security's checks of the rows an INSERT
	// or UPDATE writes to the table, over its row, when the view reads
	// it as the statement's role (security_invoker); nil for none.
	RowChecks *RowChecks
	// Levels are the views from the statement's to the table,
	// outermost first, for their owners' privileges (bind_view_levels.go).
	Levels []AutoLevel
	// Read is set when the statement reads the view's rows (its WHERE,
	// SET's expressions, RETURNING): each level's owner then needs
	// SELECT on what its query reads.
	Read bool
	// Instead is set when Table is a view whose INSTEAD OF triggers do
	// the statement's event (bind_view_instead.go): the plan of its rows,
	// which the statement reads as a table's, each numbered.
	Instead plan.Node
	base    *Relation
	// viewDefaults marks the view's columns with a default of their own
	// (AlterViewDefault), which an INSERT gives when it does not.
	viewDefaults []bool
	// innerDefaults are, by table column, the defaults of the views
	// under the statement's (the outermost's first), which an INSERT
	// gives before the table's; innerComputed names a computed column of
	// such a view with a default, which makes every INSERT fail.
	innerDefaults []expr.Expr
	innerComputed [2]string
	// insertGiven are the table's columns an INSERT gives a value (its
	// own or a view's default), in order; the others take the table's
	// defaults.
	insertGiven []int
}

// ForMember is a for the descendant m of its table: its expressions
// read m's row, whose columns of the table's names m.Map gives.
func (a *AutoView) ForMember(m InheritMember) *AutoView {
	n := len(a.base.Cols)
	remap := func(e expr.Expr) expr.Expr {
		if e == nil {
			return nil
		}
		return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
			if c, ok := x.(*expr.Col); ok && c.Idx < n {
				return &expr.Col{Idx: m.Map[c.Idx], T: c.T, Name: c.Name}
			}
			return x
		})
	}
	out := *a
	out.Table, out.base, out.Inherit, out.ShownMap = m.Rel.Name, m.Rel, nil, m.Map
	out.Cols = make([]int, len(a.Cols))
	for i, c := range a.Cols {
		out.Cols[i] = -1
		if c >= 0 {
			out.Cols[i] = m.Map[c]
		}
	}
	out.Exprs = make([]expr.Expr, len(a.Exprs))
	for i, x := range a.Exprs {
		out.Exprs[i] = remap(x)
	}
	out.Where = remap(a.Where)
	out.Checks = make([]ViewCheck, len(a.Checks))
	for i, c := range a.Checks {
		out.Checks[i] = ViewCheck{View: c.View, Pred: remap(c.Pred), Shown: c.Shown}
	}
	return &out
}

// partWhere is a partition's constraint as a condition; nil for none.
func partWhere(p *expr.PartitionOf) expr.Expr {
	if p == nil {
		return nil
	}
	return p
}

// ViewCheck is one view's WITH CHECK OPTION condition: Pred over the
// table's row, or, for a WHERE that holds a subquery, Shown, a plan that
// gives the row's id when the view shows the row.
type ViewCheck struct {
	View  string
	Pred  expr.Expr
	Shown plan.Node
}

// OverTable returns e, an expression over the view's row followed by
// other columns, as an expression over the table's row (n columns)
// followed by the same columns.
func (a *AutoView) OverTable(e expr.Expr, n int) expr.Expr {
	if e == nil {
		return nil
	}
	k := len(a.Exprs)
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if c, ok := x.(*expr.Col); ok {
			if c.Idx < k {
				return a.Exprs[c.Idx]
			}
			return &expr.Col{Idx: c.Idx - k + n, T: c.T, Name: c.Name}
		}
		return x
	})
}

// overPair is OverTable for an expression over two view rows (ON
// CONFLICT's existing and proposed rows), read over two table rows.
func (a *AutoView) overPair(e expr.Expr, n int) expr.Expr {
	if e == nil {
		return nil
	}
	k := len(a.Exprs)
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if c, ok := x.(*expr.Col); ok {
			if c.Idx < k {
				return a.Exprs[c.Idx]
			}
			return plan.Shift(a.Exprs[c.Idx-k], n)
		}
		return x
	})
}

// ViewRow computes the view's row from a row of the table.
func (a *AutoView) ViewRow(row value.Row) (value.Row, error) {
	out := make(value.Row, len(a.Exprs))
	for i, x := range a.Exprs {
		v, err := x.Eval(row)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// viewLevel is one view between the statement's and the table.
type viewLevel struct {
	name, check string
	where       expr.Expr // its own WHERE, over the table's row
	// shown is its own WHERE holding a subquery (viewShown); shownErr
	// the error of binding it for an INSERT, which needs it only for a
	// check option.
	shown    plan.Node
	shownErr error
}

// eventWords are the verb of PostgreSQL's messages for event op, its
// gerund and the event's name.
func eventWords(op int16) (verb, what, event string) {
	switch op {
	case TriggerUpdate:
		return "update", "updating", "UPDATE"
	case TriggerDelete:
		return "delete from", "deleting from", "DELETE"
	}
	return "insert into", "inserting into", "INSERT"
}

// notAutoUpdatable is PostgreSQL's error for a statement of event op on
// view name, which it would not update through for the reason detail.
func notAutoUpdatable(op int16, name, detail string) *pgerr.Error {
	verb, what, event := eventWords(op)
	// 55000: object_not_in_prerequisite_state, PostgreSQL's code.
	return pgerr.New("55000", "cannot %s view %q", verb, name).
		WithDetail("%s", detail).
		WithHint("To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.", what, event, event)
}

// autoView resolves view rel, automatically updatable (notUpdatable is
// ""), to its table for a statement of event op.
func (b *binder) autoView(rel *Relation, op int16, loc int32) (*AutoView, error) {
	av, levels, err := b.resolveView(rel, op, loc, 0)
	if err != nil {
		return nil, err
	}
	av.View, av.Read = rel.Name, b.autoReads
	// A view's check applies when it has a check option or a view above
	// it has CASCADED; PostgreSQL checks the innermost first.
	cascade := false
	for _, l := range levels {
		checked := cascade || l.check != ""
		if checked && l.shownErr != nil {
			return nil, l.shownErr
		}
		if checked && (l.where != nil || l.shown != nil) {
			av.Checks = append(av.Checks, ViewCheck{View: l.name, Pred: l.where, Shown: l.shown})
		}
		if l.check == "cascaded" {
			cascade = true
		}
	}
	slices.Reverse(av.Checks)
	return av, nil
}

func (b *binder) resolveView(rel *Relation, op int16, loc int32, depth int) (*AutoView, []viewLevel, error) {
	if depth > 64 {
		return nil, nil, pgerr.New("54001", "views nested too deeply under view %q", rel.Name)
	}
	sel := rel.Query.Node.GetSelectStmt()
	rv := sel.FromClause[0].GetRangeVar()
	cat := b.cat
	if tv, ok := cat.(TargetViewReader); ok {
		cat = tv.InTargetView(rel)
	} else if vr, ok := cat.(ViewReader); ok && !rel.SecurityInvoker {
		cat = vr.InView()
	}
	sub := &binder{cat: cat, stmt: rel.Query, stmtClock: b.stmtClock, rows: b.rowCounts(), rlsOpen: b.rlsOpen}
	base, ok := sub.lookupRelation(rv.Relname)
	if !ok {
		return nil, nil, b.stmt.errf(loc, pgerr.UndefinedTable, "relation %q does not exist (in view %q)", rv.Relname, rel.Name)
	}
	alias := sub.refName(rv.Relname)
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
	}
	var inner *AutoView
	var levels []viewLevel
	var inherit []InheritMember
	var instead plan.Node // base's rows, when its triggers do op
	switch {
	case base.Kind == KindTable && !base.System:

		if base.Security != nil && rv.Inh && len(base.Inherit) > 0 && op != TriggerInsert {
			return nil, nil, b.refuse(loc, "changing table %q with row-level security and inheritance children through view %q is not supported", base.Name, rel.Name).
				WithHint("change the table")
		}
		if rv.Inh && op != TriggerInsert {
			// PostgreSQL's UPDATE and DELETE reach the children too.
			inherit = base.Inherit
		}
	case base.Kind == KindView:
		var events int16
		if tc, ok := b.cat.(TriggerCatalog); ok {
			events = tc.InsteadEvents(base.Name)
		}
		if events&op != 0 {
			var err error
			if instead, err = sub.insteadRows(rv); err != nil {
				return nil, nil, err
			}
			break
		}
		if d := notUpdatable(base); d != "" {
			return nil, nil, notAutoUpdatable(op, base.Name, d)
		}
		var err error
		if inner, levels, err = b.resolveView(base, op, loc, depth+1); err != nil {
			return nil, nil, err
		}
	default:
		return nil, nil, notAutoUpdatable(op, rel.Name, "Views that do not select from a single table or view are not automatically updatable.")
	}
	sc := rowScope(alias, relRowType(base), base.Cols)
	secured := inner == nil && base.Security != nil // as the view reads it
	baseName := base.Name                           // a partition's own, which PostgreSQL checks
	var part *expr.PartitionOf
	if base.Partition != nil {
		if secured {
			return nil, nil, b.refuse(loc, "changing partition %q with row-level security through view %q is not supported", base.Name, rel.Name).
				WithHint("change the partition")
		}
		// A partition's rows are its root's that its constraint accepts,
		// in the same columns.
		root, ok := b.cat.Relation(base.Partition.Root)
		if !ok {
			return nil, nil, b.stmt.errf(loc, pgerr.UndefinedTable, "relation %q does not exist", base.Partition.Root)
		}
		part, base = base.Partition.Filter, root
	}
	var exprs []expr.Expr
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		if cr := rt.GetVal().GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			for i, c := range base.Cols {
				exprs = append(exprs, &expr.Col{Idx: i, T: c.Type, Name: c.Name})
			}
			continue
		}
		if anySubLink(rt.GetVal()) {
			return nil, nil, b.refuse(loc, "changing view %q, whose column is computed by a subquery, is not supported", rel.Name)
		}
		e, err := sub.bindExpr(sc, rt.GetVal())
		if err != nil {
			return nil, nil, err
		}
		exprs = append(exprs, e)
	}
	if len(exprs) != len(rel.Cols) {
		return nil, nil, b.refuse(loc, "changing view %q, whose table's columns changed since it was made, is not supported", rel.Name)
	}
	var where expr.Expr
	var shown plan.Node
	var shownErr error
	var log *RefLog // what a WHERE holding a subquery reads
	if w := sel.WhereClause; w != nil && anySubLink(w) {
		table := base
		if inner != nil {
			table = inner.base
		}
		log = &RefLog{}
		ws := *sub
		ws.stmt = withRefs(sub.stmt, log)
		shown, shownErr = ws.viewShown(alias, baseName, base, table, inner, w)
		// An INSERT reads no row of the view: its WHERE matters only to a
		// check option (autoView).
		if shownErr != nil && op != TriggerInsert {
			return nil, nil, shownErr
		}
	} else if w != nil {
		e, err := sub.bindExpr(sc, w)
		if err != nil {
			return nil, nil, err
		}
		if where, err = sub.toBool(e, "WHERE", -1); err != nil {
			return nil, nil, err
		}
	}
	av := &AutoView{Table: base.Name, base: base, Cols: make([]int, len(exprs)), Exprs: exprs, Partition: part, Inherit: inherit,
		Where: plan.AndOf(append(plan.Conjuncts(partWhere(part)), plan.Conjuncts(where)...)), Instead: instead}
	av.Levels = []AutoLevel{autoLevel(rel, baseName, exprs, where, log)}
	if inner != nil {
		av.Levels = append(av.Levels, inner.Levels...)
		av.Shown, av.RowChecks = append(av.Shown, inner.Shown...), inner.RowChecks
	} else if secured {
		if err := sub.autoSecurity(av, base, alias, op, b.autoReads); err != nil {
			return nil, nil, err
		}
	}
	if shown != nil {
		av.Shown = append(av.Shown, shown)
	}
	for i, e := range exprs {
		av.Cols[i] = -1
		if c, ok := baseColumn(e); ok {
			av.Cols[i] = c.Idx
		}
	}
	if inner != nil {
		for i, e := range exprs {
			av.Exprs[i] = inner.OverTable(e, 0)
			if av.Cols[i] >= 0 {
				av.Cols[i] = inner.Cols[av.Cols[i]]
			}
		}
		where = inner.OverTable(where, 0)
		av.Table, av.base, av.Partition, av.Inherit, av.Instead = inner.Table, inner.base, inner.Partition, inner.Inherit, inner.Instead
		av.innerDefaults, av.innerComputed = slices.Clone(inner.innerDefaults), inner.innerComputed
		for ii, d := range base.Defaults { // base is the view under rel
			switch j := inner.Cols[ii]; {
			case d == nil:
			case j < 0:
				av.innerComputed = [2]string{base.Cols[ii].Name, base.Name}
			default:
				if av.innerDefaults == nil {
					av.innerDefaults = make([]expr.Expr, len(inner.base.Cols))
				}
				av.innerDefaults[j] = d
			}
		}
		av.Where = plan.AndOf(append(plan.Conjuncts(inner.Where), plan.Conjuncts(where)...))
	}
	return av, append([]viewLevel{{name: rel.Name, check: rel.CheckOption, where: where, shown: shown, shownErr: shownErr}}, levels...), nil
}

// autoTarget returns the resolution of view rel for a statement of event
// op when PostgreSQL would change its table: it has no INSTEAD OF
// trigger for op and is automatically updatable; nil otherwise.
func (b *binder) autoTarget(rel *Relation, op int16, loc int32) (*AutoView, error) {
	if tc, ok := b.cat.(TriggerCatalog); ok && tc.InsteadEvents(rel.Name)&op != 0 {
		return nil, nil
	}
	if notUpdatable(rel) != "" {
		return nil, nil
	}
	return b.autoView(rel, op, loc)
}

// autoInsertRel is view rel as an INSERT's target on its table: each
// column that is the table's takes its default and identity.
func autoInsertRel(rel *Relation, av *AutoView) *Relation {
	out := *rel
	out.Defaults = make([]expr.Expr, len(rel.Cols))
	out.Identity, out.Generated = nil, nil
	av.viewDefaults = make([]bool, len(rel.Cols))
	for i, j := range av.Cols {
		if i < len(rel.Defaults) && rel.Defaults[i] != nil {
			out.Defaults[i] = rel.Defaults[i] // the view's own
			av.viewDefaults[i] = true
		}
		if j < 0 {
			continue
		}
		if j < len(av.base.Defaults) && out.Defaults[i] == nil {
			out.Defaults[i] = av.base.Defaults[j]
		}
		if j < len(av.base.Identity) && av.base.Identity[j] != 0 {
			if out.Identity == nil {
				out.Identity = make([]byte, len(rel.Cols))
			}
			out.Identity[i] = av.base.Identity[j]
		}
		if j < len(av.base.Generated) && av.base.Generated[j] {
			if out.Generated == nil {
				out.Generated = make([]bool, len(rel.Cols))
			}
			out.Generated[i] = true
		}
	}
	return &out
}

// autoInsert makes ins, bound on view rel with the columns given (in,
// the first given of in.targets), an INSERT into the view's table.
func (b *binder) autoInsert(out *Insert, in *insertInto, given int, av *AutoView, rel *Relation) (*Insert, error) {
	base := av.base
	n := len(base.Cols)
	from := make([]int, n) // the view column each table column takes, or -1
	for j := range from {
		from[j] = -1
	}
	for _, i := range in.targets[:min(given, len(in.targets))] {
		j := av.Cols[i]
		if j < 0 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot insert into column %q of view %q", rel.Cols[i].Name, rel.Name).
				WithDetail("View columns that are not columns of their base relation are not updatable.")
		}
		if from[j] >= 0 && from[j] != i {
			return nil, pgerr.New(pgerr.SyntaxError, "multiple assignments to same column %q", base.Cols[j].Name)
		}
		from[j] = i
	}
	// A column not given takes the view's default, when it has one.
	for i, j := range av.Cols {
		switch {
		case i >= len(av.viewDefaults) || !av.viewDefaults[i] || slices.Contains(in.targets[:min(given, len(in.targets))], i):
		case j < 0:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot insert into column %q of view %q", rel.Cols[i].Name, rel.Name).
				WithDetail("View columns that are not columns of their base relation are not updatable.")
		case from[j] < 0:
			from[j] = i
		}
	}
	if c := av.innerComputed; c[0] != "" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot insert into column %q of view %q", c[0], c[1]).
			WithDetail("View columns that are not columns of their base relation are not updatable.")
	}
	row := make([]expr.Expr, n)
	av.insertGiven = nil
	for j := range base.Cols {
		if from[j] >= 0 || j < len(av.innerDefaults) && av.innerDefaults[j] != nil {
			av.insertGiven = append(av.insertGiven, j)
		}
	}
	for j, c := range base.Cols {
		switch {
		case from[j] >= 0:
			row[j] = &expr.Col{Idx: from[j], T: rel.Cols[from[j]].Type, Name: rel.Cols[from[j]].Name}
		case j < len(av.innerDefaults) && av.innerDefaults[j] != nil:
			row[j] = expr.WithClock(av.innerDefaults[j], b.stmtClock)
		case j < len(base.Defaults) && base.Defaults[j] != nil:
			row[j] = expr.WithClock(base.Defaults[j], b.stmtClock)
		default:
			row[j] = &expr.Const{V: value.Null, T: c.Type}
		}
	}
	out.Source = &plan.Project{Input: out.Source, Exprs: row, Cols: base.Cols}
	if av.Instead != nil && out.OnConflict != nil {
		return nil, b.refuse(-1, "ON CONFLICT through view %q over view %q with INSTEAD OF triggers is not supported", rel.Name, av.Table)
	}
	if av.RowChecks != nil {
		if out.OnConflict != nil {
			return nil, b.refuse(-1, "ON CONFLICT through view %q over table %q with row-level security is not supported", rel.Name, av.Table).
				WithHint("change the table")
		}
		out.Checks = av.RowChecks // over the table's row, as the source's now
	}
	if oc := out.OnConflict; oc != nil {
		if oc.Rows != nil {
			return nil, b.refuse(-1, "ON CONFLICT DO UPDATE with a subquery on view %q is not supported", rel.Name)
		}
		if oc.Constraint != "" || oc.ArbiterWhere != nil || slices.Contains(oc.Arbiter, -1) {
			return nil, b.refuse(-1, "ON CONFLICT ON CONSTRAINT, on expressions or with WHERE through view %q is not supported", rel.Name)
		}
		for i, a := range oc.Arbiter {
			if av.Cols[a] < 0 {
				return nil, pgerr.New(pgerr.InvalidColumnRef, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
			}
			oc.Arbiter[i] = av.Cols[a]
		}
		set := make([]Assign, len(oc.Set))
		for i, a := range oc.Set {
			if av.Cols[a.Col] < 0 {
				// PostgreSQL's word, for the SET list of ON CONFLICT too.
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot insert into column %q of view %q", rel.Cols[a.Col].Name, rel.Name).
					WithDetail("View columns that are not columns of their base relation are not updatable.")
			}
			set[i] = Assign{Col: av.Cols[a.Col], Expr: av.overPair(a.Expr, n)}
		}
		oc.Set, oc.Where = set, av.overPair(oc.Where, n)
		cols, err := autoSetCols(av, rel, oc.SetCols)
		if err != nil {
			return nil, err
		}
		oc.SetCols = cols
	}
	// A RETURNING plan (a subquery) reads the view's rows, which the
	// engine computes from the table's (AutoView.ViewRow); expressions
	// read the table's row.
	if out.RetPlan == nil {
		for i, e := range out.Returning {
			out.Returning[i] = av.OverTable(e, n)
		}
	}
	out.Table, out.View, out.Auto, out.Partition = av.Table, nil, av, av.Partition
	return out, nil
}

func cannotUpdate(rel *Relation, i int) error {
	return pgerr.New(pgerr.FeatureNotSupported, "cannot update column %q of view %q", rel.Cols[i].Name, rel.Name).
		WithDetail("View columns that are not columns of their base relation are not updatable.")
}

// autoSetCols are the table's columns that the view's columns set
// assigns, refused when one is computed or two are the same column.
func autoSetCols(av *AutoView, rel *Relation, set []int) ([]int, error) {
	out := make([]int, 0, len(set))
	for _, i := range set {
		j := av.Cols[i]
		if j < 0 {
			return nil, cannotUpdate(rel, i)
		}
		if slices.Contains(out, j) {
			return nil, pgerr.New(pgerr.SyntaxError, "multiple assignments to same column %q", av.base.Cols[j].Name)
		}
		out = append(out, j)
	}
	return out, nil
}

// insertGiven is how many of an INSERT's target columns it gives values
// for: all listed, or as many as its rows have.
func insertGiven(ins *pg_query.InsertStmt, in *insertInto, src plan.Node) int {
	sel := ins.SelectStmt.GetSelectStmt()
	switch {
	case sel == nil:
		return 0
	case len(in.list) > 0:
		return len(in.targets)
	case len(sel.ValuesLists) > 0 && sel.Op == pg_query.SetOperation_SETOP_NONE:
		return len(sel.ValuesLists[0].GetList().GetItems())
	}
	if p, ok := src.(*plan.Project); ok {
		return len(p.Input.Columns())
	}
	return len(in.targets)
}

// viewCheckOption reads CREATE VIEW's WITH [LOCAL | CASCADED] CHECK
// OPTION, or its WITH (check_option = …), into v: PostgreSQL accepts it
// on an automatically updatable view only.
func (b *binder) viewCheckOption(vs *pg_query.ViewStmt, v *CreateView) error {
	switch vs.WithCheckOption {
	case pg_query.ViewCheckOption_LOCAL_CHECK_OPTION:
		v.CheckOption = "local"
	case pg_query.ViewCheckOption_CASCADED_CHECK_OPTION:
		v.CheckOption = "cascaded"
	}
	for _, n := range vs.Options {
		d := n.GetDefElem()
		if d == nil || !strings.EqualFold(d.Defname, "check_option") {
			continue
		}
		s := ""
		switch {
		case d.Arg == nil:
		case d.Arg.GetString_() != nil:
			s = d.Arg.GetString_().Sval
		case d.Arg.GetTypeName() != nil:
			s = opName(d.Arg.GetTypeName().Names)
		}
		switch strings.ToLower(s) {
		case "local", "cascaded":
			v.CheckOption = strings.ToLower(s)
		default:
			return pgerr.New(pgerr.InvalidParameter, "invalid value for enum option \"check_option\": %s", s).
				WithDetail("Valid values are \"local\" and \"cascaded\".")
		}
	}
	if v.CheckOption == "" || v.Query == nil {
		return nil
	}
	d := notUpdatable(&Relation{Query: v.Query})
	if d == "" && !slices.ContainsFunc(v.Query.Node.GetSelectStmt().TargetList, func(n *pg_query.Node) bool {
		return n.GetResTarget().GetVal().GetColumnRef() != nil
	}) {
		d = "Views that have no updatable columns are not automatically updatable."
	}
	if d != "" {
		return pgerr.New(pgerr.FeatureNotSupported, "WITH CHECK OPTION is supported only on automatically updatable views").WithHint("%s", d)
	}
	return nil
}

// trimCheckOption returns a view's query text without the WITH [LOCAL |
// CASCADED] CHECK OPTION that ends CREATE VIEW, which is not the
// query's.
func trimCheckOption(text string) string {
	res, err := pg_query.Scan(text)
	if err != nil {
		return text
	}
	toks := res.Tokens
	word := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return strings.ToLower(text[toks[i].Start:toks[i].End])
	}
	n := len(toks)
	if word(n-1) != "option" || word(n-2) != "check" {
		return text
	}
	w := n - 3
	if x := word(w); x == "local" || x == "cascaded" {
		w--
	}
	if word(w) != "with" {
		return text
	}
	return strings.TrimSpace(text[:toks[w].Start])
}

// ViewUpdatable reports how PostgreSQL would change view name of cat
// (pg_relation_is_updatable, information_schema.views): the events
// (TriggerInsert, TriggerUpdate, TriggerDelete) it does by changing the
// view's table, with, when triggers is set, those its INSTEAD OF
// triggers do; and, per column of the view, whether it is updatable
// (pg_column_is_updatable: UPDATE can assign it and DELETE is possible).
func ViewUpdatable(cat Catalog, name string, triggers bool) (events int16, cols []bool) {
	rel, ok := cat.Relation(name)
	if !ok || rel.Kind != KindView {
		return 0, nil
	}
	cols = make([]bool, len(rel.Cols))
	var trig int16
	if triggers {
		if tc, ok := cat.(TriggerCatalog); ok {
			trig = tc.InsteadEvents(name)
		}
	}
	var ins, upd, del *AutoView
	if notUpdatable(rel) == "" {
		b := &binder{cat: cat, stmt: &Stmt{}}
		resolve := func(op int16) *AutoView {
			av, err := b.autoView(rel, op, -1)
			if err != nil {
				return nil
			}
			return av
		}
		ins, upd, del = resolve(TriggerInsert), resolve(TriggerUpdate), resolve(TriggerDelete)
	}
	// INSERT and UPDATE need a column they can assign.
	assigns := func(av *AutoView) bool {
		return av != nil && slices.ContainsFunc(av.Cols, func(j int) bool { return j >= 0 })
	}
	events = trig
	if assigns(ins) {
		events |= TriggerInsert
	}
	if assigns(upd) {
		events |= TriggerUpdate
	}
	if del != nil {
		events |= TriggerDelete
	}
	for i := range cols {
		updates := trig&TriggerUpdate != 0 || upd != nil && upd.Cols[i] >= 0
		cols[i] = updates && events&TriggerDelete != 0
	}
	return events, cols
}

// copyToView accepts COPY … FROM into view rel when it has an INSTEAD OF
// INSERT trigger, which takes each row, as PostgreSQL does; otherwise
// PostgreSQL's error (COPY does not change a view's table).
func (b *binder) copyToView(rv *pg_query.RangeVar, rel *Relation) error {
	if tc, ok := b.cat.(TriggerCatalog); ok && tc.InsteadEvents(rel.Name)&TriggerInsert != 0 {
		return nil
	}
	return b.stmt.errf(-1, pgerr.WrongObjectType, "cannot copy to view %q", rel.Name).
		WithHint("To enable copying to a view, provide an INSTEAD OF INSERT trigger.")
}

// AlterViewDefault is ALTER VIEW v ALTER [COLUMN] c {SET DEFAULT e | DROP
// DEFAULT}, …: PostgreSQL's defaults of a view's columns, which an INSERT
// into the view gives the columns it does not (before its table's).
type AlterViewDefault struct {
	View     string
	Cols     []int
	Defaults []expr.Expr // per column; nil for DROP DEFAULT
	Texts    []string    // per column, the default's text; "" for DROP
}

func (*AlterViewDefault) bound() {}

// bindAlterViewDefault binds ALTER VIEW when its actions are all SET or
// DROP DEFAULT; ok is false for another ALTER VIEW.
func (b *binder) bindAlterViewDefault(as *pg_query.AlterTableStmt) (out Bound, ok bool, err error) {
	if as.Objtype != pg_query.ObjectType_OBJECT_VIEW || len(as.Cmds) == 0 {
		return nil, false, nil
	}
	for _, n := range as.Cmds {
		if n.GetAlterTableCmd().GetSubtype() != pg_query.AlterTableType_AT_ColumnDefault {
			return nil, false, nil
		}
	}
	rel, found := b.cat.Relation(as.Relation.Relname)
	if !found || rel.Kind != KindView {
		if found {
			return nil, true, b.stmt.errf(as.Relation.Location, pgerr.WrongObjectType, "%q is not a view", as.Relation.Relname)
		}
		return nil, true, b.stmt.errf(as.Relation.Location, pgerr.UndefinedTable, "relation %q does not exist", as.Relation.Relname)
	}
	av := &AlterViewDefault{View: rel.Name}
	for _, n := range as.Cmds {
		cmd := n.GetAlterTableCmd()
		i := colIndex(rel.Cols, cmd.Name)
		if i < 0 {
			return nil, true, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, rel.Name)
		}
		var d expr.Expr
		text := ""
		if cmd.Def != nil {
			var err error
			if text, err = deparseExpr(cmd.Def); err != nil {
				return nil, true, err
			}
			if anySubLink(cmd.Def) {
				return nil, true, b.stmt.errf(nodeLoc(cmd.Def, -1), pgerr.FeatureNotSupported, "cannot use subquery in DEFAULT expression")
			}
			e, err := b.bindExpr(&scope{}, cmd.Def)
			if err != nil {
				return nil, true, err
			}
			if d, err = b.assignCast(e, rel.Cols[i].Type, rel.Cols[i].Name, nodeLoc(cmd.Def, -1)); err != nil {
				return nil, true, err
			}
		}
		av.Cols, av.Defaults, av.Texts = append(av.Cols, i), append(av.Defaults, d), append(av.Texts, text)
	}
	return av, true, nil
}

// baseColumn is the base relation's column a view column reads, ok false
// when it computes something: a plain reference, or one under the
// implicit collation the column's reference applies (an explicit COLLATE
// makes an expression, not updatable, as in PostgreSQL).
func baseColumn(e expr.Expr) (*expr.Col, bool) {
	if c, ok := e.(*expr.Collate); ok && c.Implicit {
		e = c.E
	}
	c, ok := e.(*expr.Col)
	return c, ok
}
