package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Integrate keeps the sum of every batch it has seen: a multiset, row →
// positive weight, which at the end of a circuit is a view's maintained
// contents. Its output is its input: the view's delta.
type Integrate struct {
	counts counts
	staged zset.ZSet
	at     []slotRef // where Step found each staged row
}

// slotRef is a row's hash and slot in the counts (-1: absent).
type slotRef struct {
	h uint64
	i int32
}

var _ dataflow.Operator = (*Integrate)(nil)

// NewIntegrate returns an empty integrate.
func NewIntegrate() *Integrate { return &Integrate{counts: newIdentityCounts()} }

// Step checks that no weight would become negative, stages the input and
// returns it. A negative weight means an upstream operator retracted a row
// that was never asserted: an internal error (XX000), not a panic.
//
// It locates every row once, for Commit: the batch is consolidated, so
// applying one row cannot move another's slot.
func (g *Integrate) Step(in []zset.ZSet) (zset.ZSet, error) {
	g.at = g.at[:0]
	if cap(g.at) < len(in[0]) {
		g.at = make([]slotRef, 0, len(in[0]))
	}
	for _, e := range in[0] {
		h, i := g.counts.find(e.Row)
		g.at = append(g.at, slotRef{h, i})
		if e.W > 0 {
			continue
		}
		if now := g.counts.weightAt(i) + e.W; now < 0 {
			return nil, pgerr.New(pgerr.Internal,
				"integrate: retracting %s would leave it with weight %d", zset.FormatRow(e.Row), now)
		}
	}
	g.staged = in[0]
	return in[0], nil
}

// Commit adds the staged batch to the contents.
func (g *Integrate) Commit() {
	if len(g.staged) > 64 {
		n := 0
		for _, at := range g.at {
			if at.i < 0 {
				n++
			}
		}
		g.counts.grow(n)
	}
	for k, e := range g.staged {
		g.counts.addAt(g.at[k].h, g.at[k].i, e.Row, e.W)
	}
	g.counts.compact()
	g.Abort()
}

// Abort drops the staged batch.
func (g *Integrate) Abort() {
	g.staged = nil
	if cap(g.at) > maxReused {
		g.at = nil
	}
	g.at = g.at[:0]
}

// Rows calls fn for each row held, with its weight, in zset.CompareRows
// order, until fn returns false. fn must not step the circuit.
func (g *Integrate) Rows(fn func(r value.Row, w int64) bool) { g.counts.scan(fn) }

// Each calls fn for each row held, with its weight, in no particular
// order, until fn returns false: Rows without the sort.
func (g *Integrate) Each(fn func(r value.Row, w int64) bool) {
	for i := range g.counts.slots {
		if s := &g.counts.slots[i]; s.row != nil && !fn(s.row, s.n) {
			return
		}
	}
}

// Len returns the number of rows held counting duplicates: the sum of the
// weights.
func (g *Integrate) Len() int64 { return g.counts.total }

// Lookup returns r's weight, 0 when absent.
func (g *Integrate) Lookup(r value.Row) int64 { return g.counts.get(r) }

// Info describes the integrate.
func (g *Integrate) Info() dataflow.Info {
	return dataflow.Info{Kind: "Integrate", State: "the view's rows with their multiplicities", Cost: "O(change)"}
}

// State reports the distinct rows held.
func (g *Integrate) State() dataflow.StateSize { return g.counts.state() }

// String prints the contents, one row per line as a Z-set prints.
func (g *Integrate) String() string { return g.counts.String() }
