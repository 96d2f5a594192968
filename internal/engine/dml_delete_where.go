package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A DELETE whose WHERE calls a user function (with or without USING)
// decides each row as it deletes, as PostgreSQL's scan does: a volatile function there sees the
// rows the statement deleted before (funcsnapshot.go), so `DELETE FROM t
// WHERE f() > 3`, f counting t's rows, stops when three are left. The
// rows it may delete are found first (through an index when the WHERE
// gives one, as keyTarget); each is read again and the WHERE applied to
// it just before its deletion.

// lazyWhere reports whether a DELETE of where decides each row as it
// deletes it.
func lazyWhere(where expr.Expr) bool {
	return where != nil && callsTableRoutine(where)
}

// deleteCandidates are the rows of t a DELETE of where may delete, the
// WHERE not yet applied: those an index finds, or every row.
func (e *Engine) deleteCandidates(t *table, where expr.Expr) ([]target, error) {
	found, usable, err := keyTarget(t, where)
	if err != nil || usable {
		t.stat.fetched(int64(len(found)))
		return found, err
	}
	var out []target
	t.scan(func(id uint64, row value.Row) bool {
		if err = e.interruptPoint(); err != nil {
			return false
		}
		out = append(out, target{id: id, row: row, env: row})
		return true
	})
	t.stat.scanned(int64(len(out)))
	return out, err
}

// deleteCandidatesUsing is deleteCandidates for a DELETE with or without
// USING: with it, every row of t is a candidate, and the USING list's
// rows are read once, at the statement's start, as PostgreSQL's scan of
// them reads its snapshot.
func (e *Engine) deleteCandidatesUsing(t *table, using plan.Node, where expr.Expr) ([]target, []value.Row, error) {
	if using == nil {
		ts, err := e.deleteCandidates(t, where)
		return ts, nil, err
	}
	rows, err := exec.Run(using, e.queryBudget(e.dmlSource()))
	if err != nil {
		return nil, nil, err
	}
	ts, err := e.deleteCandidates(t, nil)
	return ts, rows, err
}

// stillAccepted reads tg's row again and applies where to it: false when
// the row is gone (deleted by a function the statement called) or where
// does not hold for it now. With USING (joined), where is applied to the
// row followed by each of the using rows in turn, the first it accepts
// joined to it, as PostgreSQL's join evaluates its filter row by row.
func stillAccepted(t *table, tg *target, using []value.Row, joined bool, where expr.Expr) (bool, error) {
	row, ok := t.rows.Get(tg.id)
	if !ok {
		return false, nil
	}
	if !joined {
		if ok, err := accepts(where, row); err != nil || !ok {
			return false, err
		}
		tg.row, tg.env = row, row
		return true, nil
	}
	for _, fr := range using {
		env := append(slices.Clone(row), fr...)
		ok, err := accepts(where, env)
		if err != nil {
			return false, err
		}
		if ok {
			tg.row, tg.env = row, env
			return true, nil
		}
		if _, present := t.rows.Get(tg.id); !present {
			return false, nil // deleted by the function the WHERE called
		}
	}
	return false, nil
}
