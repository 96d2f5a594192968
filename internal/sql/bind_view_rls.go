package sql

import (
	"github.com/deltaview/deltaview/internal/plan"
)

// A statement through an automatically updatable view WITH
// (security_invoker) over a table with row-level security for the
// statement's role meets the table's policies, as PostgreSQL's rewritten
// statement on the table does: an UPDATE or a DELETE sees only the rows
// the command's USING expressions accept (and the SELECT policies', when
// the statement reads the view's rows), and the rows an INSERT or UPDATE
// writes must pass the WITH CHECK expressions (RowChecks), before the
// table's constraints and the view's check options. A view that reads as
// its owner (a superuser here, who bypasses row security) meets none, as
// in PostgreSQL.

// autoSecurity adds to av, resolved over table base (read under alias),
// the policies of base for a statement of event op; reads says that the
// statement reads the view's rows.
func (sub *binder) autoSecurity(av *AutoView, base *Relation, alias string, op int16, reads bool) error {
	cmd := map[int16]byte{TriggerInsert: PolicyInsert, TriggerUpdate: PolicyUpdate, TriggerDelete: PolicyDelete}[op]
	if op != TriggerInsert {
		cond, err := sub.securityWhere(base, alias, cmd, reads, nil)
		if err != nil {
			return err
		}
		if anySubLink(cond) {
			p, err := sub.viewShown(alias, base.Name, base, base, nil, cond)
			if err != nil {
				return err
			}
			av.Shown = append(av.Shown, p)
		} else {
			sc := rowScope(alias, relRowType(base), base.Cols)
			e, err := sub.bindExpr(sc, cond)
			if err != nil {
				return err
			}
			if e, err = sub.toBool(e, "WHERE", -1); err != nil {
				return err
			}
			// The policies first, as PostgreSQL puts them before the
			// view's own conditions.
			av.Where = plan.AndOf(append(plan.Conjuncts(e), plan.Conjuncts(av.Where)...))
		}
	}
	if op == TriggerDelete {
		return nil
	}
	checks, err := sub.securityRowChecks(base, cmd, reads)
	if err != nil {
		return err
	}
	av.RowChecks = checks
	return nil
}
