package op

// StagedRefills returns the refills of the step prepared and not yet
// committed: what Commit adds to Refills.
func (t *TopK) StagedRefills() int64 { return t.pending }

// StagedRefills returns the refills of the step prepared and not yet
// committed: what Commit adds to Refills.
func (g *GroupBy) StagedRefills() int64 {
	n := g.ctx.refills
	for _, p := range g.parts {
		n += p.ctx.refills
	}
	return n
}
