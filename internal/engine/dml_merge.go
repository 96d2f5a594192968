package engine

import (
	"slices"
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// MERGE joins its source with its table once, over the statement's
// snapshot, before it changes anything (sql.Merge.Join: the table's rows
// are found through an index when the source's keys are few, else read
// once and hashed, exec.join). Then each joined row in turn is acted on
// by the first clause of its kind whose condition holds, as an UPDATE,
// DELETE or INSERT of that one row: with the same checks, and the rows
// it inserts invisible to the join, as in PostgreSQL. A table row that a
// second source row acts on again is an error (21000); DO NOTHING does
// not act.

func (e *Engine) execMerge(m *sql.Merge) (Result, error) {
	t, err := e.writable(m.Table, "merge into")
	if err != nil {
		return Result{}, err
	}
	if len(m.Inherit) > 0 {
		return e.execMergeInherited(t, m)
	}
	tf := e.fireFor(t)
	var ops []int16 // the kinds of action of the clauses: INSERT, UPDATE, DELETE
	if tf != nil {
		for _, op := range []int16{sql.TriggerInsert, sql.TriggerUpdate, sql.TriggerDelete} {
			for _, c := range m.Clauses {
				if mergeOps[c.Action] == op {
					ops = append(ops, op)
					break
				}
			}
		}
		for _, c := range m.Clauses {
			if c.Action == sql.MergeUpdate {
				tf.set = append(tf.set, c.SetCols...)
			}
		}
		for _, op := range ops {
			if err := tf.beforeStatement(op); err != nil {
				return Result{}, err
			}
		}
	}
	mark := len(e.tx.log)
	defer e.beginQuery()()
	rows, err := e.runTargets(m.Join, mark, e.tableRows(t))
	if err != nil {
		return Result{}, err
	}
	acted := map[uint64]bool{}
	n := 0
	for _, r := range rows {
		if err := e.interruptPoint(); err != nil {
			return Result{}, err
		}
		matched := !r[0].IsNull()
		env := r[1:]
		c, row, err := e.mergeClause(t, m, matched, env, mark)
		if err != nil {
			return Result{}, err
		}
		if c == nil || c.Action == sql.MergeNothing {
			continue
		}
		if !matched {
			if tf != nil {
				var ok bool
				if row, ok, err = tf.beforeRow(sql.TriggerInsert, nil, row); err != nil {
					return Result{}, err
				} else if !ok {
					continue
				}
			}
			if _, err := e.insertRow(t, row); err != nil {
				return Result{}, err
			}
			if tf != nil {
				if err := tf.afterRow(sql.TriggerInsert, nil, row); err != nil {
					return Result{}, err
				}
			}
			n++
			continue
		}
		id := uint64(r[0].Int())
		if acted[id] {
			return Result{}, pgerr.New(pgerr.CardinalityViolation, "MERGE command cannot affect row a second time").
				WithHint("Ensure that not more than one source row matches any one target row.")
		}
		acted[id] = true
		old, ok := t.rows.Get(id)
		if tf != nil && !ok {
			continue // a trigger deleted it
		}
		if c.Action == sql.MergeDelete {
			if tf != nil {
				if _, ok, err := tf.beforeRow(sql.TriggerDelete, old, nil); err != nil {
					return Result{}, err
				} else if !ok {
					continue
				}
			}
			e.deleteRow(t, id)
			if tf != nil {
				if err := tf.afterRow(sql.TriggerDelete, old, nil); err != nil {
					return Result{}, err
				}
			}
			n++
			continue
		}
		if tf != nil {
			if row, ok, err = tf.beforeRow(sql.TriggerUpdate, old, row); err != nil {
				return Result{}, err
			} else if !ok {
				continue
			}
		}
		if _, err := e.updateRow(t, id, old, row); err != nil {
			return Result{}, err
		}
		if tf != nil {
			if err := tf.afterRow(sql.TriggerUpdate, old, row); err != nil {
				return Result{}, err
			}
		}
		n++
	}
	if tf != nil {
		// PostgreSQL's order: UPDATE, DELETE, INSERT.
		for _, op := range []int16{sql.TriggerUpdate, sql.TriggerDelete, sql.TriggerInsert} {
			if slices.Contains(ops, op) {
				if err := tf.afterStatement(op); err != nil {
					return Result{}, err
				}
			}
		}
		if err := tf.fire(); err != nil {
			return Result{}, err
		}
	}
	return Result{Tag: "MERGE " + strconv.Itoa(n)}, nil
}

// mergeOps are the trigger events of MERGE's actions.
var mergeOps = map[sql.MergeAction]int16{sql.MergeInsert: sql.TriggerInsert, sql.MergeUpdate: sql.TriggerUpdate, sql.MergeDelete: sql.TriggerDelete}

// mergeClause returns the clause of m that acts on env, a row of the join
// after its row id, with the row it writes (UPDATE's new row, INSERT's);
// nil when none acts.
func (e *Engine) mergeClause(t *table, m *sql.Merge, matched bool, env value.Row, mark int) (*sql.MergeClause, value.Row, error) {
	for i := range m.Clauses {
		c := &m.Clauses[i]
		if c.Matched != matched {
			continue
		}
		if c.Rows != nil {
			rows, err := e.runTargets(c.Rows, mark, given([]value.Row{env}))
			if err != nil || len(rows) == 0 {
				if err != nil {
					return nil, nil, err
				}
				continue
			}
			return c, rows[0], nil
		}
		ok, err := accepts(c.Cond, env)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		var row value.Row
		switch c.Action {
		case sql.MergeUpdate:
			row, err = assign(env[:len(t.cols)], c.Set, env)
		case sql.MergeInsert:
			row = make(value.Row, len(c.Row))
			for j, x := range c.Row {
				if row[j], err = x.Eval(env); err != nil {
					break
				}
			}
		}
		return c, row, err
	}
	return nil, nil, nil
}
