package op

import (
	"runtime"
	"sync"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
)

// A cold start feeds a join its biggest input in batches of tens of
// thousands of rows, each probing the other side's index, built and no
// longer changing, and copying the pair's columns into a new row: work
// that one goroutine does while the other core waits. An inner join whose
// output is columns alone (join_direct.go) probes such a batch in two
// halves at once: the second half on a goroutine of its own, through a
// twin of the join that shares its indexes, which both only read, and has
// its own scratch, output and slab of rows; the twin's pairs are then
// appended to the join's, after the first half's, so that the output is
// the one probing the batch in order would give. Under a memory budget
// (a guard counting the pairs) the batch is probed in order.

// minSplitProbes is the fewest probes of a cold start's batch probed in
// two halves.
const minSplitProbes = 1 << 14

// A big commit's step (a whole commit of thousands of rows; a big
// batch's chunks of 512 keys stay on one core) is probed in halves the same way when the
// engine lets the join split it (dataflow.Split, as a grouping's): its
// probes are random reads of an index of 100,000 entries or more, half a
// microsecond each, which the second core takes half of. The twin's
// assertions are rows of their own and its retractions come from its own
// slab, as the join's are (newRow): only who copies them changes.

var _ dataflow.Splitter = (*InnerJoin)(nil)

// SetSplit lets the join probe a commit's big step in halves with s.
func (j *InnerJoin) SetSplit(s dataflow.Split) { j.c.split = s }

// probeSide probes the entries ks (term t), in two halves at once when
// the batch is a cold start's, or a commit's that the engine lets split,
// and big enough.
func (c *joinCore) probeSide(t term, arena []byte, ks []keyed) error {
	if !c.apart || c.guard != nil || c.direct == nil || !c.splits(t, len(ks)) {
		return c.probeAll(t, arena, ks)
	}
	// The lookups only read the index: its load, if still pending, is
	// done here, before the halves start.
	if t == termDlR {
		c.right.Len()
	} else {
		c.left.Len()
	}
	if c.twin == nil {
		c.twin = c.newTwin()
	}
	tw := c.twin
	// A cold start's rows come from slabs (newRow), a commit's each its
	// own or, retractions, from the twin's slab gone.
	tw.slab = nil
	if c.slab != nil {
		tw.slab = &tw.coldSlab
	}
	half := len(ks) / 2
	tw.out = tw.out[:0]
	tw.reserve(len(ks) - half)
	tw.err = nil
	var err, twErr error
	first := func() { err = c.probeAll(t, arena, ks[:half]) }
	second := func() { twErr = tw.probeAll(t, arena, ks[half:]) }
	if c.slab != nil {
		var wg sync.WaitGroup
		wg.Go(second)
		first()
		wg.Wait()
	} else {
		c.split.Run(first, second)
	}
	if err == nil {
		err = twErr
	}
	c.out = append(c.out, tw.out...)
	clear(tw.out)
	tw.release()
	return err
}

// splits reports whether ks, n entries probing the other side's index
// for term t, are probed in halves: a cold start's big batch on two
// cores, or a commit's step that the engine lets split (from 1,024
// rows: engine/parallel_split.go); never an index without a key (a bounded one may
// extend itself as it is read).
func (c *joinCore) splits(t term, n int) bool {
	a := c.right
	if t == termLDr {
		a = c.left
	}
	if len(a.Spec().Key) == 0 {
		return false
	}
	if c.slab != nil {
		return n >= minSplitProbes && runtime.GOMAXPROCS(0) >= 2
	}
	return c.split != nil && n >= 2 && c.split.Ways(n) >= 2
}

// newTwin returns a join that reads c's indexes and emits c's rows, with
// scratch of its own.
func (c *joinCore) newTwin() *joinCore {
	tw := &joinCore{spec: c.spec, left: c.left, right: c.right, nullL: c.nullL, nullR: c.nullR,
		direct: c.direct, emits: true}
	tw.onLeft, tw.onRight = tw.visitLeft, tw.visitRight
	tw.sink = func(_ term, _ value.Row, wl int64, _ value.Row, wr int64) error { return tw.emitCat(wl * wr) }
	return tw
}
