package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// UPDATE and DELETE on an automatically updatable view (sql.AutoView)
// change the rows of the view's table that the view shows, as PostgreSQL
// rewrites them into statements on that table: the statement's Rows plan
// reads the view's rows computed from the table's rows its WHERE
// accepts, each with the table row's id; an UPDATE then writes each
// chosen table row with the view columns the SET list assigns put in its
// columns, a DELETE deletes it. The table's triggers, constraints and
// indexes act as for a statement on the table, so the materialized views
// over it see ordinary changes. A new row then meets the conditions
// WITH CHECK OPTION puts on it (44000). INSERT is bound as an INSERT into
// the table (its Auto set), which checks them too (autoCheck). The view
// keeps no state.

// autoRows supplies the rows of view av, computed from the rows of its
// table t that the view shows, each followed by the table row's id; a
// condition pred on them is read over the table's row, so that an index
// may find them. shown, when not nil, are the ids of the rows the views
// whose WHERE holds a subquery show (autoShown).
func (e *Engine) autoRows(t *table, av *sql.AutoView, shown map[uint64]bool) exec.Targets {
	ts := e.tableRows(t)
	n := len(t.cols)
	return exec.Targets{Rows: func(pred expr.Expr, fn func(value.Row) error) error {
		where := plan.AndOf(append(plan.Conjuncts(av.Where), plan.Conjuncts(av.OverTable(pred, n))...))
		return ts.Rows(where, func(r value.Row) error {
			if shown != nil && !shown[uint64(r[n].Int())] {
				return nil
			}
			vr, err := av.ViewRow(r[:n])
			if err != nil {
				return err
			}
			return fn(append(vr, r[n]))
		})
	}}
}

// autoPlanned runs the Rows plan of an UPDATE or DELETE on view av over
// its rows (autoRows) and returns them by the table's row id.
func (e *Engine) autoPlanned(t *table, av *sql.AutoView, rows plan.Node, mark int) ([]planned, error) {
	shown, err := e.autoShown(t, av, mark)
	if err != nil {
		return nil, err
	}
	return e.plannedOver(rows, mark, e.autoRows(t, av, shown))
}

