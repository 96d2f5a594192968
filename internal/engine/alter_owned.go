package engine

import (
	"sort"

	"github.com/deltaview/deltaview/internal/sql"
)

// ownedAlter is what ALTER TABLE does to the sequences the table's serial
// and identity columns own, as in PostgreSQL: a sequence follows its
// column when the table or the column is renamed (its own name stays),
// goes with a dropped column or identity, and is created for a column
// added or made an identity column, before the table's rows take their
// values from it.
type ownedAlter struct {
	moved []*sequence
	was   [][2]string // each moved sequence's owner before
	made  []string    // sequences created for columns added
	gone  []string    // sequences of the columns dropped
	// altered are the identity sequences whose options the ALTER sets
	// (ALTER COLUMN … SET option), with their new states, recorded by
	// done.
	altered, next []*sequence
}

// alterOwned moves, in memory, the owners of t's sequences to the
// columns of a.New they follow and creates those of the columns added
// (recorded in the store at once, as CREATE SEQUENCE is). The caller ends
// with done once the table is altered, or undo when it is not.
func (e *Engine) alterOwned(t *table, a *sql.AlterTable) (*ownedAlter, error) {
	o := &ownedAlter{}
	for _, q := range e.seqs {
		if q.owner[0] != a.Table {
			continue
		}
		j := colIndex(t.cols, q.owner[1])
		to := [2]string{}
		for i, from := range a.Map {
			if from == j && j >= 0 {
				to = [2]string{a.New.Name, a.New.Cols[i].Name}
			}
		}
		if to[0] == "" || q.identity && !identityOf(a.New, to[1]) {
			// Its column dropped, or no longer an identity column
			// (DROP IDENTITY).
			o.gone = append(o.gone, q.name)
			continue
		}
		if to != q.owner {
			o.moved, o.was = append(o.moved, q), append(o.was, q.owner)
			q.owner = to
		}
	}
	sort.Strings(o.gone)
	for _, ia := range a.IdentityOpts {
		// Checked before the table changes, recorded after.
		for _, q := range e.seqs {
			if q.identity && q.owner == [2]string{a.New.Name, ia.Col} {
				q.mu.Lock()
				next, err := q.altered(&ia.Opts)
				q.mu.Unlock()
				if err != nil {
					o.undo(e)
					return nil, err
				}
				o.altered, o.next = append(o.altered, q), append(o.next, next)
			}
		}
	}
	made, err := e.createOwnedSequences(a.New)
	if err != nil {
		o.undo(e)
		return nil, err
	}
	o.made = made
	return o, nil
}

// undo puts the owners back and drops the sequences made.
func (o *ownedAlter) undo(e *Engine) {
	for i, q := range o.moved {
		q.owner = o.was[i]
	}
	e.forgetSequences(o.made) //nolint:errcheck // the alter's error is the one to report
}

// done records the moved owners and drops the sequences of the columns
// dropped.
func (o *ownedAlter) done(e *Engine) error {
	for _, q := range o.moved {
		if err := e.saveSequence(q); err != nil {
			return err
		}
	}
	for i, q := range o.altered {
		if err := e.saveSequence(o.next[i]); err != nil {
			return err
		}
		q.mu.Lock()
		q.take(o.next[i])
		q.mu.Unlock()
	}
	return e.forgetSequences(o.gone)
}

// identityOf reports whether column col of ct is an identity column.
func identityOf(ct *sql.CreateTable, col string) bool {
	for _, c := range ct.Cols {
		if c.Name == col {
			return c.Identity != 0
		}
	}
	return false
}
