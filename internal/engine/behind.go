package engine

import (
	"runtime"
	"sync"

	"github.com/deltaview/deltaview/internal/zset"
)

// A commit with two workers or more leaves the shared indexes' commit of
// its change (their B+tree inserts, the longest task of a commit) to a
// goroutine of its own, which runs past the commit's end: beside the next
// transaction's changes, which touch the tables alone. Whatever reads or
// changes the indexes or their sizes waits for it first: every holder of
// the engine's lock does, but for the typed API's changes (lockChanges),
// and so does every commit before its views prepare. The views' rows are
// committed before the commit returns; what lags is the indexes the views'
// next steps read, and nothing reads them before it is done.

// engineLock is the engine's lock: taking it waits for the indexes'
// commit left behind by the last commit (settle).
type engineLock struct {
	sync.RWMutex
	behind *behind
}

// behind is an index commit left to run past its commit's end.
type behind struct {
	done   chan struct{} // closed when it is done
	panics any
	// tr is the engine's trace, if any: launched is the committing
	// thread's clock when the commit started, took its own thread's time.
	tr             *ScheduleTrace
	launched, took int64
}

// Lock takes the lock exclusively, once the indexes are committed. A
// panic of their commit is raised with the lock left free.
func (l *engineLock) Lock() {
	l.RWMutex.Lock()
	if l.behind == nil {
		return
	}
	defer func() {
		if p := recover(); p != nil {
			l.RWMutex.Unlock()
			panic(p)
		}
	}()
	l.settle()
}

// RLock takes the lock shared, once the indexes are committed.
func (l *engineLock) RLock() {
	l.RWMutex.RLock()
	if b := l.behind; b != nil {
		<-b.done
	}
}

// lockChanges takes the lock exclusively for a change of the typed API,
// which touches the tables only: the indexes' commit may still run.
func (l *engineLock) lockChanges() { l.RWMutex.Lock() }

// settle waits, under the exclusive lock, for the indexes' commit left
// behind, counts in the trace how long the committing thread would have
// waited for it, and raises its panic.
func (l *engineLock) settle() {
	b := l.behind
	if b == nil {
		return
	}
	<-b.done
	l.behind = nil
	if tr := b.tr; tr != nil {
		if wait := b.took - (tr.Clock() - b.launched); wait > 0 {
			tr.add("waited for the indexes' commit", wait)
			tr.mu.Lock()
			tr.Waited += wait
			tr.mu.Unlock()
		}
	}
	if b.panics != nil {
		panic(b.panics)
	}
}

// commitBehind commits the staged shared indexes on a goroutine of its
// own, which the next holder of the lock waits for.
func (e *Engine) commitBehind() {
	var staged []*sharedIndex
	for _, si := range e.shared.m {
		if si.staged {
			staged = append(staged, si)
			si.staged = false
		}
		si.early, si.applied = false, nil
	}
	if len(staged) == 0 {
		return
	}
	tr := e.trace
	b := &behind{done: make(chan struct{}), tr: tr}
	if tr != nil {
		b.launched = tr.Clock()
	}
	e.mu.behind = b
	go func() {
		defer close(b.done)
		defer func() {
			if p := recover(); p != nil {
				b.panics = p
			}
		}()
		if tr != nil {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t := tr.Clock()
			defer func() {
				b.took = tr.Clock() - t
				tr.add("index commit, behind", b.took)
				tr.mu.Lock()
				tr.Behind += b.took
				tr.mu.Unlock()
			}()
		}
		for _, si := range staged {
			si.a.Commit()
		}
	}()
}

// minBehind is the rows from which an index commit runs on a goroutine of
// its own: starting one costs a microsecond or two, the inserts of 64
// rows in a big index several.
const minBehind = 64

// commitsBehind reports whether the commit of a transaction of changes
// log entries, whose tables' batches are deltas, leaves the indexes'
// commit behind: with two workers or more and minBehind rows or more for
// the indexes (parallelMin if smaller), unless a
// memory budget needs the indexes' sizes at the commit's end or the
// transaction is a bulk load (whose end trims the views).
func (e *Engine) commitsBehind(changes int, deltas map[string]zset.ZSet) bool {
	if e.nWorkers() < 2 || changes > coldStartBatch || e.maxMemory > 0 {
		return false
	}
	rows := 0
	for _, si := range e.shared.m {
		rows += len(deltas[si.rel])
	}
	if rows == 0 || rows < min(e.parallelMin, minBehind) {
		return false
	}
	for _, v := range e.order {
		if v.meta().maxMemory > 0 {
			return false
		}
	}
	return true
}
