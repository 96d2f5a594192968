package engine

import (
	"sync/atomic"
	"time"
)

// A relay keeps the goroutine that ran a big commit's other half of a
// parallel wave alive for a moment after its task, spinning on its core,
// so that the commit's next wave (the table's write in halves, then the
// views' prepares, then the views' commits left behind, then the next
// commit's write) finds it running instead of starting a goroutine on a
// processor that had gone idle. On a virtual machine whose idle cores
// halt at once, waking one goes through the hypervisor: tens of
// microseconds on the commit's critical path, several times a commit.
// The spin is bounded (relaySpin): an idle engine, and an engine whose
// commits are too small for the workers (they never use the relay), burn
// no CPU; a relay that waits longer than the bound lets its goroutine
// end, and the next task starts one as before.
//
// The relay holds no state of the engine while it waits: its tasks are
// closures that the caller waits for as it would for a goroutine of its
// own, so that results cannot depend on which goroutine ran them.

// relaySpin is how long a relay's goroutine waits for its next task
// before it ends: longer than the serial parts between the waves of a
// commit of 10,000 changes at rest (the keys sorted before the table's
// write, the batch gathered after it: 100 to 300 microseconds), short
// beside a commit stream's calls, so that an idle engine spins half a
// millisecond of CPU once.
const relaySpin = 500 * time.Microsecond

// relay is one goroutine kept for the hand-offs of parallel waves.
type relay struct {
	state atomic.Int32
	task  atomic.Pointer[func()]
	// relayed counts the tasks handed to a waiting goroutine, started the
	// goroutines the relay started (each a wake-up of an idle core when
	// one is idle).
	relayed, started atomic.Int64
	// spin is the bound of a wait, relaySpin when 0 (a test's).
	spin time.Duration
}

const (
	relayGone    int32 = iota // no goroutine
	relayWaiting              // its goroutine spins, waiting for a task
	relayBusy                 // a task is handed to it or runs
)

// goOn runs fn on another goroutine: the relay's when it waits or has
// none, a goroutine of its own when the relay's is busy.
func (r *relay) goOn(fn func()) {
	if r.state.CompareAndSwap(relayWaiting, relayBusy) {
		r.relayed.Add(1)
		r.task.Store(&fn)
		return
	}
	if r.state.CompareAndSwap(relayGone, relayBusy) {
		r.started.Add(1)
		go r.loop(fn)
		return
	}
	go fn()
}

// loop runs the relay's tasks until it waits relaySpin for none.
func (r *relay) loop(fn func()) {
	for fn != nil {
		fn()
		fn = r.next()
	}
}

// next waits for the next task, spinning, and returns it; nil, with the
// relay's goroutine given up, after relaySpin without one.
func (r *relay) next() func() {
	bound := r.spin
	if bound == 0 {
		bound = relaySpin
	}
	r.state.Store(relayWaiting)
	start := time.Now()
	for i := 1; ; i++ {
		if r.state.Load() == relayBusy {
			// goOn stores the task right after it claims the relay.
			for {
				if t := r.task.Swap(nil); t != nil {
					return *t
				}
			}
		}
		if i%64 == 0 && time.Since(start) > bound && r.state.CompareAndSwap(relayWaiting, relayGone) {
			return nil
		}
	}
}

// relayRunning reports whether the relay's goroutine runs or waits.
func (e *Engine) relayRunning() bool { return e.relay.state.Load() != relayGone }

// Relayed returns how many tasks of parallel waves went to the relay's
// waiting goroutine and how many started a goroutine for it.
func (e *Engine) Relayed() (relayed, started int64) {
	return e.relay.relayed.Load(), e.relay.started.Load()
}
