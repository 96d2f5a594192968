package engine

import (
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
	mark := len(e.tx.log)
	rows, err := e.runTargets(m.Join, mark, e.tableRows(t))
	if err != nil {
		return Result{}, err
	}
	acted := map[uint64]bool{}
	n := 0
	for _, r := range rows {
		matched := !r[0].IsNull()
		env := r[1:]
		c, row, err := e.mergeClause(t, m, matched, env, mark)
		if err != nil {
			return Result{}, err
		}
		if c == nil || c.Action == sql.MergeNothing {
			continue
		}
		n++
		if !matched {
			if _, err := e.insertRow(t, row); err != nil {
				return Result{}, err
			}
			continue
		}
		id := uint64(r[0].Int())
		if acted[id] {
			return Result{}, pgerr.New(pgerr.CardinalityViolation, "MERGE command cannot affect row a second time").
				WithHint("Ensure that not more than one source row matches any one target row.")
		}
		acted[id] = true
		if c.Action == sql.MergeDelete {
			e.deleteRow(t, id)
			continue
		}
		old, _ := t.rows.Get(id)
		if _, err := e.updateRow(t, id, old, row); err != nil {
			return Result{}, err
		}
	}
	return Result{Tag: "MERGE " + strconv.Itoa(n)}, nil
}

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
