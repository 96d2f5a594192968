package op

import "github.com/deltaview/deltaview/internal/dataflow"

var _ dataflow.LoadDeferrer = (*GroupBy)(nil)

// DeferLoads lets the groups' value sets grow their logs while a cold
// start builds them (setScratch.hold), until Trim merges them.
func (g *GroupBy) DeferLoads() { g.ctx.scr.hold = true }

// mergeHeld ends a cold start's hold on the value sets: each set's log is
// merged into its base, and the state's bytes follow.
func (g *GroupBy) mergeHeld() {
	if !g.ctx.scr.hold {
		return
	}
	g.ctx.scr.hold = false
	if g.nsets == 0 {
		return
	}
	merge := func(gr *group) {
		sets := g.sets(gr)
		for i := range sets {
			if s := &sets[i]; len(s.log) > 0 {
				before := s.bytes()
				s.merge(&g.ctx.scr)
				g.bytes += s.bytes() - before
			}
		}
	}
	for _, gr := range g.groups {
		merge(gr)
	}
	g.ints.All(func(_ int64, gr *group) bool {
		merge(gr)
		return true
	})
	g.ctx.scr.buf = dataflow.TrimSlice(g.ctx.scr.buf)
}
