package dataflow

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/zset"
)

// Deferred loads. A join's private index is filled, in a cold start, by
// batch after batch of an input whose other side is still empty: nothing
// reads it until the other side's first rows arrive. Staged and committed
// batch by batch, each batch is keyed, sorted and merged into small runs
// that grow entry by entry; kept aside and loaded at once (Load) when it is
// first read, the rows are keyed and sorted once and each run made at
// once.
//
// An arrangement whose owner calls DeferLoads keeps the batches committed
// while it holds nothing in a pending list, unindexed, until Trim; every
// read (Len, Total, State, RowBytes, Lookup, Scan, Weight, String) loads
// them first. Since a load on first read is a write, deferral lasts only
// while its owner's circuit is built by one goroutine that no other
// reads (a view's cold start, under the engine's exclusive lock), and
// Trim, which ends the cold start, loads the rows and ends it.

// LoadDeferrer is implemented by operators that can keep the batches of
// a cold start aside and build their state from them in one load (see
// Circuit.DeferLoads).
type LoadDeferrer interface {
	DeferLoads()
}

// DeferLoads lets the operators that can defer their loads do so until
// Trim: their state is then built from whole inputs, not batch by batch.
// Until Trim, the circuit's operators must be read only by the goroutine
// that steps it.
func (c *Circuit) DeferLoads() {
	for i := range c.nodes {
		if d, ok := c.nodes[i].op.(LoadDeferrer); ok {
			d.DeferLoads()
		}
	}
}

// DeferLoads makes the arrangement keep the batches committed while it is
// empty aside, to be loaded at once when it is first read or at Trim. Only
// the owner calls it, on an arrangement it alone reads until Trim. It has
// no effect when evaluating the key or the order could fail (a computed
// key): Stage must then report the error with its batch.
func (a *Arrangement) DeferLoads() {
	if a.n != 0 || len(a.spec.Sort) > 0 {
		return
	}
	for _, k := range a.spec.Key {
		if _, ok := k.(*expr.Col); !ok {
			return
		}
	}
	a.deferLoads = true
}

// stageDeferred stages delta as a pending batch when the arrangement
// defers loads and holds nothing, and reports whether it did.
func (a *Arrangement) stageDeferred(delta zset.ZSet) bool {
	if !a.deferLoads || a.n != 0 {
		return false
	}
	a.deferred, a.isDeferred, a.isSet = delta, true, true
	return true
}

// commitDeferred adds the staged pending batch to the pending rows, or,
// when a read loaded them since it was staged, applies it as Stage and
// Commit do.
func (a *Arrangement) commitDeferred() {
	d := a.deferred
	a.Abort()
	if a.n == 0 {
		// The batch is valid only until this commit: its entries are
		// copied (the rows themselves are immutable).
		a.pend(d)
		return
	}
	if err := a.Stage(d); err != nil {
		panic(fmt.Sprintf("dataflow: deferred batch of %s: %v", a.Describe(), err))
	}
	a.Commit()
}

// settle applies the held entries (HoldCommits) and loads the pending
// rows. A batch staged but not committed stays staged.
func (a *Arrangement) settle() {
	if a.nheld.Load() != 0 {
		a.applyHeld()
	}
	if a.npending == 0 {
		return
	}
	pages, n := a.pending, a.npending
	staged, isDeferred, set := a.deferred, a.isDeferred, a.isSet
	// Load stages and commits a few rows as a batch: not deferred again.
	a.pending, a.npending, a.isSet, a.deferLoads = nil, 0, false, false
	a.deferred, a.isDeferred = nil, false
	// The rows' keys are columns: their evaluation cannot fail. Load
	// merges equal rows and drops those whose weights cancel; it reads
	// the pages in place.
	var err error
	if len(pages) == 1 || n < 2*ptOrder || n >= 1<<31 {
		rows := pages[0]
		if len(pages) > 1 {
			rows = make(zset.ZSet, 0, n)
			for _, pg := range pages {
				rows = append(rows, pg...)
			}
		}
		err = a.Load(rows)
	} else {
		err = a.load(loadSrc{pages: pages, n: n})
	}
	if err != nil {
		panic(fmt.Sprintf("dataflow: deferred load of %s: %v", a.Describe(), err))
	}
	a.deferred, a.isDeferred, a.isSet, a.deferLoads = staged, isDeferred, set, true
}

// pendingShift sets the size of the pages the pending entries are kept
// in: 1 << 15 entries, a cold start's batch. Every page but the last is
// full, so that Load finds entry i at page i >> pendingShift without
// gathering the pages into one slice first.
const (
	pendingShift = 15
	pendingPage  = 1 << pendingShift
	pendingMask  = pendingPage - 1
)

// pend copies the entries of a batch committed while the arrangement is
// empty to the pending pages.
func (a *Arrangement) pend(d zset.ZSet) {
	a.npending += len(d)
	for len(d) > 0 {
		k := len(a.pending) - 1
		if k < 0 || len(a.pending[k]) == pendingPage {
			a.pending = append(a.pending, make(zset.ZSet, 0, min(pendingPage, len(d))))
			k++
		}
		pg := a.pending[k]
		take := min(len(d), pendingPage-len(pg))
		a.pending[k] = append(pg, d[:take]...)
		d = d[take:]
	}
}
