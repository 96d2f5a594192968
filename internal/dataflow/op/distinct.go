package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Distinct keeps a count per distinct row (the sum of its weights so far);
// it emits +1 for a row whose count goes from ≤0 to >0 and -1 for one whose
// count goes from >0 to ≤0, so its integrated output is the set of rows with
// a positive count. The counts are a hash index over (row, count) slots (see
// counts for the choice).
type Distinct struct {
	counts counts
	staged zset.ZSet // the input of the uncommitted Step
	out    zset.ZSet
}

var _ dataflow.Operator = (*Distinct)(nil)

// NewDistinct returns an empty distinct.
func NewDistinct() *Distinct { return &Distinct{counts: newCounts()} }

// Step emits the rows whose count crosses zero and stages the input.
// Rows equal under value.CompareRows (-0 and 0, 1.5 and 1.50) count as one
// distinct row, printed as the representation that first made its count
// positive; they are adjacent in the consolidated input. The output is
// consolidated: one entry per group, in input order.
func (d *Distinct) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(d.out)
	forGroups(in[0], func(rep value.Row, w int64) {
		row, old, ok := d.counts.lookup(rep)
		if ok {
			rep = row
		}
		switch now := old + w; {
		case old <= 0 && now > 0:
			out = append(out, zset.Entry{Row: rep, W: 1})
		case old > 0 && now <= 0:
			out = append(out, zset.Entry{Row: rep, W: -1})
		}
	})
	d.staged = in[0]
	d.out = out
	return out, nil
}

// forGroups calls fn once per run of rows of z that value.CompareRows
// holds equal, with the run's first row and its total weight.
func forGroups(z zset.ZSet, fn func(rep value.Row, w int64)) {
	for i := 0; i < len(z); {
		w, j := z[i].W, i+1
		for j < len(z) && value.CompareRows(z[j].Row, z[i].Row) == 0 {
			w += z[j].W
			j++
		}
		fn(z[i].Row, w)
		i = j
	}
}

// Commit adds the staged input to the counts, a group at a time so that a
// group's stored representation is the one Step emitted.
func (d *Distinct) Commit() {
	forGroups(d.staged, func(rep value.Row, w int64) {
		if w != 0 {
			d.counts.add(rep, w)
		}
	})
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
