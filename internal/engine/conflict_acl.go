package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The columns ON CONFLICT uses keep no state: PostgreSQL checks SELECT
// on the columns of the arbiter (those of the constraint ON CONSTRAINT
// names, or of the target's columns, expressions and WHERE), with DO
// NOTHING too, and on those DO UPDATE's SET list and WHERE read, of the
// existing row and of EXCLUDED alike (the binder records EXCLUDED.c as
// the table's column c); UPDATE on those SET assigns.

// conflictNeeds adds to need the columns of its table ins's ON CONFLICT
// reads and those DO UPDATE assigns, and reports whether it reads any.
func (e *Engine) conflictNeeds(ins *sql.Insert, need *colNeeds) (reads bool) {
	oc := ins.OnConflict
	if oc == nil {
		return false
	}
	add := func(cols ...int) {
		for _, c := range cols {
			if c >= 0 && !slices.Contains(need.sel, c) {
				need.sel = append(need.sel, c)
			}
		}
	}
	add(oc.Arbiter...)
	add(expr.Columns(oc.ArbiterPred)...)
	if oc.Constraint != "" {
		if t := e.tables[ins.Table]; t != nil {
			for _, u := range t.uniques {
				if u.name == oc.Constraint {
					add(u.cols...)
				}
			}
		}
	}
	if oc.DoNothing {
		// An arbiter's expression reads its columns (in the RefLog).
		return len(oc.Arbiter) > 0 || oc.Constraint != ""
	}
	need.upd = oc.SetCols
	return true
}
