package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// INSERT, UPDATE and DELETE on a plain view run its INSTEAD OF triggers,
// as PostgreSQL runs them; the view keeps no state of its own. The
// statement's BEFORE STATEMENT triggers on the view run first; then, for
// each row the statement computes (INSERT: the row proposed, with the
// view's columns; UPDATE and DELETE: each row of the view the WHERE
// accepts, read when the statement starts, with the new row for UPDATE),
// the view's INSTEAD OF ROW triggers for the event run in name order,
// each given the row the one before returned; a NULL returned stops the
// row, which the command tag then does not count. RETURNING shows the row
// the triggers returned (INSERT, UPDATE) or the view's row (DELETE), as
// PostgreSQL's. The AFTER STATEMENT triggers run last. A view without an
// INSTEAD OF trigger for the event changes its table when it is
// automatically updatable (updatable_view.go) and is refused by the
// binder otherwise (sql.TriggerCatalog).

// viewFire returns the firing of the triggers of view name for op, or
// PostgreSQL's error when the view has no INSTEAD OF trigger for op (one
// dropped since the statement was bound).
func (e *Engine) viewFire(name string, op int16, verb string) (*trigFire, error) {
	v := e.named[name]
	list := e.triggers[name]
	if v == nil || !slices.ContainsFunc(list, func(tr *trigger) bool {
		return tr.typ&sql.TriggerInstead != 0 && tr.typ&op != 0
	}) {
		event := map[int16]string{sql.TriggerInsert: "INSERT", sql.TriggerUpdate: "UPDATE", sql.TriggerDelete: "DELETE"}[op]
		what := map[int16]string{sql.TriggerInsert: "inserting into", sql.TriggerUpdate: "updating", sql.TriggerDelete: "deleting from"}[op]
		// 55000: object_not_in_prerequisite_state, PostgreSQL's code.
		return nil, pgerr.New("55000", "cannot %s view %q", verb, name).
			WithHint("To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.", what, event, event)
	}
	if e.firer == nil || e.replica {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot %s view %q without a session", verb, name)
	}
	return &trigFire{e: e, s: e.firer, list: list, rel: name, cols: v.cols, replica: e.replicaRole()}, nil
}

// instead runs the INSTEAD OF ROW triggers of op for a row: the row the
// last returned, false when one returned NULL.
func (f *trigFire) instead(op int16, old, new value.Row) (value.Row, bool, error) {
	for _, tr := range f.list {
		if !tr.firesIn(f.replica) || tr.typ&sql.TriggerInstead == 0 || tr.typ&op == 0 {
			continue
		}
		out, err := f.call(tr, op, sql.TriggerInstead|sql.TriggerRow, old, new)
		if err != nil || out == nil {
			return nil, false, err
		}
		if op != sql.TriggerDelete {
			new = out
		}
	}
	if op == sql.TriggerDelete {
		return old, true, nil
	}
	return new, true, nil
}

// execViewInsert runs INSERT on a view.
func (e *Engine) execViewInsert(ins *sql.Insert) (Result, error) {
	return e.insteadInsert(ins, ins.Table, nil)
}

