package op

import (
	"runtime"
	"sync"

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

// minSplitProbes is the fewest probes of a batch probed in two halves.
const minSplitProbes = 1 << 14

// probeSide probes the entries ks (term t), in two halves at once when
// the batch is a cold start's and big enough.
func (c *joinCore) probeSide(t term, arena []byte, ks []keyed) error {
	if !c.apart || c.slab == nil || c.guard != nil || c.direct == nil ||
		len(ks) < minSplitProbes || runtime.GOMAXPROCS(0) < 2 {
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
	half := len(ks) / 2
	tw.out = tw.out[:0]
	tw.reserve(len(ks) - half)
	tw.err = nil
	var twErr error
	var wg sync.WaitGroup
	wg.Go(func() { twErr = tw.probeAll(t, arena, ks[half:]) })
	err := c.probeAll(t, arena, ks[:half])
	wg.Wait()
	if err == nil {
		err = twErr
	}
	c.out = append(c.out, tw.out...)
	clear(tw.out)
	tw.release()
	return err
}

// newTwin returns a join that reads c's indexes and emits c's rows, with
// scratch of its own.
func (c *joinCore) newTwin() *joinCore {
	tw := &joinCore{spec: c.spec, left: c.left, right: c.right, nullL: c.nullL, nullR: c.nullR,
		direct: c.direct, emits: true, slab: &rowSlab{}}
	tw.onLeft, tw.onRight = tw.visitLeft, tw.visitRight
	tw.sink = func(_ term, _ value.Row, wl int64, _ value.Row, wr int64) error { return tw.emitCat(wl * wr) }
	return tw
}
