package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Distinct keeps a count per row (the sum of its weights so far); rows
// equal in SQL (value.CompareRows) are one distinct row, and it emits +1
// for one whose total count goes from ≤0 to >0 and -1 for one whose total
// goes from >0 to ≤0, so its integrated output is the set of rows with a
// positive count. The counts are a hash index over (row, count) slots (see
// counts for the choice), one per representation: of equal rows printed
// differently (-0 and 0, 1.5 and 1.50, '1 day' and '24:00:00'), the output
// shows the first (value.CompareRepr) of those with a positive count, so
// that it is a row the input holds and depends on the input alone.
type Distinct struct {
	counts counts
	staged zset.ZSet // the input of the uncommitted Step
	out    zset.ZSet
}

var _ dataflow.Operator = (*Distinct)(nil)

// NewDistinct returns an empty distinct.
func NewDistinct() *Distinct { return &Distinct{counts: newIdentityCounts()} }

// Step emits the rows whose total count crosses zero and, for a row that
// stays, the change of the representation it shows; it stages the input.
// Equal rows are adjacent in the consolidated input. The output is
// consolidated.
func (d *Distinct) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(d.out)
	z := in[0]
	for i := 0; i < len(z); {
		j := i + 1
		for j < len(z) && value.CompareRows(z[j].Row, z[i].Row) == 0 {
			j++
		}
		oldRep, old, newRep, now := d.counts.shown(z[i].Row, z[i:j])
		if old <= 0 {
			oldRep = nil
		}
		if now <= 0 {
			newRep = nil
		}
		if oldRep == nil || newRep == nil || zset.CompareRows(oldRep, newRep) != 0 {
			if oldRep != nil {
				out = append(out, zset.Entry{Row: oldRep, W: -1})
			}
			if newRep != nil {
				out = append(out, zset.Entry{Row: newRep, W: 1})
			}
		}
		i = j
	}
	d.staged = z
	d.out = zset.Consolidate(out)
	return d.out, nil
}

// Commit adds the staged input to the counts.
func (d *Distinct) Commit() {
	for _, e := range d.staged {
		d.counts.add(e.Row, e.W)
	}
	d.counts.compact()
	d.staged = nil
}

// Abort drops the staged input.
func (d *Distinct) Abort() { d.staged = nil }

// Info describes the distinct.
func (d *Distinct) Info() dataflow.Info {
	return dataflow.Info{Kind: "Distinct", State: "count per distinct row", Cost: "O(change)"}
}

// State reports the distinct rows counted.
func (d *Distinct) State() dataflow.StateSize { return d.counts.state() }

// String prints the counts, one row per line as a Z-set prints.
func (d *Distinct) String() string { return d.counts.String() }
