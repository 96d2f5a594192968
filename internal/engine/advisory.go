package engine

import (
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// advisoryLocks keeps, per advisory lock key, the sessions that hold it and
// how many times each holds it in each mode and scope (session or
// transaction), and the sessions waiting for one, for pg_locks. As in
// PostgreSQL, a session never conflicts with itself; an exclusive hold
// conflicts with any other session's hold, a shared one with another
// session's exclusive hold. A release wakes every waiter, which tries again.
type advisoryLocks struct {
	mu      sync.Mutex
	held    map[expr.AdvisoryKey]map[*Session]*advisoryHold
	waiting map[*Session]advisoryWait
	wake    chan struct{} // closed, and replaced, at each release
}

// advisoryHold counts a session's holds of one key: [shared][xact].
type advisoryHold [2][2]int

// advisoryWait is a session waiting for a lock, as pg_locks lists it.
type advisoryWait struct {
	key    expr.AdvisoryKey
	shared bool
	since  int64 // microseconds since 2000-01-01
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// conflicts reports whether another session holds k in a mode that a
// hold of s in mode shared conflicts with. The caller holds a.mu.
func (a *advisoryLocks) conflicts(s *Session, k expr.AdvisoryKey, shared bool) bool {
	for other, h := range a.held[k] {
		if other == s {
			continue
		}
		if !shared || h[0][0]+h[0][1] > 0 {
			return true
		}
	}
	return false
}

// take records a hold. The caller holds a.mu.
func (a *advisoryLocks) take(s *Session, k expr.AdvisoryKey, shared, xact bool) {
	if a.held == nil {
		a.held = map[expr.AdvisoryKey]map[*Session]*advisoryHold{}
	}
	hs := a.held[k]
	if hs == nil {
		hs = map[*Session]*advisoryHold{}
		a.held[k] = hs
	}
	h := hs[s]
	if h == nil {
		h = new(advisoryHold)
		hs[s] = h
	}
	h[b2i(shared)][b2i(xact)]++
	s.advisory = true
}

// released wakes the waiters after a release. The caller holds a.mu.
func (a *advisoryLocks) released() {
	if a.wake != nil {
		close(a.wake)
		a.wake = nil
	}
}

// BackendPID implements expr.Backend: the session's number, given at its
// first use, unique in the engine.
func (s *Session) BackendPID() int32 {
	if s.pid == 0 {
		s.pid = s.e.pids.Add(1)
	}
	return s.pid
}

// AdvisoryLock implements expr.Backend. A lock another session holds is
// not waited for under the engine's lock, which its holder may need to go
// on: a query gives back what it took and fails with advisoryBusy, and
// its session waits for the lock with no lock held, then runs the query
// again (awaitAdvisory); another statement (a data change, PL/pgSQL) fails
// at once with 55P03, as with NOWAIT.
func (s *Session) AdvisoryLock(k expr.AdvisoryKey, shared, xact, try bool) (bool, error) {
	a := &s.e.advisory
	s.BackendPID() // pg_locks names the holder
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.conflicts(s, k, shared) {
		a.take(s, k, shared, xact)
		if s.canWait {
			s.stmtTakes = append(s.stmtTakes, advisoryTake{k, shared, xact})
		}
		return true, nil
	}
	switch {
	case try:
		return false, nil
	case s.canWait:
		for _, t := range s.stmtTakes {
			a.give(s, t.key, t.shared, t.xact)
		}
		s.stmtTakes = s.stmtTakes[:0]
		return false, &advisoryBusy{key: k, shared: shared}
	}
	return false, pgerr.New(pgerr.LockNotAvailable, "could not obtain advisory lock").
		WithHint("another session holds it; a data change or a function does not wait for an advisory lock here: take it in a query of its own first")
}

// advisoryTake is a hold a query took, which it gives back to wait.
type advisoryTake struct {
	key          expr.AdvisoryKey
	shared, xact bool
}

// advisoryBusy is the failure of a query that must wait for an advisory
// lock: its session waits with no lock held and runs it again.
type advisoryBusy struct {
	key    expr.AdvisoryKey
	shared bool
}

func (b *advisoryBusy) Error() string { return "deltaview: advisory lock busy" }

// awaitAdvisory waits until no other session holds b's lock in a
// conflicting mode, at most the session's lock_timeout (55P03) and to its
// statement's deadline (57014), or until a cancel or a terminate comes.
// Meanwhile pg_locks shows the wait.
func (s *Session) awaitAdvisory(b *advisoryBusy) error {
	a := &s.e.advisory
	var expired, late <-chan time.Time
	if s.lockTimeout > 0 {
		t := time.NewTimer(s.lockTimeout)
		defer t.Stop()
		expired = t.C
	}
	if !s.deadline.IsZero() {
		t := time.NewTimer(time.Until(s.deadline))
		defer t.Stop()
		late = t.C
	}
	poll := time.NewTicker(slotPoll) // to see a cancel meanwhile
	defer poll.Stop()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.waiting == nil {
		a.waiting = map[*Session]advisoryWait{}
	}
	defer delete(a.waiting, s)
	a.waiting[s] = advisoryWait{key: b.key, shared: b.shared, since: expr.ClockMicros()}
	s.activityWait("advisory")
	defer s.activityWait("")
	for a.conflicts(s, b.key, b.shared) {
		if a.wake == nil {
			a.wake = make(chan struct{})
		}
		wake := a.wake
		a.mu.Unlock()
		var err error
		select {
		case <-wake:
		case <-expired:
			err = pgerr.New(pgerr.LockNotAvailable, "canceling statement due to lock timeout").
				WithHint("another session holds the advisory lock; its pg_advisory_unlock or its end releases it, or raise lock_timeout")
		case <-late:
			err = errStatementTimeout()
		case <-poll.C:
			err = s.Interrupted()
		}
		a.mu.Lock()
		if err != nil {
			return err
		}
	}
	return nil
}

// give takes back one hold. The caller holds a.mu.
func (a *advisoryLocks) give(s *Session, k expr.AdvisoryKey, shared, xact bool) bool {
	h := a.held[k][s]
	if h == nil || h[b2i(shared)][b2i(xact)] == 0 {
		return false
	}
	h[b2i(shared)][b2i(xact)]--
	if *h == (advisoryHold{}) {
		delete(a.held[k], s)
		if len(a.held[k]) == 0 {
			delete(a.held, k)
		}
	}
	a.released()
	return true
}

// AdvisoryUnlock implements expr.Backend.
func (s *Session) AdvisoryUnlock(k expr.AdvisoryKey, shared bool) bool {
	a := &s.e.advisory
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.give(s, k, shared, false)
}

// AdvisoryUnlockAll implements expr.Backend: the session-level holds go,
// the transaction's stay, as in PostgreSQL.
func (s *Session) AdvisoryUnlockAll() { s.releaseAdvisory(true, false) }

// endTxAdvisory gives back the transaction-level advisory locks at the
// end of the session's transaction, and ends its id, committed or not.
func (s *Session) endTxAdvisory(committed bool) {
	s.releaseAdvisory(false, true)
	s.endTxID(committed)
}

// releaseAdvisory gives back the session's session-level and or
// transaction-level advisory locks.
func (s *Session) releaseAdvisory(session, xact bool) {
	if !s.advisory {
		return
	}
	a := &s.e.advisory
	a.mu.Lock()
	defer a.mu.Unlock()
	left := false
	for k, hs := range a.held {
		h := hs[s]
		if h == nil {
			continue
		}
		if session {
			h[0][0], h[1][0] = 0, 0
		}
		if xact {
			h[0][1], h[1][1] = 0, 0
		}
		if *h == (advisoryHold{}) {
			delete(hs, s)
			if len(hs) == 0 {
				delete(a.held, k)
			}
		} else {
			left = true
		}
	}
	s.advisory = left
	a.released()
}

// lockRow is a row of pg_locks.
type lockRow struct {
	key     expr.AdvisoryKey
	pid     int32
	shared  bool
	granted bool
	since   int64
}

// advisoryRows lists the advisory locks held and waited for, as pg_locks
// shows them: one row per session and mode held.
func (e *Engine) advisoryRows() []lockRow {
	a := &e.advisory
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []lockRow
	for k, hs := range a.held {
		for s, h := range hs {
			for m := range 2 {
				if h[m][0]+h[m][1] > 0 {
					out = append(out, lockRow{key: k, pid: s.pid, shared: m == 1, granted: true})
				}
			}
		}
	}
	for s, w := range a.waiting {
		out = append(out, lockRow{key: w.key, pid: s.pid, shared: w.shared, since: w.since})
	}
	slices.SortFunc(out, func(x, y lockRow) int {
		switch {
		case x.pid != y.pid:
			return int(x.pid - y.pid)
		case x.key.Class != y.key.Class:
			return int(int64(x.key.Class) - int64(y.key.Class))
		case x.key.Obj != y.key.Obj:
			return int(int64(x.key.Obj) - int64(y.key.Obj))
		}
		return int(x.key.Sub-y.key.Sub)*2 + b2i(x.shared) - b2i(y.shared)
	})
	return out
}

// pgLocks lists the advisory locks as pg_locks does.
func pgLocks(o *catalogObjects, r *catRows) {
	db := objectOID("database", DatabaseName)
	for _, l := range o.locks {
		mode := "ExclusiveLock"
		if l.shared {
			mode = "ShareLock"
		}
		var since any
		if !l.granted {
			since = value.NewTimestamp(value.TimestampTZ, l.since)
		}
		r.add("locktype", "advisory", "database", db, "classid", l.key.Class, "objid", l.key.Obj, "objsubid", l.key.Sub,
			"virtualtransaction", strconv.Itoa(int(l.pid))+"/1", "pid", l.pid, "mode", mode, "granted", l.granted,
			"fastpath", false, "waitstart", since)
	}
}
