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

// A view whose WHERE holds a subquery shows the rows of its table that a
// plan finds (sql.AutoView.Shown): an UPDATE or a DELETE through it runs
// each such plan once over the table, as the statement starts, and keeps
// the ids of the rows found; a check option runs it over each row
// written. Nothing is kept after the statement.

// autoShown returns the ids of the rows of t (av's table) that every
// view of av whose WHERE holds a subquery shows; nil when there is none.
func (e *Engine) autoShown(t *table, av *sql.AutoView, mark int) (map[uint64]bool, error) {
	var shown map[uint64]bool
	for _, p := range av.Shown {
		out, err := e.runTargets(p, mark, shownRows(e.tableRows(t), av.ShownMap, len(t.cols)))
		if err != nil {
			return nil, err
		}
		ids := make(map[uint64]bool, len(out))
		for _, r := range out {
			if id := uint64(r[0].Int()); shown == nil || shown[id] {
				ids[id] = true
			}
		}
		shown = ids
	}
	return shown, nil
}

// shownRows supplies the rows of ts (a table's rows, each followed by its
// id) in the columns of the table the Shown plans read: m gives, for
// each, the column of a descendant's row (nil for the table itself).
func shownRows(ts exec.Targets, m []int, n int) exec.Targets {
	if m == nil {
		return ts
	}
	return exec.Targets{Rows: func(pred expr.Expr, fn func(value.Row) error) error {
		return ts.Rows(nil, func(r value.Row) error {
			out := make(value.Row, len(m)+1)
			for j, k := range m {
				out[j] = r[k]
			}
			out[len(m)] = r[n]
			ok, err := accepts(pred, out)
			if err != nil || !ok {
				return err
			}
			return fn(out)
		})
	}}
}

// autoCheck returns PostgreSQL's error when row, a row of av's table the
// statement wrote, fails a view's WITH CHECK OPTION condition. A
// condition with a subquery reads the other relations as the statement
// found them (mark).
func (e *Engine) autoCheck(av *sql.AutoView, row value.Row, mark int) error {
	if av == nil {
		return nil
	}
	for _, c := range av.Checks {
		var ok bool
		var err error
		if c.Shown != nil {
			ok, err = e.shows(av, c.Shown, row, mark)
		} else {
			ok, err = accepts(c.Pred, row)
		}
		if err != nil {
			return err
		}
		if !ok {
			// The row is the table's, shown as its role may read it.
			pe := &pgerr.Error{Code: "44000", Message: "new row violates check option for view \"" + c.View + "\""}
			return withFailingRow(relationFields(pe, av.Table), row)
		}
	}
	return nil
}

// shows reports whether plan p (a view's WHERE, sql.AutoView.Shown)
// finds row, a row of av's table.
func (e *Engine) shows(av *sql.AutoView, p plan.Node, row value.Row, mark int) (bool, error) {
	r := slices.Clone(row)
	if m := av.ShownMap; m != nil {
		r = make(value.Row, len(m))
		for j, k := range m {
			r[j] = row[k]
		}
	}
	out, err := e.runTargets(p, mark, given([]value.Row{append(r, value.NewInt(value.Int8, 0))}))
	return len(out) > 0, err
}
