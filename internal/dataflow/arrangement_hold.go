package dataflow

import "unsafe"

// Held commits. A top-k's reserve index is one run of every row of its
// table that passes the view's filter (500,000 rows in the benchmark's
// top-k), in a B+tree of leaves of up to 64 entries, and it is read only
// when a refill needs it. A batch of 10,000 changes reaches about as many
// leaves, one entry each, so that applied batch by batch every entry costs
// a leaf's cache misses, in a batch as alone. Held, the batches' entries
// wait unapplied until a read needs them or they reach a quarter of the
// rows held (at most 65,536 entries); then they are sorted together and
// merged into the tree in one walk from left to right (as Commit merges
// one sorted batch), several entries a leaf. A batch big enough to reach
// the leaves densely alone is applied at once.
//
// What a read sees does not change: every read (Len, Total, State,
// RowBytes, Lookup, Scan, ScanFrom, Weight, String, Trim) applies the held
// entries first, under a lock, so that readers running together (views
// preparing on several workers) apply them once. What it costs: the
// memory of the held entries (64 bytes an entry, up to 65,536 of them, in
// two buffers kept from merge to merge and counted in State) and of the
// rows they retract, and the merge of them all on the commit, or the
// read, that meets the limit.

// HoldCommits makes Commit hold the entries it commits, as described
// above, on an arrangement of one run: no key, and sort expressions. Only
// the owner calls it; it has no effect on other arrangements.
func (a *Arrangement) HoldCommits() {
	if len(a.spec.Key) == 0 && len(a.spec.Sort) > 0 {
		a.holds = true
	}
}

// minHeld is the fewest held entries that Commit applies: below it, a
// small arrangement's entries wait for a read or for more. maxHeld is the
// most: 65,536 entries reach a tree of a million rows' 20,000 leaves a few
// times each, and their buffers (4 MB, kept from merge to merge) stay
// small beside such a tree.
const (
	minHeld = 4096
	maxHeld = 1 << 16
)

// hold keeps the staged entries, committed, and applies the held entries
// once they reach a quarter of the rows held (between minHeld and
// maxHeld). A staged batch of a quarter of that or more is applied at
// once.
func (a *Arrangement) hold() {
	limit := min(max(minHeld, a.n/4), maxHeld)
	if len(a.staged) >= limit/4 {
		// A batch this big reaches the leaves densely enough alone:
		// sorting it again with the held entries would cost more than
		// it saves. Applied now, beside what is held (weights add up in
		// any order).
		a.apply(a.staged, a.arena, a.looseTies())
		a.Abort()
		return
	}
	if need := len(a.held) + len(a.staged); cap(a.held) < need {
		// Grown once to the limit, not doubled up to it.
		h := make([]stagedEntry, len(a.held), max(need, limit))
		copy(h, a.held)
		a.held = h
	}
	for i := range a.staged {
		s := &a.staged[i]
		// No key: nothing of the arena is kept. The rows are immutable.
		a.held = append(a.held, stagedEntry{k0: s.k0, row: s.row, w: s.w, bytes: s.bytes})
	}
	a.nheld.Store(int64(len(a.held)))
	a.Abort()
	if len(a.held) >= limit {
		a.applyHeld()
	}
}

// applyHeld sorts the held entries in the run's order, merges the entries
// of one row, and applies them in one walk.
func (a *Arrangement) applyHeld() {
	a.holdMu.Lock()
	defer a.holdMu.Unlock()
	h := a.held
	if len(h) == 0 {
		return
	}
	if len(h) > 1 {
		h = a.sortHeld(h)
	}
	// The entries of one row, from several commits, are next to each
	// other: one entry with their sum, none when it is zero.
	n := 0
	for i := 0; i < len(h); {
		e := h[i]
		j := i + 1
		for j < len(h) && a.cmp(&arrEntry{k0: e.k0, r: refOf(e.row)}, &arrEntry{k0: h[j].k0, r: refOf(h[j].row)}) == 0 {
			e.w += h[j].w
			j++
		}
		if e.w != 0 {
			h[n] = e
			n++
		}
		i = j
	}
	a.apply(h[:n], nil, false)
	clear(h)
	if cap(h) > 2*maxHeld {
		h = nil
	}
	a.held = h[:0]
	a.nheld.Store(0)
}

// sortHeld orders h as the run does: by radix on k0, and by Arrangement.cmp
// where k0 ties. Its buffers stay with the held entries'.
func (a *Arrangement) sortHeld(h []stagedEntry) []stagedEntry {
	perm := a.heldSort.Sort(len(h),
		false,
		func(i int) (uint8, uint64, bool) { return 0, h[i].k0, false },
		func(i, j int) int {
			return a.cmp(&arrEntry{k0: h[i].k0, r: refOf(h[i].row)}, &arrEntry{k0: h[j].k0, r: refOf(h[j].row)})
		})
	if cap(a.heldTmp) < len(h) {
		a.heldTmp = make([]stagedEntry, 0, cap(h))
	}
	tmp := a.heldTmp[:len(h)]
	for j, i := range perm {
		tmp[j] = h[i]
	}
	clear(h)
	a.heldTmp = h[:0]
	return tmp
}

// heldBytes is the memory of the buffers that hold entries and sort them,
// kept from one merge to the next (the entries themselves are applied by
// every read, State's too).
func (a *Arrangement) heldBytes() int64 {
	return int64(cap(a.held)+cap(a.heldTmp)) * int64(unsafe.Sizeof(stagedEntry{}))
}
