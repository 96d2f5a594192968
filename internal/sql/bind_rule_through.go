package sql

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// A statement through an automatically updatable view over a table with
// rules for its event is, in PostgreSQL, rewritten into one on the
// table, which the table's rules then rewrite. Here the statement finds
// its rows through the view as any statement does (the view's
// conditions, its own, its subqueries), and the change it makes becomes
// one statement on the table, which goes through the table's rules
// (RuleThrough): an INSERT of the rows' values for the columns the
// statement gives (the table's defaults for the others, as the rules
// see them in PostgreSQL), as literals (INSERT INTO t (a, b) VALUES …);
// an UPDATE or a DELETE of the rows named by ctid, with the new values
// of an UPDATE as literals (UPDATE t SET a = n.a FROM (VALUES …) n WHERE
// t.ctid = n.ct). The rules thus see NEW and OLD as PostgreSQL's do.
// RETURNING asks the table's statement for its rows (RETURNING t.*:
// the rows written, or those of an INSTEAD rule's RETURNING, which stand
// for them), and computes the view's RETURNING list over each. ON
// CONFLICT, RETURNING with a subquery, system columns or the columns of
// an UPDATE's FROM list, check options, row-level security on an
// INSERT, views over views with INSTEAD OF triggers, over partitions or
// inheritance parents are refused (0A000).

// RuleThrough is an INSERT, an UPDATE or a DELETE (DML, with Auto)
// through an automatically updatable view over a table with rules for
// its event.
type RuleThrough struct {
	DML   Bound
	Event byte
	// Cols are, for an INSERT, the table's columns it gives, which the
	// rows of its Source hold in order.
	Cols []int
}

func (*RuleThrough) bound() {}

// ruleThrough returns bd as a RuleThrough, or the 0A000 of a shape it
// does not take.
func ruleThrough(bd Bound, av *AutoView, ev byte) (*RuleThrough, error) {
	refuse := func(what string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "%s through view %q on table %q, which has rules ON %s, is not supported", what, av.View, av.Table, RuleEventName(ev)).
			WithHint("give the view an unconditional DO INSTEAD rule, or change the table itself")
	}
	// fromCols reports whether a RETURNING list reads columns after the
	// view's (an UPDATE's FROM list).
	fromCols := func(ret []expr.Expr) bool {
		return slices.ContainsFunc(ret, func(e expr.Expr) bool {
			cols := expr.Columns(e)
			return len(cols) > 0 && cols[len(cols)-1] >= len(av.Cols)
		})
	}
	rt := &RuleThrough{DML: bd, Event: ev}
	switch d := bd.(type) {
	case *Insert:
		switch {
		case d.OnConflict != nil:
			return nil, refuse("INSERT … ON CONFLICT")
		case d.RetPlan != nil || d.RetSystem != nil:
			return nil, refuse("INSERT … RETURNING with a subquery or system columns")
		case av.RowChecks != nil:
			return nil, refuse("INSERT with row-level security")
		}
		p, ok := d.Source.(*plan.Project)
		if !ok {
			return nil, refuse("INSERT")
		}
		// The source gives the columns given alone: the table's
		// defaults are the rules' to compute.
		given := &plan.Project{Input: p.Input}
		for _, j := range av.insertGiven {
			given.Exprs = append(given.Exprs, p.Exprs[j])
			given.Cols = append(given.Cols, p.Cols[j])
		}
		d.Source, rt.Cols = given, av.insertGiven
	case *Update:
		if d.RetPlan != nil || d.RetSystem != nil || fromCols(d.Returning) {
			return nil, refuse("UPDATE … RETURNING with a subquery, system columns or the FROM list's columns")
		}
	case *Delete:
		if d.RetPlan != nil || d.RetSystem != nil || fromCols(d.Returning) {
			return nil, refuse("DELETE … RETURNING with a subquery, system columns or the USING list's columns")
		}
	default:
		return nil, nil
	}
	switch {
	case len(av.Checks) > 0:
		return nil, refuse(RuleEventName(ev) + " with a check option")
	case av.Instead != nil || av.Partition != nil || len(av.Inherit) > 0:
		return nil, refuse(RuleEventName(ev))
	}
	return rt, nil
}
