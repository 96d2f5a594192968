package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/zset"
)

// Distinct keeps a count per distinct row (the sum of its weights so far);
// it emits +1 for a row whose count goes from ≤0 to >0 and -1 for one whose
// count goes from >0 to ≤0, so its integrated output is the set of rows with
// a positive count. The counts are a B-tree of (row, count) entries (see
// counts for the choice).
type Distinct struct {
	counts counts
	staged zset.ZSet // the input of the uncommitted Step
	out    zset.ZSet
}

var _ dataflow.Operator = (*Distinct)(nil)

// NewDistinct returns an empty distinct.
func NewDistinct() *Distinct { return &Distinct{counts: newCounts()} }

// Step emits the rows whose count crosses zero and stages the input. The
// output is a subsequence of the consolidated input, so it is consolidated.
func (d *Distinct) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(d.out)
	for _, e := range in[0] {
		old := d.counts.get(e.Row)
		switch now := old + e.W; {
		case old <= 0 && now > 0:
			out = append(out, zset.Entry{Row: e.Row, W: 1})
		case old > 0 && now <= 0:
			out = append(out, zset.Entry{Row: e.Row, W: -1})
		}
	}
	d.staged = in[0]
	d.out = out
	return out, nil
}

// Commit adds the staged input to the counts.
func (d *Distinct) Commit() {
	for _, e := range d.staged {
		d.counts.add(e.Row, e.W)
	}
	d.staged = nil
}

// Abort drops the staged input.
func (d *Distinct) Abort() { d.staged = nil }

// Info describes the distinct.
func (d *Distinct) Info() dataflow.Info {
	return dataflow.Info{Kind: "Distinct", State: "count per distinct row", Cost: "O(change · log rows)"}
}

// State reports the distinct rows counted.
func (d *Distinct) State() dataflow.StateSize { return d.counts.state() }

// String prints the counts, one row per line as a Z-set prints.
func (d *Distinct) String() string { return d.counts.String() }
