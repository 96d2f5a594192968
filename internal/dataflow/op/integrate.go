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

	// A cold start's batches, while they only add rows to an empty
	// Integrate, are kept aside and loaded at once (counts.load) at Trim
	// or when first read (see dataflow.LoadDeferrer).
	deferring bool
	deferred  bool // the staged batch goes to pending at Commit
	pending   countsLoad

	// split lets a commit's big step be found in halves
	// (integrate_split.go).
	split dataflow.Split
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
	if g.deferring && g.counts.live == 0 && len(in[0]) >= minDeferred && allAssertions(in[0]) {
		// Rows added to nothing: no weight can become negative.
		g.staged, g.deferred = in[0], true
		return in[0], nil
	}
	g.settle()
	g.at = g.at[:0]
	if cap(g.at) < len(in[0]) {
		g.at = make([]slotRef, 0, len(in[0]))
	}
	g.findStep(in[0])
	for k, e := range in[0] {
		if e.W > 0 {
			continue
		}
		if now := g.counts.weightAt(g.at[k].i) + e.W; now < 0 {
			return nil, pgerr.New(pgerr.Internal,
				"integrate: retracting %s would leave it with weight %d", zset.FormatRow(e.Row), now)
		}
	}
	g.staged = in[0]
	return in[0], nil
}

// Commit adds the staged batch to the contents.
func (g *Integrate) Commit() {
	if g.deferred {
		// The batch is valid only until this commit: its entries are
		// copied into the slab the load takes over (the rows themselves
		// are immutable).
		g.pending.add(&g.counts, g.staged)
		g.Abort()
		return
	}
	if len(g.staged) > 64 {
		// Room for the rows the batch adds less those it removes: a
		// keyed Integrate's replacements take their old rows' slots, and
		// others reuse the slots freed.
		n := 0
		for k, at := range g.at {
			if at.i < 0 {
				n++
			} else if g.counts.slots[at.i].n+g.staged[k].W == 0 {
				n--
			}
		}
		g.counts.grow(n)
	}
	g.counts.addAll(g.staged, g.at)
	g.counts.compact()
	if g.counts.long {
		g.counts.unkey()
	}
	g.Abort()
}

// Abort drops the staged batch.
func (g *Integrate) Abort() {
	g.staged, g.deferred = nil, false
	if cap(g.at) > maxReused {
		g.at = nil
	}
	g.at = g.at[:0]
}

// minDeferred is the smallest batch an Integrate keeps aside: a smaller
// one (a small table's cold start) gains nothing from a load and is
// applied as it comes, with what was kept aside loaded first.
const minDeferred = 4096

// allAssertions reports whether every weight of z is positive.
func allAssertions(z zset.ZSet) bool {
	for _, e := range z {
		if e.W < 0 {
			return false
		}
	}
	return true
}

// DeferLoads makes an empty Integrate keep the batches that only add rows
// aside until Trim or its first read, and then load them at once.
func (g *Integrate) DeferLoads() {
	if g.counts.live == 0 {
		g.deferring = true
	}
}

var _ dataflow.LoadDeferrer = (*Integrate)(nil)

// ExpectRows tells an Integrate that keeps a cold start's batches aside
// about how many rows to expect: the slab they are kept in (the one the
// load then takes over) starts at that size instead of growing by
// copies. A guess: more rows grow it, fewer are cut to at the load.
func (g *Integrate) ExpectRows(n int) {
	if g.pending.n == 0 {
		g.pending.expect(n)
	}
}

// settle loads the rows kept aside.
func (g *Integrate) settle() {
	if g.pending.n == 0 {
		return
	}
	p := g.pending
	g.pending = countsLoad{}
	g.counts.load(&p)
	g.counts.compact()
	if g.counts.long {
		g.counts.unkey()
	}
}

// KeyBy makes an empty Integrate find its rows by the columns key, which
// the plan shows no two of its rows share, rather than by the whole row
// (counts_keyed.go); what it holds and outputs is the same. An Integrate
// that holds rows already is left as it is.
func (g *Integrate) KeyBy(key []int) {
	if len(key) > 0 && g.pending.n == 0 {
		g.counts.keyBy(key)
	}
}

// Rows calls fn for each row held, with its weight, in zset.CompareRows
// order, until fn returns false. fn must not step the circuit.
func (g *Integrate) Rows(fn func(r value.Row, w int64) bool) {
	g.settle()
	g.counts.scan(fn)
}

// Each calls fn for each row held, with its weight, in no particular
// order, until fn returns false: Rows without the sort.
func (g *Integrate) Each(fn func(r value.Row, w int64) bool) {
	g.settle()
	for i := range g.counts.slots {
		if s := &g.counts.slots[i]; s.p != nil && !fn(s.rowOf(), s.n) {
			return
		}
	}
}

// Len returns the number of rows held counting duplicates: the sum of the
// weights.
func (g *Integrate) Len() int64 {
	g.settle()
	return g.counts.total
}

// Lookup returns r's weight, 0 when absent.
func (g *Integrate) Lookup(r value.Row) int64 {
	g.settle()
	return g.counts.get(r)
}

// Key returns the columns the rows are found by (KeyBy), nil when by the
// whole row.
func (g *Integrate) Key() []int { return g.counts.key }

// Info describes the integrate.
func (g *Integrate) Info() dataflow.Info {
	return dataflow.Info{Kind: "Integrate", State: "the view's rows with their multiplicities", Cost: "O(change)"}
}

// State reports the distinct rows held.
func (g *Integrate) State() dataflow.StateSize {
	g.settle()
	return g.counts.state()
}

// String prints the contents, one row per line as a Z-set prints.
func (g *Integrate) String() string {
	g.settle()
	return g.counts.String()
}
