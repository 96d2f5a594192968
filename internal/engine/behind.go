package engine

import (
	"runtime"
	"sync"

	"github.com/deltaview/deltaview/internal/zset"
)

// A commit with two workers or more leaves the commit of its views'
// state, and of the shared indexes that its waves did not commit as soon
// as their readers had prepared (parallel.go: a commit whose views
// prepared one after the other), to a goroutine of its own, which runs
// past the commit's end: beside the next transaction's changes, which
// touch the tables alone. Whatever reads or changes the views, the
// indexes or their sizes waits for it first: every holder of the engine's
// lock does, but for the typed API's changes (lockChanges), and so does
// every commit before its views prepare. What the commit's end reads of
// its views is read before they commit: their deltas, which the
// subscribers get, and their staged refills. A view of the partial engine
// commits before the commit returns, as does every view of a commit with
// a memory budget, of a bulk load (whose end reads or trims the views'
// state) or reading the clock.

// engineLock is the engine's lock: taking it waits for the views' and
// indexes' commits left behind by the last commit (settle).
type engineLock struct {
	sync.RWMutex
	behind *behind
}

// behind is the views' and indexes' commits left to run past their
// commit's end.
type behind struct {
	done   chan struct{} // closed when it is done
	panics any
	// tr is the engine's trace, if any: launched is the committing
	// thread's clock when the commit started, took its own thread's time.
	tr             *ScheduleTrace
	launched, took int64
}

// Lock takes the lock exclusively, once the views and the indexes are
// committed. A panic of their commit is raised with the lock left free.
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

// RLock takes the lock shared, once the views and the indexes are
// committed.
func (l *engineLock) RLock() {
	l.RWMutex.RLock()
	if b := l.behind; b != nil {
		<-b.done
	}
}

// lockChanges takes the lock exclusively for a change of the typed API,
// which touches the tables only: the views' and indexes' commits may
// still run.
func (l *engineLock) lockChanges() { l.RWMutex.Lock() }

// settle waits, under the exclusive lock, for the commits left behind,
// counts in the trace how long the committing thread would have waited
// for them, and raises their panic.
func (l *engineLock) settle() {
	b := l.behind
	if b == nil {
		return
	}
	<-b.done
	l.behind = nil
	if tr := b.tr; tr != nil {
		if wait := b.took - (tr.Clock() - b.launched); wait > 0 {
			tr.add("waited for the commit behind", wait)
			tr.mu.Lock()
			tr.Waited += wait
			tr.mu.Unlock()
		}
	}
	if b.panics != nil {
		panic(b.panics)
	}
}

// commitBehind commits the views that stepped, and the staged shared
// indexes, on a goroutine of its own, which the next holder of the lock
// waits for. The views of the partial engine commit at once.
func (e *Engine) commitBehind(stepped []matView) {
	var views []matView
	for _, v := range stepped {
		if _, ok := v.(*zview); ok {
			views = append(views, v)
		} else {
			v.commit()
		}
	}
	var staged []*sharedIndex
	for _, si := range e.shared.m {
		if si.staged {
			staged = append(staged, si)
			si.staged = false
		}
		si.early, si.applied = false, nil
	}
	if len(staged) == 0 && len(views) == 0 {
		return
	}
	tr := e.trace
	b := &behind{done: make(chan struct{}), tr: tr}
	if tr != nil {
		b.launched = tr.Clock()
	}
	e.mu.behind = b
	var hold func()
	if h := testHookBehind; h != nil {
		hold = h()
	}
	go func() {
		defer close(b.done)
		defer func() {
			if p := recover(); p != nil {
				b.panics = p
			}
		}()
		if hold != nil {
			hold()
		}
		var t0, t int64
		if tr != nil {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 = tr.Clock()
			t = t0
			defer func() {
				b.took = tr.Clock() - t0
				tr.mu.Lock()
				tr.Behind += b.took
				tr.mu.Unlock()
			}()
		}
		for _, v := range views {
			v.commit()
		}
		if tr != nil {
			now := tr.Clock()
			tr.add("views commit, behind", now-t)
			t = now
		}
		for _, si := range staged {
			si.a.Commit()
		}
		if tr != nil {
			tr.add("index commit, behind", tr.Clock()-t)
		}
	}()
}

// testHookBehind, set by tests, is called by a commit that leaves its
// views' and indexes' commits behind, and returns what their goroutine
// runs before they start: a test holds them there to read the engine
// meanwhile.
var testHookBehind func() (hold func())

// minBehind is the rows from which a commit leaves its views' and
// indexes' commits to a goroutine of its own: starting one costs a
// microsecond or two, the inserts of 64 rows in a big index several.
const minBehind = 64

// commitsBehind reports whether the commit of a transaction of changes
// log entries, whose tables' batches are deltas, leaves its views' and
// indexes' commits behind: with two workers or more and minBehind rows or
// more in the batches (parallelMin if smaller), unless a memory budget
// needs the views' and indexes' sizes at the commit's end or the
// transaction is a bulk load (whose end trims the views).
func (e *Engine) commitsBehind(changes int, deltas map[string]zset.ZSet) bool {
	if e.nWorkers() < 2 || changes > coldStartBatch || e.maxMemory > 0 {
		return false
	}
	rows := 0
	for _, d := range deltas {
		rows += len(d)
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
