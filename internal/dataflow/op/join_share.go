package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// IndexSharer is a join whose private indexes can be handed to another
// owner or replaced by a shared index with the same contents, once the join
// has been built (a view's cold start fills its private indexes; the
// engine then shares them with other views that join the same relation on
// the same key). Side 0 is the left input, 1 the right.
type IndexSharer interface {
	// Index returns a side's index and whether the join owns it.
	Index(side int) (*dataflow.Arrangement, bool)
	// Disown hands the side's private index to the caller, who stages
	// and commits it from then on with the batches the join's input on
	// that side receives.
	Disown(side int) *dataflow.Arrangement
	// Share replaces the side's private index by a, which must index the
	// same rows on the same key and be staged and committed by its owner
	// with the batches this join's input on that side receives. The
	// private index is dropped.
	Share(side int, a *dataflow.Arrangement) error
}

var (
	_ IndexSharer = (*InnerJoin)(nil)
	_ IndexSharer = (*OuterJoin)(nil)
	_ IndexSharer = (*SemiJoin)(nil)
	_ IndexSharer = (*NotInJoin)(nil)
)

func (c *joinCore) side(side int) (**dataflow.Arrangement, *bool) {
	if side == 0 {
		return &c.left, &c.ownL
	}
	return &c.right, &c.ownR
}

func (c *joinCore) index(side int) (*dataflow.Arrangement, bool) {
	a, own := c.side(side)
	return *a, *own
}

func (c *joinCore) disown(side int) *dataflow.Arrangement {
	a, own := c.side(side)
	*own = false
	return *a
}

func (c *joinCore) share(side int, shared *dataflow.Arrangement) error {
	a, own := c.side(side)
	if !*own {
		return pgerr.New(pgerr.Internal, "op: a join can share only an index it owns")
	}
	mine := *a
	if mine.Len() != shared.Len() || mine.Total() != shared.Total() || mine.Describe() != shared.Describe() {
		return pgerr.New(pgerr.Internal, "op: shared index %s differs from the join's own %s (%d/%d rows)",
			shared.Describe(), mine.Describe(), shared.Len(), mine.Len())
	}
	*a, *own = shared, false
	return nil
}

// Index returns a side's index and whether the join owns it.
func (j *InnerJoin) Index(side int) (*dataflow.Arrangement, bool) { return j.c.index(side) }

// Disown hands a side's private index to the caller.
func (j *InnerJoin) Disown(side int) *dataflow.Arrangement { return j.c.disown(side) }

// Share replaces a side's private index by a shared one.
func (j *InnerJoin) Share(side int, a *dataflow.Arrangement) error { return j.c.share(side, a) }

// Index returns a side's index and whether the join owns it.
func (j *OuterJoin) Index(side int) (*dataflow.Arrangement, bool) { return j.c.index(side) }

// Disown hands a side's private index to the caller.
func (j *OuterJoin) Disown(side int) *dataflow.Arrangement { return j.c.disown(side) }

// Share replaces a side's private index by a shared one.
func (j *OuterJoin) Share(side int, a *dataflow.Arrangement) error { return j.c.share(side, a) }

// Index returns a side's index and whether the join owns it.
func (j *SemiJoin) Index(side int) (*dataflow.Arrangement, bool) { return j.c.index(side) }

// Disown hands a side's private index to the caller.
func (j *SemiJoin) Disown(side int) *dataflow.Arrangement { return j.c.disown(side) }

// Share replaces a side's private index by a shared one.
func (j *SemiJoin) Share(side int, a *dataflow.Arrangement) error { return j.c.share(side, a) }

// Index returns a side's index and whether the join owns it.
func (j *NotInJoin) Index(side int) (*dataflow.Arrangement, bool) { return j.c.index(side) }

// Disown hands a side's private index to the caller.
func (j *NotInJoin) Disown(side int) *dataflow.Arrangement { return j.c.disown(side) }

// Share replaces a side's private index by a shared one.
func (j *NotInJoin) Share(side int, a *dataflow.Arrangement) error { return j.c.share(side, a) }

// IndexAdopter is a join that can take, before its cold start, the index
// of one side's input whole: an index of the stored relation that this
// side reads as it is, which someone else fills with the relation's rows
// (on another goroutine while the cold start feeds the other relations,
// or already built and shared by other views) and then stages and commits
// with the relation's changes. Until its Trim, the end of the cold start,
// the join neither reads nor stages that side: the pairs of its rows come
// from the term Δl ⋈ R, as they are fed, which is exact only when no
// change reaches the other side once this side has had rows (the term
// L ⋈ Δr would need the rows fed so far). The caller ensures that by the
// order of the feed; a step that breaks it fails.
type IndexAdopter interface {
	// Adopt makes the side read a, or its own private index when a is
	// nil, which it then neither stages nor commits, and returns the
	// index the side reads.
	Adopt(side int, a *dataflow.Arrangement) *dataflow.Arrangement
}

var _ IndexAdopter = (*InnerJoin)(nil)

// Adopt makes a side read an index filled and staged by the caller.
func (j *InnerJoin) Adopt(side int, a *dataflow.Arrangement) *dataflow.Arrangement {
	return j.c.adopt(side, a)
}

func (c *joinCore) adopt(side int, shared *dataflow.Arrangement) *dataflow.Arrangement {
	a, own := c.side(side)
	if shared != nil {
		*a = shared
	}
	*own = false
	c.hidden[side] = true
	return *a
}

// checkHidden records the changes that reach an adopted side and fails a
// step whose other side changes once that side has had rows.
func (c *joinCore) checkHidden(dl, dr zset.ZSet) error {
	if !c.hidden[0] && !c.hidden[1] {
		return nil // after the cold start, or none adopted
	}
	for side, d := range [2]zset.ZSet{dl, dr} {
		if !c.hidden[side] {
			continue
		}
		if other := [2]zset.ZSet{dr, dl}[side]; c.fed[side] && len(other) > 0 {
			name := c.spec.Left.Name
			if side == 1 {
				name = c.spec.Right.Name
			}
			return pgerr.New(pgerr.Internal, "op: a join's adopted index of %s would miss the rows fed before a change of its other side", name)
		}
		c.fed[side] = c.fed[side] || len(d) > 0
	}
	return nil
}
