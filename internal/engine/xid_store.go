package engine

import (
	"maps"
	"slices"
)

// xidReserve is how many transaction ids one record in the store covers:
// the engine records the id up to which it may give ids before it gives
// the first of them, so a restart after a crash continues after the
// reserve (ids are skipped, never given twice), and a closed store
// records the exact next id (CloseStore).
const xidReserve = 1024

// XidStore is implemented by a Store that keeps the transaction ids given
// out across a reopen: the next id to give and the ids of the
// transactions rolled back, which txid_status() reports as aborted. The
// engine calls it under seqStoreMu, as the reserves of sequences.
type XidStore interface {
	// SaveXids records a reserve: ids up to next (excluded) may be given,
	// and from on the file does not know which ended; from is 0 for the
	// exact next id of a clean close, after which it knows them all.
	SaveXids(next int64, aborted []int64, from int64) error
	// CommitXid records that the transaction id committed, so that a
	// reopen after a crash tells it from those cut short (aborted).
	CommitXid(id int64) error
}

func (closedStore) SaveXids(int64, []int64, int64) error { return errClosedStore() }
func (closedStore) CommitXid(int64) error                { return errClosedStore() }

// xidStore is the store's transaction id side; nil for an engine in
// memory.
func (e *Engine) xidStore() XidStore {
	if e.store == nil {
		return nil
	}
	s, _ := e.store.(XidStore)
	return s
}

// reserveXids records a new reserve of ids when x.next is past the last
// (x.mu held).
func (e *Engine) reserveXids(x *xids) error {
	xs := e.xidStore()
	if xs == nil || x.next < x.reserved {
		return nil
	}
	end := x.next + xidReserve
	from := x.next
	if len(x.running) > 0 {
		from = min(from, x.running[0]) // running under a reserve a rolled-back block held
	}
	e.seqStoreMu.Lock()
	defer e.seqStoreMu.Unlock()
	if err := xs.SaveXids(end, sortedIDs(x.aborted), from); err != nil {
		return err
	}
	x.reserved = end
	return nil
}

// forgetXidReserve makes the next id given record a new reserve: the
// block's rolled-back store transaction held the last one.
func (e *Engine) forgetXidReserve() {
	x := &e.xids
	x.mu.Lock()
	x.reserved = 0
	x.mu.Unlock()
}

// saveXidsExact records the next id exactly when the store closes, with
// the transactions still running as aborted: their changes are lost with
// the process, as PostgreSQL's are at a restart.
func (e *Engine) saveXidsExact() {
	xs := e.xidStore()
	x := &e.xids
	x.mu.Lock()
	defer x.mu.Unlock()
	if xs == nil || x.next == 0 {
		return
	}
	aborted := maps.Clone(x.aborted)
	if aborted == nil {
		aborted = map[int64]bool{}
	}
	for _, id := range x.running {
		aborted[id] = true
	}
	e.seqStoreMu.Lock()
	defer e.seqStoreMu.Unlock()
	xs.SaveXids(x.next, sortedIDs(aborted), 0) //nolint:errcheck // a failure leaves the last reserve, which stays correct
}

// commitXid records that the transaction id committed (x.mu not held);
// a failure leaves it unrecorded, reported aborted after a crash only.
func (e *Engine) commitXid(id int64) {
	xs := e.xidStore()
	if xs == nil {
		return
	}
	e.seqStoreMu.Lock()
	defer e.seqStoreMu.Unlock()
	xs.CommitXid(id) //nolint:errcheck // see above
}

// LoadXids sets the next transaction id and the ids rolled back that a
// store holds, at open: next 0 means none was recorded (ids start at 3).
// Every id below next has ended.
func (e *Engine) LoadXids(next int64, aborted []int64) {
	x := &e.xids
	x.mu.Lock()
	defer x.mu.Unlock()
	if next <= 3 {
		return
	}
	x.next, x.latest = next, next-1
	x.aborted = map[int64]bool{}
	for _, id := range aborted {
		x.aborted[id] = true
	}
}

func sortedIDs(m map[int64]bool) []int64 {
	return slices.Sorted(maps.Keys(m))
}
