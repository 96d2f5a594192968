package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// A statement through an automatically updatable view over a view whose
// INSTEAD OF triggers do its event (sql.AutoView.Instead) runs those
// triggers, as PostgreSQL's rewritten statement on that view does: the
// rows of the view under it, read once as the statement starts and
// numbered, stand for a table's; each row the statement reaches is given
// to the triggers (OLD, and NEW with the assigned columns), the check
// options read the row they return, and RETURNING the statement's view
// computed from it. The statement triggers of the view under it fire.
// Nothing is kept. The statements are those of a view's own INSTEAD OF
// triggers (trigger_view.go), given the automatically updatable view.

// insteadRows reads the rows of av's view under it, each followed by its
// number.
func (e *Engine) insteadRows(av *sql.AutoView) ([]value.Row, error) {
	rows, err := exec.Run(av.Instead, e.queryBudget(e.dmlSource()))
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		rows[i] = append(slices.Clone(r), value.NewInt(value.Int8, int64(i)))
	}
	return rows, nil
}

// insteadTargets supplies the rows of vrows (insteadRows) that av's
// conditions accept, as the statement's view's rows, each followed by
// its number; shown are the numbers of the rows that the views between
// whose WHERE holds a subquery show (nil for all).
func insteadTargets(av *sql.AutoView, vrows []value.Row, shown map[uint64]bool) exec.Targets {
	n := len(av.Instead.Columns())
	return exec.Targets{Rows: func(pred expr.Expr, fn func(value.Row) error) error {
		where := plan.AndOf(append(plan.Conjuncts(av.Where), plan.Conjuncts(av.OverTable(pred, n))...))
		for _, r := range vrows {
			if shown != nil && !shown[uint64(r[n].Int())] {
				continue
			}
			vr, err := av.ViewRow(r[:n])
			if err != nil {
				return err
			}
			ok, err := accepts(where, r)
			if err != nil {
				return err
			}
			if ok {
				if err := fn(append(vr, r[n])); err != nil {
					return err
				}
			}
		}
		return nil
	}}
}

// insteadPlanned runs the Rows plan of an UPDATE or DELETE through av
// over the rows of the view under it: those rows, and the plan's rows by
// row number.
func (e *Engine) insteadPlanned(av *sql.AutoView, rows plan.Node, mark int) ([]value.Row, []planned, error) {
	vrows, err := e.insteadRows(av)
	if err != nil {
		return nil, nil, err
	}
	var shown map[uint64]bool
	for _, p := range av.Shown {
		out, err := e.runTargets(p, mark, given(vrows))
		if err != nil {
			return nil, nil, err
		}
		ids := make(map[uint64]bool, len(out))
		for _, r := range out {
			if id := uint64(r[0].Int()); shown == nil || shown[id] {
				ids[id] = true
			}
		}
		shown = ids
	}
	ps, err := e.plannedOver(rows, mark, insteadTargets(av, vrows, shown))
	return vrows, ps, err
}

// execInsteadUpdate runs UPDATE through av over a view's INSTEAD OF
// UPDATE triggers.
func (e *Engine) execInsteadUpdate(up *sql.Update) (Result, error) {
	return e.insteadUpdate(up, up.Auto.Table, up.Auto, func(mark int) ([]value.Row, []planned, error) {
		return e.insteadPlanned(up.Auto, up.Rows, mark)
	})
}

// execInsteadDelete runs DELETE through av over a view's INSTEAD OF
// DELETE triggers.
func (e *Engine) execInsteadDelete(del *sql.Delete) (Result, error) {
	return e.insteadDelete(del, del.Auto.Table, func(mark int) ([]value.Row, []planned, error) {
		return e.insteadPlanned(del.Auto, del.Rows, mark)
	})
}

// execInsteadInsert runs INSERT through av over a view's INSTEAD OF
// INSERT triggers: each row proposed, in the columns of the view under
// it, is given to them.
func (e *Engine) execInsteadInsert(ins *sql.Insert) (Result, error) {
	return e.insteadInsert(ins, ins.Auto.Table, ins.Auto)
}
