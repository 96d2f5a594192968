package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// INSERT, UPDATE and DELETE on a plain view are done by the view's
// INSTEAD OF triggers, as PostgreSQL does them. The binder binds them as
// on a table whose columns are the view's, and adds the view's rows
// (View), which an UPDATE's or a DELETE's Rows plan reads as its
// plan.Target's rows. A view without an INSTEAD OF trigger for the
// statement's event changes its table when PostgreSQL would
// (bind_view_auto.go), and is refused otherwise, as PostgreSQL's
// rewriter refuses it: 55000 with PostgreSQL's detail and hint.

// TriggerCatalog is a Catalog that knows the views' INSTEAD OF triggers.
type TriggerCatalog interface {
	// InsteadEvents are the events (TriggerInsert, TriggerUpdate,
	// TriggerDelete) for which the view has an enabled INSTEAD OF
	// trigger.
	InsteadEvents(view string) int16
}

// viewTarget binds the rows of the view rel that rv names, the target of
// a DML statement of event op. A view has no unique index: as in
// PostgreSQL, ON CONFLICT DO NOTHING without a conflict target never
// finds a conflict, and any other ON CONFLICT is 42P10. Without an
// INSTEAD OF trigger for op, an automatically updatable view changes its
// table (bind_view_auto.go): its resolution is returned too.
func (b *binder) viewTarget(rv *pg_query.RangeVar, rel *Relation, op int16, oc *pg_query.OnConflictClause) (plan.Node, *AutoView, error) {
	var events int16
	if tc, ok := b.cat.(TriggerCatalog); ok {
		events = tc.InsteadEvents(rel.Name)
	}
	var auto *AutoView
	if events&op == 0 {
		if detail := notUpdatable(rel); detail != "" {
			return nil, nil, notAutoUpdatable(op, rel.Name, detail)
		}
		var err error
		if auto, err = b.autoView(rel, op, rv.Location); err != nil {
			return nil, nil, err
		}
	} else if oc != nil && (oc.Infer != nil || oc.Action != pg_query.OnConflictAction_ONCONFLICT_NOTHING) {
		return nil, nil, pgerr.New(pgerr.InvalidColumnRef, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
	}
	if tb, ok := b.cat.(TargetBinder); ok && auto != nil {
		tb.BindsTarget(true)
		defer tb.BindsTarget(false)
	}
	p, _, err := b.bindRangeVar(&pg_query.RangeVar{Relname: rv.Relname, Schemaname: rv.Schemaname, Inh: true, Relpersistence: "p", Location: rv.Location})
	return p, auto, err
}

// notUpdatable is why PostgreSQL would not change the view's table
// through the view, in its words and the order of its checks; "" when it
// would (the view reads one relation, without DISTINCT, GROUP BY,
// HAVING, set operations, WITH, LIMIT, OFFSET, aggregates or window
// functions).
func notUpdatable(rel *Relation) string {
	const single = "Views that do not select from a single table or view are not automatically updatable."
	if rel.Query == nil || rel.Query.Node == nil || rel.Query.Node.GetSelectStmt() == nil {
		return single
	}
	sel := rel.Query.Node.GetSelectStmt()
	has := func(f func(*pg_query.Node) bool) bool {
		for _, t := range sel.TargetList {
			if f(t.GetResTarget().GetVal()) {
				return true
			}
		}
		return false
	}
	switch {
	case len(sel.DistinctClause) > 0:
		return "Views containing DISTINCT are not automatically updatable."
	case len(sel.GroupClause) > 0:
		return "Views containing GROUP BY are not automatically updatable."
	case sel.HavingClause != nil:
		return "Views containing HAVING are not automatically updatable."
	case sel.Op != pg_query.SetOperation_SETOP_NONE:
		return "Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable."
	case sel.WithClause != nil:
		return "Views containing WITH are not automatically updatable."
	case sel.LimitCount != nil || sel.LimitOffset != nil:
		return "Views containing LIMIT or OFFSET are not automatically updatable."
	case has(hasAggregate):
		return "Views that return aggregate functions are not automatically updatable."
	case has(hasWindowCall):
		return "Views that return window functions are not automatically updatable."
	case has(hasSRF):
		return "Views that return set-returning functions are not automatically updatable."
	case len(sel.ValuesLists) == 0 && len(sel.FromClause) == 1 && sel.FromClause[0].GetRangeTableSample().GetRelation().GetRangeVar() != nil:
		return "Views containing TABLESAMPLE are not automatically updatable."
	case len(sel.ValuesLists) > 0 || len(sel.FromClause) != 1 || sel.FromClause[0].GetRangeVar() == nil:
		return single
	}
	return ""
}