// insteadInsert runs INSERT on view by its INSTEAD OF INSERT triggers:
// each row proposed, in the view's columns, is given to them. av, when
// set, is the automatically updatable view over view the statement
// names: its check options read the row the triggers return, and
// RETURNING the view's row computed from it.
func (e *Engine) insteadInsert(ins *sql.Insert, view string, av *sql.AutoView) (Result, error) {
	f, err := e.viewFire(view, sql.TriggerInsert, "insert into")
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
		if av != nil {
			if err := e.autoCheck(av, out, mark); err != nil {
				return Result{}, err
			}
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

// viewTargets runs the Rows plan of an UPDATE or DELETE on a view over
// the view's rows, each numbered as its row id: the view's rows, and the
// plan's rows by row id, each once with its first row.
func (e *Engine) viewTargets(view, rowsPlan plan.Node, mark int) ([]value.Row, []planned, error) {
	vrows, err := exec.Run(view, e.queryBudget(e.dmlSource()))
	if err != nil {
		return nil, nil, err
	}
	ts := exec.Targets{Rows: func(pred expr.Expr, fn func(value.Row) error) error {
		for i, r := range vrows {
			r = append(slices.Clone(r), value.NewInt(value.Int8, int64(i)))
			ok, err := accepts(pred, r)
			if err != nil {
				return err
			}
			if ok {
				if err := fn(r); err != nil {
					return err
				}
			}
		}
		return nil
	}}
	ps, err := e.plannedOver(rowsPlan, mark, ts)
	return vrows, ps, err
}

// execViewUpdate runs UPDATE on a view, by its Rows plan.
func (e *Engine) execViewUpdate(up *sql.Update) (Result, error) {
	if up.Auto != nil {
		return e.execAutoUpdate(up)
	}
	return e.insteadUpdate(up, up.Table, nil, func(mark int) ([]value.Row, []planned, error) {
		return e.viewTargets(up.View, up.Rows, mark)
	})
}

// insteadUpdate runs UPDATE on view by its INSTEAD OF UPDATE triggers:
// targets reads, as insteadDelete's, the rows of view and the
// statement's rows, and each of those rows is given to the triggers with
// its new row. av, when set, is the automatically updatable view over
// view the statement names, whose SET list assigns columns of av's
// rows: its check options read the row the triggers return, and
// RETURNING the view's row computed from it.
func (e *Engine) insteadUpdate(up *sql.Update, view string, av *sql.AutoView, targets func(mark int) ([]value.Row, []planned, error)) (Result, error) {
	f, err := e.viewFire(view, sql.TriggerUpdate, "update")
	if err != nil {
		return Result{}, err
	}
	f.set = up.SetCols
	if av != nil {
		f.set = nil
		for _, i := range up.SetCols {
			f.set = append(f.set, av.Cols[i])
		}
	}
	if err := f.beforeStatement(sql.TriggerUpdate); err != nil {
		return Result{}, err
	}
	mark := len(e.tx.log)
	vrows, ps, err := targets(mark)
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: up.RetCols, HasRows: len(up.Returning) > 0}
	ret := returner{plan: up.RetPlan, exprs: up.Returning}
	n := len(f.cols)
	count := 0
	for _, p := range ps {
		// The plan's row is the new row and what else RETURNING reads,
		// or through av the values SET assigns to av's columns.
		old := vrows[p.id][:n]
		newRow, rest := slices.Clone(p.rest[:n]), p.rest[n:]
		if av != nil {
			newRow, rest = slices.Clone(old), p.rest[len(av.Cols):]
			for _, i := range up.SetCols {
				newRow[av.Cols[i]] = p.rest[i]
			}
		}
		out, ok, err := f.instead(sql.TriggerUpdate, old, newRow)
		if err != nil {
			return Result{}, err
		}
		if !ok {
			continue
		}
		if av != nil {
			if err := e.autoCheck(av, out, mark); err != nil {
				return Result{}, err
			}
		}
		count++
		if up.Returning != nil || up.RetPlan != nil {
			if av != nil {
				if out, err = av.ViewRow(out); err != nil {
					return Result{}, err
				}
			}
			if err := ret.add(&res, append(out, rest...)); err != nil {
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

// execViewDelete runs DELETE on a view, by its Rows plan.
func (e *Engine) execViewDelete(del *sql.Delete) (Result, error) {
	if del.Auto != nil {
		return e.execAutoDelete(del)
	}
	return e.insteadDelete(del, del.Table, func(mark int) ([]value.Row, []planned, error) {
		return e.viewTargets(del.View, del.Rows, mark)
	})
}

// insteadDelete runs DELETE on view by its INSTEAD OF DELETE triggers:
// targets reads, as the statement starts (the log mark long), the rows
// of view, each beginning with its columns, and the statement's rows by
// their numbers; each of those rows is given to the triggers.
func (e *Engine) insteadDelete(del *sql.Delete, view string, targets func(mark int) ([]value.Row, []planned, error)) (Result, error) {
	f, err := e.viewFire(view, sql.TriggerDelete, "delete from")
	if err != nil {
		return Result{}, err
	}
	if err := f.beforeStatement(sql.TriggerDelete); err != nil {
		return Result{}, err
	}
	mark := len(e.tx.log)
	vrows, ps, err := targets(mark)
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

// InsteadEvents implements sql.TriggerCatalog.
func (e *Engine) InsteadEvents(view string) int16 {
	var out int16
	for _, tr := range e.triggers[view] {
		if tr.typ&sql.TriggerInstead != 0 { // disabled too, as PostgreSQL's rewriter counts it
			out |= tr.typ & (sql.TriggerInsert | sql.TriggerUpdate | sql.TriggerDelete)
		}
	}
	return out
}

// InsteadEvents implements sql.TriggerCatalog.
func (r *recorder) InsteadEvents(view string) int16 {
	if tc, ok := r.cat.(sql.TriggerCatalog); ok {
		return tc.InsteadEvents(view)
	}
	return 0
}
