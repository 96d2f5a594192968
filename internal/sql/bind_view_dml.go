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
// statement's event is refused here, as PostgreSQL's rewriter refuses it:
// 55000 with PostgreSQL's hint, or 0A000 for a view PostgreSQL would
// update through to its table (automatically updatable views are not
// supported).

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
// finds a conflict, and any other ON CONFLICT is 42P10.
func (b *binder) viewTarget(rv *pg_query.RangeVar, rel *Relation, op int16, oc *pg_query.OnConflictClause) (plan.Node, error) {
	var events int16
	if tc, ok := b.cat.(TriggerCatalog); ok {
		events = tc.InsteadEvents(rel.Name)
	}
	if events&op == 0 {
		verb, what, event := "insert into", "inserting into", "INSERT"
		switch op {
		case TriggerUpdate:
			verb, what, event = "update", "updating", "UPDATE"
		case TriggerDelete:
			verb, what, event = "delete from", "deleting from", "DELETE"
		}
		if autoUpdatable(rel) {
			return nil, b.refuse(rv.Location, "%s view %q without an INSTEAD OF %s trigger is not supported (automatically updatable views)", verb, rel.Name, event).
				WithHint("change the view's table, or provide an INSTEAD OF %s trigger", event)
		}
		// 55000: object_not_in_prerequisite_state, PostgreSQL's code.
		return nil, pgerr.New("55000", "cannot %s view %q", verb, rel.Name).
			WithDetail("Views that do not select from a single table or view are not automatically updatable.").
			WithHint("To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.", what, event, event)
	}
	if oc != nil && (oc.Infer != nil || oc.Action != pg_query.OnConflictAction_ONCONFLICT_NOTHING) {
		return nil, pgerr.New(pgerr.InvalidColumnRef, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
	}
	p, _, err := b.bindRangeVar(&pg_query.RangeVar{Relname: rv.Relname, Schemaname: rv.Schemaname, Inh: true, Relpersistence: "p", Location: rv.Location})
	return p, err
}

// autoUpdatable reports whether PostgreSQL would change the view's table
// through the view: its query reads one relation, without DISTINCT,
// GROUP BY, HAVING, LIMIT, OFFSET, WITH, set operations, aggregates or
// window functions.
func autoUpdatable(rel *Relation) bool {
	if rel.Query == nil || rel.Query.Node == nil {
		return false
	}
	sel := rel.Query.Node.GetSelectStmt()
	if sel == nil || sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.ValuesLists) > 0 || sel.WithClause != nil ||
		len(sel.DistinctClause) > 0 || len(sel.GroupClause) > 0 || sel.HavingClause != nil ||
		sel.LimitCount != nil || sel.LimitOffset != nil || len(sel.FromClause) != 1 || sel.FromClause[0].GetRangeVar() == nil {
		return false
	}
	for _, t := range sel.TargetList {
		if v := t.GetResTarget().GetVal(); hasAggregate(v) || hasWindowCall(v) {
			return false
		}
	}
	return true
}
