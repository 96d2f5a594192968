package engine

import (
	"cmp"
	"slices"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// A DML statement whose expressions hold subqueries runs plans the binder
// made of them (sql.Update.Rows, RetPlan, OnConflict.Rows), over the rows
// it hands them through exec.Targets. The plans' subqueries read the
// statement's snapshot: the database as it was when the statement
// started (asOf the transaction log's length then), or, in a statement
// with data-modifying WITH items, when that statement started. Every new
// row is computed before the first change, and RETURNING's subqueries are
// evaluated after the last, over that snapshot, as PostgreSQL's see the
// database before the statement's own changes.

// runTargets evaluates p, whose plan.Target reads what rows supplies
// (exec.Targets without its Source), over the snapshot of the statement
// that started when the transaction's log was mark long.
func (e *Engine) runTargets(p plan.Node, mark int, rows exec.Targets) ([]value.Row, error) {
	rows.Source = asOf{e: e, mark: mark}
	if e.with != nil {
		rows.Source = e.with.src
	}
	return exec.Run(p, e.queryBudget(&rows))
}

// given supplies rows, those pred accepts.
func given(rows []value.Row) exec.Targets {
	return exec.Targets{Rows: func(pred expr.Expr, fn func(value.Row) error) error {
		for _, r := range rows {
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
}

// tableRows supplies the rows of t that pred accepts, each followed by its
// row id, found through an index when pred fixes one (Lookup finds them
// only so); without the rows an earlier part of the statement changed
// (skipChanged).
func (e *Engine) tableRows(t *table) exec.Targets {
	changed := e.changed(t)
	emit := func(pred expr.Expr, fn func(value.Row) error, id uint64, row value.Row) error {
		if changed[id] {
			return nil
		}
		r := append(slices.Clone(row), value.NewInt(value.Int8, int64(id)))
		ok, err := accepts(pred, r)
		if err != nil || !ok {
			return err
		}
		return fn(r)
	}
	lookup := func(pred expr.Expr, fn func(value.Row) error) (bool, error) {
		found, usable, err := keyTarget(t, pred)
		if err != nil || !usable {
			return false, err
		}
		for _, tg := range found {
			if err := emit(pred, fn, tg.id, tg.row); err != nil {
				return true, err
			}
		}
		return true, nil
	}
	return exec.Targets{Lookup: lookup, Rows: func(pred expr.Expr, fn func(value.Row) error) error {
		if handled, err := lookup(pred, fn); handled || err != nil {
			return err
		}
		var err error
		t.scan(func(id uint64, row value.Row) bool {
			err = emit(pred, fn, id, row)
			return err == nil
		})
		return err
	}}
}

// planned is a row an UPDATE or DELETE with subqueries acts on: its id,
// and what its Rows plan computed for it after the id (the new row, or
// the row, then the FROM or USING row).
type planned struct {
	id   uint64
	rest value.Row
}

// plannedRows runs the Rows plan of an UPDATE or DELETE of t and returns
// its rows, each id once with its first row: in the order PostgreSQL's
// scan of t meets them (heapOrderPlanned), or, joined to a FROM or USING
// list (whose order is PostgreSQL's plan's), by row id.
func (e *Engine) plannedRows(t *table, p plan.Node, mark int, joined bool) ([]planned, error) {
	ps, err := e.plannedOver(p, mark, e.tableRows(t))
	if err == nil && !joined {
		heapOrderPlanned(t, ps)
	}
	return ps, err
}

// plannedOver is plannedRows with the plan's target rows, each followed
// by its row id, read from rows.
func (e *Engine) plannedOver(p plan.Node, mark int, rows exec.Targets) ([]planned, error) {
	out, err := e.runTargets(p, mark, rows)
	if err != nil {
		return nil, err
	}
	ps := make([]planned, 0, len(out))
	for _, r := range out {
		ps = append(ps, planned{id: uint64(r[0].Int()), rest: r[1:]})
	}
	slices.SortStableFunc(ps, func(a, b planned) int { return cmp.Compare(a.id, b.id) })
	return slices.CompactFunc(ps, func(a, b planned) bool { return a.id == b.id }), nil
}

// execUpdateRows is execUpdate by its Rows plan; tf fires t's triggers
// (nil for none), the BEFORE STATEMENT ones already run.
func (e *Engine) execUpdateRows(t *table, up *sql.Update, tf *trigFire) (Result, error) {
	if err := checkCurrentOf(up.CurrentOf); err != nil {
		return Result{}, err
	}
	mark := len(e.tx.log)
	defer e.beginQuery()()
	ps, err := e.plannedRows(t, up.Rows, mark, up.From != nil)
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: up.RetCols, HasRows: len(up.Returning) > 0}
	ret := returner{plan: up.RetPlan, exprs: up.Returning, sys: up.RetSystem}
	checks := rowChecker{c: up.Checks}
	n := len(t.cols)
	count := 0
	for _, p := range ps {
		if err := e.interruptPoint(); err != nil {
			return Result{}, err
		}
		old, ok := t.rows.Get(p.id)
		newRow := slices.Clone(p.rest[:n])
		env := p.rest
		if tf != nil {
			if !ok {
				continue // a trigger deleted it
			}
			if newRow, ok, err = tf.beforeRow(sql.TriggerUpdate, old, newRow); err != nil {
				return Result{}, err
			} else if !ok {
				continue
			}
			env = append(slices.Clone(newRow), p.rest[n:]...)
		}
		if err := checks.rowOf(t, newRow); err != nil {
			return Result{}, err
		}
		if _, err := e.updateRow(t, p.id, old, newRow); err != nil {
			return Result{}, err
		}
		if tf != nil {
			if err := tf.afterRow(sql.TriggerUpdate, old, newRow); err != nil {
				return Result{}, err
			}
		}
		count++
		if err := ret.addID(e, &res, env, p.id, wroteUpdate); err != nil {
			return Result{}, err
		}
	}
	if err := tf.end(sql.TriggerUpdate); err != nil {
		return Result{}, err
	}
	if err := checks.finish(e, mark); err != nil {
		return Result{}, err
	}
	if err := ret.finish(e, &res, mark); err != nil {
		return Result{}, err
	}
	res.Tag = countTag("UPDATE ", count)
	return res, nil
}

// execDeleteRows is execDelete by its Rows plan; tf fires t's triggers
// (nil for none), the BEFORE STATEMENT ones already run.
func (e *Engine) execDeleteRows(t *table, del *sql.Delete, tf *trigFire) (Result, error) {
	if err := checkCurrentOf(del.CurrentOf); err != nil {
		return Result{}, err
	}
	mark := len(e.tx.log)
	defer e.beginQuery()()
	ps, err := e.plannedRows(t, del.Rows, mark, del.Using != nil)
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: del.RetCols, HasRows: len(del.Returning) > 0}
	ret := returner{plan: del.RetPlan, exprs: del.Returning, sys: del.RetSystem}
	count := 0
	for _, p := range ps {
		if ok, err := e.deleteTarget(t, tf, p.id, nil); err != nil {
			return Result{}, err
		} else if !ok {
			continue
		}
		count++
		if err := ret.addID(e, &res, p.rest, p.id, wroteDelete); err != nil {
			return Result{}, err
		}
	}
	if err := tf.end(sql.TriggerDelete); err != nil {
		return Result{}, err
	}
	if err := ret.finish(e, &res, mark); err != nil {
		return Result{}, err
	}
	res.Tag = countTag("DELETE ", count)
	return res, nil
}

// conflictRow is the new row ON CONFLICT DO UPDATE with subqueries makes
// of the existing row followed by the proposed one (both); false when its
// WHERE rejects them.
func (e *Engine) conflictRow(oc *sql.OnConflict, both value.Row, mark int) (value.Row, bool, error) {
	rows, err := e.runTargets(oc.Rows, mark, given([]value.Row{both}))
	if err != nil || len(rows) == 0 {
		return nil, false, err
	}
	return rows[0], true, nil
}

// returner computes a statement's RETURNING rows: row by row from its
// expressions, or, when they hold subqueries, from its plan over all the
// rows at once, once the statement has made its changes.
type returner struct {
	plan  plan.Node
	exprs []expr.Expr
	envs  []value.Row
	// view is the automatically updatable view an INSERT names: its
	// plan reads the view's rows, computed from the table's.
	view *sql.AutoView
	// sys is set when the expressions read the table's system columns,
	// which addID appends to each row.
	sys *sql.ReturnSystem
}

// addID is add for the row of id, which the statement wrote as w says,
// whose system columns the RETURNING list may read.
func (r *returner) addID(e *Engine, res *Result, env value.Row, id uint64, w rowWrite) error {
	if r.sys == nil {
		return r.add(res, env)
	}
	if r.sys.Routed && (w == wroteInsert || w == wroteUpsert) {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot retrieve a system column in this context")
	}
	if len(env) < r.sys.Width {
		return pgerr.New(pgerr.FeatureNotSupported, "system columns in this RETURNING list are not supported")
	}
	vals := plan.SystemValues(id)
	err := e.writtenSystemValues(&vals, w)
	if err != nil {
		return err
	}
	full := make(value.Row, 0, r.sys.Width+len(plan.SystemColumns))
	full = append(append(full, env[:r.sys.Width]...), vals[:]...)
	oid := value.NewOid(r.sys.OID)
	if r.sys.Part != nil {
		// The partition that holds the row written, as it is routed.
		if oid, err = r.sys.Part.Eval(env); err != nil {
			return err
		}
	}
	full = append(full, oid)
	return returning(res, r.exprs, full)
}

// add returns the row env, or keeps it for finish.
func (r *returner) add(res *Result, env value.Row) error {
	if r.sys != nil {
		return pgerr.New(pgerr.FeatureNotSupported, "system columns in this RETURNING list are not supported")
	}
	if r.plan == nil {
		return returning(res, r.exprs, env)
	}
	if r.view != nil {
		vr, err := r.view.ViewRow(env)
		if err != nil {
			return err
		}
		env = vr
	}
	r.envs = append(r.envs, env)
	return nil
}

// finish evaluates the plan over the rows kept, over the snapshot of the
// statement that started when the log was mark long.
func (r *returner) finish(e *Engine, res *Result, mark int) error {
	if r.plan == nil || len(r.envs) == 0 {
		return nil
	}
	rows, err := e.runTargets(r.plan, mark, given(r.envs))
	if err != nil {
		return err
	}
	res.Rows = append(res.Rows, rows...)
	return nil
}

// subqueryReads lists the relations the subqueries of b's expressions
// read.
func subqueryReads(b sql.Bound) []string {
	var out []string
	add := func(p plan.Node) {
		if p != nil {
			out = append(out, plan.Relations(p)...)
		}
	}
	switch b := b.(type) {
	case *sql.Insert:
		if b.OnConflict != nil {
			add(b.OnConflict.Rows)
		}
		add(b.RetPlan)
	case *sql.Update:
		add(b.Rows)
		add(b.RetPlan)
	case *sql.Delete:
		add(b.Rows)
		add(b.RetPlan)
	case *sql.Merge:
		for _, c := range b.Clauses {
			add(c.Rows)
		}
	}
	return out
}

// targetFilter returns the condition a Rows plan applies to its table's
// rows as it reads them, which an index may serve; nil when none.
func targetFilter(p plan.Node) expr.Expr {
	if f, ok := p.(*plan.Filter); ok {
		if _, ok := f.Input.(*plan.Target); ok {
			return f.Pred
		}
	}
	for _, c := range p.Children() {
		if w := targetFilter(c); w != nil {
			return w
		}
	}
	return nil
}
