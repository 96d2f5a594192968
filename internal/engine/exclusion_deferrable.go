package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
)

// An EXCLUDE constraint declared DEFERRABLE is checked as PostgreSQL
// checks one: a row written that conflicts with another is kept and
// noted (exclusion.recheck), and the rows noted are tested again at the
// end of the statement, or at the commit while the constraint is
// deferred (SET CONSTRAINTS, else INITIALLY DEFERRED), as the deferrable
// keys are (key_deferrable.go). A row that conflicts then is 23P01,
// naming the first row noted that still conflicts; the statement is
// undone, or the commit rolls back before the views step. A conflict
// there can only involve a row written since the last check, and the
// later written of its two rows found the other when it was written, so
// the rows noted are all a check needs: O(rows noted × log group).

// deferrableExclusions reports whether t has a DEFERRABLE EXCLUDE
// constraint.
func (t *table) deferrableExclusions() bool {
	for _, x := range t.excl {
		if x.x.Deferrable {
			return true
		}
	}
	return false
}

// rechecked tests again the rows of t noted for x, in the order noted
// (a row noted twice counting at its last), and forgets them.
func (x *exclusion) rechecked(t *table) error {
	ids := x.recheck
	x.recheck = nil
	var last map[uint64]int
	if len(ids) > 1 {
		last = make(map[uint64]int, len(ids))
		for i, r := range ids {
			last[r.id] = i
		}
	}
	for i, r := range ids {
		id := r.id
		if last != nil && last[id] != i {
			continue
		}
		row, ok := t.rows.Get(id)
		if !ok {
			continue // deleted since, as PostgreSQL skips a dead row
		}
		vals, other, found, err := x.conflict(t, row, id, true)
		if err != nil {
			return err
		}
		if found {
			return x.violation(t, vals, other)
		}
	}
	return nil
}

// exclusionDeferred reports whether x's check waits for the commit, for
// the session whose statement runs.
func (e *Engine) exclusionDeferred(x *exclusion) bool {
	if e.firer == nil || e.tx == nil || !e.tx.explicit {
		return false
	}
	return e.firer.constraintDeferred(x.x.Name, x.x.InitDeferred)
}

// recheck is a row noted for a deferrable EXCLUDE constraint: its id,
// and the position in the transaction's log of the change that wrote
// it, by which an undo forgets it.
type recheck struct {
	id uint64
	at int
}

// forgetRechecks forgets the rows noted for the deferrable EXCLUDE
// constraints of the tables of the changes undone, log[mark:], by the
// writes undone.
func forgetRechecks(log []change, mark int) {
	var last *table
	for _, c := range log[mark:] {
		if c.t == last || c.t == nil {
			continue
		}
		last = c.t
		for _, x := range c.t.excl {
			n := len(x.recheck)
			for n > 0 && x.recheck[n-1].at >= mark {
				n--
			}
			x.recheck = x.recheck[:n]
		}
	}
}

// deferrableExclusionArbiter refuses ON CONFLICT whose arbiters include
// a deferrable EXCLUDE constraint: the one named, or every one when the
// statement names none (all), as PostgreSQL does.
func (t *table) deferrableExclusionArbiter(named *exclusion, all bool) error {
	for _, x := range t.excl {
		if x.x.Deferrable && (x == named || all) {
			return pgerr.New(pgerr.ObjectNotInPrereqState, "ON CONFLICT does not support deferrable unique constraints/exclusion constraints as arbiters")
		}
	}
	return nil
}

// checkExclusionsDeferred is checkKeys for t's deferrable EXCLUDE
// constraints that have rows noted.
func (e *Engine) checkExclusionsDeferred(t *table, due func(name string, initDeferred bool) bool) error {
	for _, x := range t.excl {
		if len(x.recheck) == 0 || due != nil && !due(x.x.Name, x.x.InitDeferred) {
			continue
		}
		if due == nil && e.exclusionDeferred(x) {
			e.tx.keyCheck = true
			continue
		}
		if err := x.rechecked(t); err != nil {
			return err
		}
	}
	return nil
}
