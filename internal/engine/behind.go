package engine

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/deltaview/deltaview/internal/zset"
)

// A commit with two workers or more leaves the commit of its views'
// state, and of the shared indexes that its waves did not commit as soon
// as their readers had prepared (parallel.go: a commit whose views
// prepared one after the other), to goroutines of their own, which run
// past the commit's end: beside the next transaction's changes and its
// commit's table writes, which touch the tables alone. Whatever reads or
// changes the views, the indexes or their sizes waits for it first: every
// holder of the engine's lock does, but for the typed API's changes and a
// commit's table writes (lockChanges), and so does every commit before
// its views prepare. What the commit's end reads of
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
// commit's end, on one goroutine or, when the views are several and their
// batches big, on as many as the engine has workers, each a share of the
// views (behindShares).
type behind struct {
	done   chan struct{} // closed when every share is done
	left   atomic.Int32  // the shares still running
	panics []any         // by share
	// tr is the engine's trace, if any: at is where the committing
	// thread's trace was when the commit started, took each share's own
	// thread's time; cores, the workers the shares were made for.
	tr    *ScheduleTrace
	at    traceMark
	took  []int64
	cores int
	// shares are the views' shares, taken in turn (next) by the
	// goroutines that run them; the first commits staged too; hold is a
	// test's hook.
	shares [][]behindView
	staged []*sharedIndex
	hold   func()
	next   atomic.Int32
}

// Lock takes the lock exclusively, once the views and the indexes are
// committed. A panic of their commit is raised with the lock left free.
func (l *engineLock) Lock() {
	l.RWMutex.Lock()
	l.settleHeld(nil)
}

// settleHeld settles for the holder of the exclusive lock, and raises a
// panic of the commits left behind with the lock left free, after undo
// (when not nil) has taken back what the holder changed meanwhile.
func (l *engineLock) settleHeld(undo func()) {
	if l.behind == nil {
		return
	}
	defer func() {
		if p := recover(); p != nil {
			if undo != nil {
				undo()
			}
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
		if wait := b.waited(tr.since(b.at)); wait > 0 {
			tr.add("waited for the commit behind", wait)
			tr.mu.Lock()
			tr.Waited += wait
			tr.mu.Unlock()
		}
	}
	for _, p := range b.panics {
		if p != nil {
			panic(p)
		}
	}
}

// waited returns how long the committing thread would have waited for
// the commit behind on b.cores idle cores, given what ran beside it
// since it started (the committing thread and its waves): until the
// longest share is done, and no sooner than the cores could have run the
// shares and all that work.
func (b *behind) waited(ran traceMark) int64 {
	var sum, most int64
	for _, t := range b.took {
		sum += t
		most = max(most, t)
	}
	return max(most, (ran.work+sum)/int64(b.cores)) - ran.span
}

// commitBehind commits the views that stepped, and the staged shared
// indexes, on goroutines of their own, which the next holder of the lock
// waits for. The views of the partial engine commit at once.
func (e *Engine) commitBehind(stepped []matView, in *stepInput) {
	var views []behindView
	for _, v := range stepped {
		if _, ok := v.(*zview); ok {
			views = append(views, behindView{v: v, rows: inputRows(v, in)})
		} else {
			v.commit()
		}
	}
	var staged []*sharedIndex
	indexes := int64(0) // their commits' expected time
	for _, si := range e.shared.m {
		if si.staged {
			staged = append(staged, si)
			si.staged = false
			indexes += si.commitCost.estimate(len(in.deltas[si.rel]))
		}
		si.early, si.applied = false, nil
	}
	if len(staged) == 0 && len(views) == 0 {
		return
	}
	shares := e.behindShares(views, indexes)
	tr := e.trace
	b := &behind{done: make(chan struct{}), panics: make([]any, len(shares)), tr: tr, cores: max(e.nWorkers(), 1)}
	b.left.Store(int32(len(shares)))
	if tr != nil {
		b.at = tr.mark()
		b.took = make([]int64, len(shares))
	}
	e.mu.behind = b
	var hold func()
	if h := testHookBehind; h != nil {
		hold = h()
	}
	b.shares, b.staged, b.hold = shares, staged, hold
	e.relay.goOn(b.runShares)
	for range len(shares) - 1 {
		go b.runShares()
	}
}

// runShares commits the shares that no other goroutine has taken, one
// after the other: the relay's goroutine (relay.go), having done its
// share, takes the next if the goroutine started for it has not run yet
// (its core busy with the next transaction's calls), and that goroutine
// then finds nothing left.
func (b *behind) runShares() {
	for {
		s := int(b.next.Add(1)) - 1
		if s >= len(b.shares) {
			return
		}
		var indexes []*sharedIndex
		if s == 0 {
			indexes = b.staged
		}
		b.run(s, b.shares[s], indexes, b.hold)
	}
}

// behindView is a view whose commit is left behind and the rows of the
// commit it read.
type behindView struct {
	v    matView
	rows int
}

// behindShares shares the views out for their commits: all on one
// goroutine, or with two workers or more, two views or more and
// parallelMin rows or more read, on up to as many goroutines as workers,
// each view (longest expected first) to the share expected to end
// soonest. The first share commits the indexes too, after its views;
// indexes is their expected time. Views commit independently: each
// changes only the state it owns, and reads no other view's.
func (e *Engine) behindShares(views []behindView, indexes int64) [][]behindView {
	n, rows := min(e.nWorkers(), len(views)), 0
	for _, bv := range views {
		rows += bv.rows
	}
	if n < 2 || rows < e.parallelMin {
		return [][]behindView{views}
	}
	cost := make([]int64, len(views))
	order := make([]int, len(views))
	for i, bv := range views {
		cost[i], order[i] = bv.v.meta().commitCost.estimate(bv.rows), i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	shares := make([][]behindView, n)
	load := make([]int64, n)
	load[0] = indexes
	for _, i := range order {
		s := 0
		for k := range load {
			if load[k] < load[s] {
				s = k
			}
		}
		shares[s] = append(shares[s], views[i])
		load[s] += cost[i]
	}
	return slices.DeleteFunc(shares, func(sh []behindView) bool { return len(sh) == 0 })
}

// run commits one share of the views, then indexes, on its own
// goroutine; the last share to end closes b.done. hold, a test's, runs
// first.
func (b *behind) run(s int, views []behindView, indexes []*sharedIndex, hold func()) {
	defer func() {
		if b.left.Add(-1) == 0 {
			close(b.done)
		}
	}()
	defer func() {
		if p := recover(); p != nil {
			b.panics[s] = p
		}
	}()
	if hold != nil {
		hold()
	}
	tr := b.tr
	var t0, t int64
	if tr != nil {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		t0 = tr.Clock()
		t = t0
		defer func() {
			b.took[s] = tr.Clock() - t0
			tr.mu.Lock()
			tr.Behind += b.took[s]
			tr.mu.Unlock()
		}()
	}
	for _, bv := range views {
		m := bv.v.meta()
		start := time.Now()
		bv.v.commit()
		m.commitCost.record(time.Since(start), bv.rows)
		if tr != nil {
			now := tr.Clock()
			tr.add("commit "+m.name+", behind", now-t)
			t = now
		}
	}
	for _, si := range indexes {
		si.a.Commit()
	}
	if tr != nil && len(indexes) > 0 {
		tr.add("index commit, behind", tr.Clock()-t)
	}
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
	// The tables' batches hold at most the transaction's changes: a
	// small one is known too small without summing them.
	if changes < min(e.parallelMin, minBehind) || !e.bigCommit || changes > coldStartBatch || e.maxMemory > 0 {
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
