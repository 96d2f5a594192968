package op

import (
	"slices"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/zset"
)

// A view's Integrate finds each row of a big step in its hash index
// before it checks the weights (Step) and applies them (Commit): a hash
// and a random read or two of an index of a million rows per row, about
// as long as the join's probes that made the rows. Finding only reads the
// counts, so a step that the engine lets split (dataflow.Split: a whole
// commit's step on the critical path) finds
// its rows in two halves at once, the second half on another worker,
// each writing its own part of the slots found and its own mark of a
// long key; the slots found, the checks and the commit are those of the
// step found in order.

var _ dataflow.Splitter = (*Integrate)(nil)

// SetSplit lets the Integrate find a commit's big step in halves with s.
func (g *Integrate) SetSplit(s dataflow.Split) { g.split = s }

// findStep sets g.at to the hash and slot of each row of z, found in two
// halves at once when the step may split.
func (g *Integrate) findStep(z zset.ZSet) {
	c := &g.counts
	if g.split == nil || c.index.tab == nil || len(z) < 2*minGrouped || g.split.Ways(len(z)) < 2 {
		g.at = c.findAll(z, g.at)
		return
	}
	g.at = slices.Grow(g.at[:0], len(z))[:len(z)]
	half := len(z) / 2
	var long bool
	g.split.Run(
		func() { c.findInto(z[:half], g.at[:half], &c.long) },
		func() { c.findInto(z[half:], g.at[half:], &long) },
	)
	if long {
		c.long = true
	}
}