// execAutoUpdate runs UPDATE on an automatically updatable view.
func (e *Engine) execAutoUpdate(up *sql.Update) (Result, error) {
	av := up.Auto
	if av.Instead != nil {
		return e.execInsteadUpdate(up)
	}
	t, err := e.writable(av.Table, "update")
	if err != nil {
		return Result{}, err
	}
	defer e.setWithin(av.Table, av.Partition)()
	set := make([]int, 0, len(up.SetCols)) // the table's columns assigned
	for _, i := range up.SetCols {
		set = append(set, av.Cols[i])
	}
	tf := e.fireFor(t)
	if tf != nil {
		tf.set = set
		if err := tf.beforeStatement(sql.TriggerUpdate); err != nil {
			return Result{}, err
		}
	}
	mark := len(e.tx.log)
	ps, err := e.autoPlanned(t, av, up.Rows, mark)
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: up.RetCols, HasRows: len(up.Returning) > 0}
	ret := returner{plan: up.RetPlan, exprs: up.Returning}
	checks := rowChecker{c: av.RowChecks} // row-level security's
	k := len(av.Cols)
	count := 0
	for _, p := range ps {
		if err := e.interruptPoint(); err != nil {
			return Result{}, err
		}
		old, ok := t.rows.Get(p.id)
		if !ok {
			continue // a trigger deleted it
		}
		newRow := slices.Clone(old)
		for _, i := range up.SetCols {
			newRow[av.Cols[i]] = p.rest[i]
		}
		if tf != nil {
			if newRow, ok, err = tf.beforeRow(sql.TriggerUpdate, old, newRow); err != nil {
				return Result{}, err
			} else if !ok {
				continue
			}
		}
		if err := checks.row(newRow); err != nil {
			return Result{}, err
		}
		if _, err := e.updateRow(t, p.id, old, newRow); err != nil {
			return Result{}, err
		}
		if err := e.autoCheck(av, newRow, mark); err != nil {
			return Result{}, err
		}
		if tf != nil {
			if err := tf.afterRow(sql.TriggerUpdate, old, newRow); err != nil {
				return Result{}, err
			}
		}
		count++
		if up.Returning != nil || up.RetPlan != nil {
			vr, err := av.ViewRow(newRow)
			if err != nil {
				return Result{}, err
			}
			if err := ret.add(&res, append(vr, p.rest[k:]...)); err != nil {
				return Result{}, err
			}
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

// execAutoDelete runs DELETE on an automatically updatable view.
func (e *Engine) execAutoDelete(del *sql.Delete) (Result, error) {
	av := del.Auto
	if av.Instead != nil {
		return e.execInsteadDelete(del)
	}
	t, err := e.writable(av.Table, "delete from")
	if err != nil {
		return Result{}, err
	}
	defer e.setWithin(av.Table, av.Partition)()
	tf := e.fireFor(t)
	if tf != nil {
		if err := tf.beforeStatement(sql.TriggerDelete); err != nil {
			return Result{}, err
		}
	}
	mark := len(e.tx.log)
	ps, err := e.autoPlanned(t, av, del.Rows, mark)
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: del.RetCols, HasRows: len(del.Returning) > 0}
	ret := returner{plan: del.RetPlan, exprs: del.Returning}
	count := 0
	for _, p := range ps {
		old, ok := t.rows.Get(p.id)
		if !ok {
			continue // a trigger deleted it
		}
		if ok, err := e.deleteTarget(t, tf, p.id, old); err != nil {
			return Result{}, err
		} else if !ok {
			continue
		}
		count++
		if err := ret.add(&res, p.rest); err != nil {
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

// autoOf is the automatically updatable view an UPDATE or DELETE
// changes through, nil for none.
func autoOf(b sql.Bound) *sql.AutoView {
	switch d := b.(type) {
	case *sql.Update:
		return d.Auto
	case *sql.Delete:
		return d.Auto
	}
	return nil
}

// explainAuto says how an UPDATE or DELETE through view av finds its
// table's rows, where (over the view's row and row id) read over the
// table's.
func (e *Engine) explainAuto(verb string, av *sql.AutoView, where expr.Expr) (Result, error) {
	if av.Instead != nil {
		return textPlan([]string{verb + " on view " + av.View + " through view " + av.Table + "'s INSTEAD OF triggers",
			"  -> the rows of view " + av.Table + ", read once, each given to its triggers when the statement's conditions accept it"}), nil
	}
	t, ok := e.tables[av.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", av.Table)
	}
	pred := plan.AndOf(append(plan.Conjuncts(av.Where), plan.Conjuncts(av.OverTable(where, len(t.cols)))...))
	e.lookupMu.Lock() // accessPath may build a key's ordered index
	p, err := t.accessPath(pred)
	e.lookupMu.Unlock()
	if err != nil {
		return Result{}, err
	}
	lines := []string{verb + " on " + av.Table + " through view " + av.View}
	if p != nil {
		lines = append(lines, "  -> "+p.describe(t))
	} else {
		lines = append(lines, "  -> Seq Scan on "+av.Table)
	}
	if len(av.Shown) > 0 {
		lines = append(lines, fmt.Sprintf("  -> kept when a view's WHERE with a subquery shows it: %d plan(s) over %s, once per statement", len(av.Shown), av.Table))
	}
	return textPlan(append(lines, "  -> the statement's expressions over the view's columns, once per row found")), nil
}

// checkOption is information_schema's check_option of view name:
// CASCADED, LOCAL or NONE.
func (e *Engine) checkOption(name string) string {
	if v := e.named[name]; v != nil && v.check != "" {
		return strings.ToUpper(v.check)
	}
	return "NONE"
}

// relUpdatable is pg_relation_is_updatable's mask of the relation of
// oid (1 << CMD_INSERT | 1 << CMD_UPDATE | 1 << CMD_DELETE for a table)
// and which of its columns INSERT and UPDATE can assign.
func (e *Engine) relUpdatable(oid uint32, triggers bool) (int32, []bool) {
	const ins, upd, del = 1 << 3, 1 << 2, 1 << 4
	for name, t := range e.tables {
		if RelationOID(name) == oid {
			cols := make([]bool, len(t.cols))
			for i := range cols {
				cols[i] = true
			}
			return ins | upd | del, cols
		}
	}
	for name := range e.named {
		if RelationOID(name) == oid {
			events, cols := sql.ViewUpdatable(e, name, triggers)
			var mask int32
			if events&sql.TriggerInsert != 0 {
				mask |= ins
			}
			if events&sql.TriggerUpdate != 0 {
				mask |= upd
			}
			if events&sql.TriggerDelete != 0 {
				mask |= del
			}
			return mask, cols
		}
	}
	return 0, nil
}

// alterViewDefault sets or drops defaults of a view's columns. The store
// keeps the view's CREATE VIEW followed by every such ALTER VIEW, run
// again in order at open.
func (e *Engine) alterViewDefault(a *sql.AlterViewDefault, text string) (Result, error) {
	v := e.named[a.View]
	if v == nil {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", e.bareName(a.View))
	}
	defs, texts := slices.Clone(v.defaults), slices.Clone(v.defaultTexts)
	if defs == nil {
		defs, texts = make([]expr.Expr, len(v.cols)), make([]string, len(v.cols))
	}
	for k, i := range a.Cols {
		defs[i], texts[i] = a.Defaults[k], a.Texts[k]
	}
	alters := append(slices.Clone(v.alters), strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";")))
	if e.store != nil {
		ss, ok := e.store.(StatementStore)
		if !ok || v.text == "" {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "this store cannot record ALTER VIEW")
		}
		if err := ss.SetStatement(a.View, v.text+"\n;\n"+strings.Join(alters, "\n;\n")); err != nil {
			return Result{}, err
		}
	}
	v.defaults, v.defaultTexts, v.alters = defs, texts, alters
	return Result{Tag: "ALTER VIEW"}, nil
}
