package dataflow

import "github.com/deltaview/deltaview/internal/zset"

// Trimmer is implemented by operators that keep buffers from one step to
// the next for reuse (their last output, step scratch). Trim drops the
// references to those larger than a reused batch may be. It must not clear
// or reuse them: a batch returned by the last Step stays valid for whoever
// still holds it, and the garbage collector frees it once nobody does.
type Trimmer interface {
	Trim()
}

// Trim drops every node's last output and lets each operator drop its big
// buffers, so that the batches of a big step (a cold start, a bulk load)
// are not kept reachable until the next step. Batches read with Output
// before stay valid; Output returns nil until the next step. The
// operators' deferred loads run on two goroutines when there are two big
// ones (trimLoads).
func (c *Circuit) Trim() {
	c.valid = false
	done := c.trimLoads()
	for i := range c.nodes {
		c.nodes[i].out = nil
		if t, ok := c.nodes[i].op.(Trimmer); ok && (done == nil || !done[i]) {
			t.Trim()
		}
	}
	c.scratch = TrimSlice(c.scratch)
	c.stepped = TrimSlice(c.stepped)
}

// maxTrimmedBatch is the largest buffer an operator keeps after Trim:
// what ordinary steps need, and less than a transaction of thousands of
// changes reuses (maxReusedBatch), so that a view does not keep a cold
// start's buffers for the rest of its life.
const maxTrimmedBatch = 4096

// TrimSlice returns s, or nil when its capacity exceeds what an operator
// keeps after Trim. It never clears s.
func TrimSlice[T any](s []T) []T {
	if cap(s) > maxTrimmedBatch {
		return nil
	}
	return s
}

// TrimBatch is TrimSlice for a batch.
func TrimBatch(z zset.ZSet) zset.ZSet { return TrimSlice(z) }

// Trim loads the rows whose loads were deferred, ends the deferral (see
// DeferLoads) and drops the staging buffers of the arrangement when they
// are big. Only the owner calls it, between steps.
func (a *Arrangement) Trim() {
	a.settle()
	a.deferLoads = false
	if !a.isSet {
		a.staged = TrimSlice(a.staged)
		a.arena = TrimSlice(a.arena)
	}
}
