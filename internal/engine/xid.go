package engine

import (
	"slices"
	"sync"

	"github.com/deltaview/deltaview/internal/expr"
)

// xids keeps the transaction ids given out, which txid_current() and the
// snapshot functions read: the next to give, the ids of the transactions
// running, and the highest of those ended. An id is given to a
// transaction only when it asks for one (txid_current()), as PostgreSQL
// gives one at its first change; the ids start at 3, PostgreSQL's first
// normal one, above the frozen id 2 that every row's xmin shows.
type xids struct {
	mu      sync.Mutex
	next    int64
	running []int64 // ascending
	latest  int64   // the highest id of an ended transaction
	// aborted are the ids of the transactions rolled back, which
	// txid_status() tells from those committed.
	aborted map[int64]bool
	// reserved is the id up to which (excluded) the store records ids as
	// given (xid_store.go); 0 when it records none yet.
	reserved int64
}

// init gives the first ids, PostgreSQL's first normal one, 3, when none
// was given nor loaded.
func (x *xids) init() {
	if x.next == 0 {
		x.next, x.latest = 3, 2
	}
}

// TxID implements expr.Backend. A new id is recorded in the store
// first, as part of a reserve (xid_store.go).
func (s *Session) TxID(assign bool) (int64, bool, error) {
	if s.xid != 0 || !assign {
		return s.xid, s.xid != 0, nil
	}
	x := &s.e.xids
	x.mu.Lock()
	defer x.mu.Unlock()
	x.init()
	if err := s.e.reserveXids(x); err != nil {
		return 0, false, err
	}
	s.xid = x.next
	x.next++
	x.running = append(x.running, s.xid)
	return s.xid, true, nil
}

// Snapshot implements expr.Backend: as PostgreSQL's, xmax is one above
// the highest id ended, and the session's own transaction is not among
// those running.
func (s *Session) Snapshot() expr.Snapshot {
	x := &s.e.xids
	x.mu.Lock()
	defer x.mu.Unlock()
	x.init()
	snap := expr.Snapshot{Xmax: x.latest + 1}
	for _, id := range x.running {
		if id != s.xid && id < snap.Xmax {
			snap.Xip = append(snap.Xip, id)
		}
	}
	snap.Xmin = snap.Xmax
	if len(snap.Xip) > 0 {
		snap.Xmin = snap.Xip[0]
	}
	return snap
}

// endTxID ends the transaction's id, if it has one, committed or not.
func (s *Session) endTxID(committed bool) {
	if s.xid == 0 {
		return
	}
	x := &s.e.xids
	x.mu.Lock()
	if !committed {
		if x.aborted == nil {
			x.aborted = map[int64]bool{}
		}
		x.aborted[s.xid] = true
	}
	if i, ok := slices.BinarySearch(x.running, s.xid); ok {
		x.running = slices.Delete(x.running, i, i+1)
	}
	x.latest = max(x.latest, s.xid)
	x.mu.Unlock()
	if committed {
		s.e.commitXid(s.xid)
	}
	s.xid = 0
}

// WALPosition implements expr.WALBackend: the logical time of the last
// commit, the number of transactions committed (or the source's commit
// position), which pg_current_wal_lsn() shows as a pg_lsn. The statement
// that asks holds the engine's lock.
func (s *Session) WALPosition() uint64 { return s.e.ts }

// XactStatus implements expr.XactBackend.
func (s *Session) XactStatus(id uint64) (string, error) {
	x := &s.e.xids
	x.mu.Lock()
	defer x.mu.Unlock()
	next := max(x.next, 3)
	switch {
	case id >= uint64(next):
		return "", expr.ErrXactInFuture(id)
	case int64(id) == s.xid:
		return "in progress", nil
	case x.aborted[int64(id)]:
		return "aborted", nil
	}
	if _, running := slices.BinarySearch(x.running, int64(id)); running {
		return "in progress", nil
	}
	return "committed", nil
}

// TriggerDepth implements expr.XactBackend.
func (s *Session) TriggerDepth() int { return s.triggerDepth }
