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
// Nothing is kept.

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
	out, err := e.runTargets(rows, mark, insteadTargets(av, vrows, shown))
	if err != nil {
		return nil, nil, err
	}
	ps := make([]planned, 0, len(out))
	for _, r := range out {
		ps = append(ps, planned{id: uint64(r[0].Int()), rest: r[1:]})
	}
	return vrows, sortPlanned(ps), nil
}

// execInsteadUpdate runs UPDATE through av over a view's INSTEAD OF
// UPDATE triggers.
func (e *Engine) execInsteadUpdate(up *sql.Update) (Result, error) {
	av := up.Auto
	f, err := e.viewFire(av.Table, sql.TriggerUpdate, "update")
	if err != nil {
		return Result{}, err
	}
	for _, i := range up.SetCols {
		f.set = append(f.set, av.Cols[i])
	}
	if err := f.beforeStatement(sql.TriggerUpdate); err != nil {
		return Result{}, err
	}
	mark := len(e.tx.log)
	vrows, ps, err := e.insteadPlanned(av, up.Rows, mark)
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: up.RetCols, HasRows: len(up.Returning) > 0}
	ret := returner{plan: up.RetPlan, exprs: up.Returning}
	n, k := len(f.cols), len(av.Cols)
	count := 0
	for _, p := range ps {
		old := vrows[p.id][:n]
		newRow := slices.Clone(old)
		for _, i := range up.SetCols {
			newRow[av.Cols[i]] = p.rest[i]
		}
		out, ok, err := f.instead(sql.TriggerUpdate, old, newRow)
		if err != nil {
			return Result{}, err
		}
		if !ok {
			continue
		}
		if err := e.autoCheck(av, out, mark); err != nil {
			return Result{}, err
		}
		count++
		if up.Returning != nil || up.RetPlan != nil {
			vr, err := av.ViewRow(out)
			if err != nil {
				return Result{}, err
			}
			if err := ret.add(&res, append(vr, p.rest[k:]...)); err != nil {
				return Result{}, err
			}
		}
	}
	if err := f.end(sql.TriggerUpdate); err != nil {
		return Result{}, err
	}
	if err := ret.finish(e, &res, mark); err != nil {
		return Result{}, err
	}
	res.Tag = countTag("UPDATE ", count)
	return res, nil
}

// execInsteadDelete runs DELETE through av over a view's INSTEAD OF
// DELETE triggers.
func (e *Engine) execInsteadDelete(del *sql.Delete) (Result, error) {
	av := del.Auto
	f, err := e.viewFire(av.Table, sql.TriggerDelete, "delete from")
	if err != nil {
		return Result{}, err
	}
	if err := f.beforeStatement(sql.TriggerDelete); err != nil {
		return Result{}, err
	}
	mark := len(e.tx.log)
	vrows, ps, err := e.insteadPlanned(av, del.Rows, mark)
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: del.RetCols, HasRows: len(del.Returning) > 0}
	ret := returner{plan: del.RetPlan, exprs: del.Returning}
	n := len(f.cols)
	count := 0
	for _, p := range ps {
		if _, ok, err := f.instead(sql.TriggerDelete, vrows[p.id][:n], nil); err != nil {
			return Result{}, err
		} else if !ok {
			continue
		}
		count++
		if err := ret.add(&res, p.rest); err != nil {
			return Result{}, err
		}
	}
	if err := f.end(sql.TriggerDelete); err != nil {
		return Result{}, err
	}
	if err := ret.finish(e, &res, mark); err != nil {
		return Result{}, err
	}
	res.Tag = countTag("DELETE ", count)
	return res, nil
}

// execInsteadInsert runs INSERT through av over a view's INSTEAD OF
// INSERT triggers: each row proposed, in the columns of the view under
// it, is given to them.
func (e *Engine) execInsteadInsert(ins *sql.Insert) (Result, error) {
	av := ins.Auto
	f, err := e.viewFire(av.Table, sql.TriggerInsert, "insert into")
	if err != nil {
		return Result{}, err
	}
	if err := f.beforeStatement(sql.TriggerInsert); err != nil {
		return Result{}, err
	}
	mark := len(e.tx.log)
	rows, err := exec.Run(ins.Source, e.queryBudget(e.dmlSource()))
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: ins.RetCols, HasRows: len(ins.Returning) > 0}
	ret := returner{plan: ins.RetPlan, exprs: ins.Returning, view: av}
	count := 0
	for _, row := range rows {
		out, ok, err := f.instead(sql.TriggerInsert, nil, slices.Clone(row))
		if err != nil {
			return Result{}, err
		}
		if !ok {
			continue
		}
		if err := e.autoCheck(av, out, mark); err != nil {
			return Result{}, err
		}
		count++
		if err := ret.add(&res, out); err != nil {
			return Result{}, err
		}
	}
	if err := f.end(sql.TriggerInsert); err != nil {
		return Result{}, err
	}
	if err := ret.finish(e, &res, mark); err != nil {
		return Result{}, err
	}
	res.Tag = countTag("INSERT 0 ", count)
	return res, nil
}
