package engine

import (
	"sync/atomic"
	"time"
)

// writerSlot is the right to write, held by one session from its first
// change until its transaction ends (Session.acquireSlot). Taking the slot
// when it is free and giving it back cost one atomic operation each, as a
// transaction of one change takes it every time; a session that finds it
// held waits for a release, for at most its lock timeout.
//
// A release after which a session waits leaves a token in wake: a waiter
// counts itself in waiters before it tries the slot, so that a release
// that follows its failed try sees it and wakes it. A token left for a
// waiter that timed out wakes a later one for nothing: it tries again.
type writerSlot struct {
	held    atomic.Bool
	waiters atomic.Int32
	wake    chan struct{} // of capacity one
}

func newWriterSlot() writerSlot { return writerSlot{wake: make(chan struct{}, 1)} }

// tryAcquire takes the slot if it is free.
func (w *writerSlot) tryAcquire() bool { return w.held.CompareAndSwap(false, true) }

// acquire takes the slot, waiting for it at most timeout when timeout is
// positive; it reports whether it took it. While it waits it asks intr,
// when not nil, every slotPoll for an interrupt (a cancel), and gives up
// with its error.
func (w *writerSlot) acquire(timeout time.Duration, intr func() error) (bool, error) {
	if w.tryAcquire() {
		return true, nil
	}
	w.waiters.Add(1)
	defer w.waiters.Add(-1)
	var expired, poll <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	if intr != nil {
		t := time.NewTicker(slotPoll)
		defer t.Stop()
		poll = t.C
	}
	for {
		if w.tryAcquire() {
			return true, nil
		}
		select {
		case <-w.wake:
		case <-poll:
			if err := intr(); err != nil {
				return false, err
			}
		case <-expired:
			return w.tryAcquire(), nil
		}
	}
}

// slotPoll is how often a session waiting for the slot looks for a
// cancel: a waiter costs a timer, not a loop.
const slotPoll = 20 * time.Millisecond

// release gives the slot back and wakes a waiter, if any.
func (w *writerSlot) release() {
	w.held.Store(false)
	if w.waiters.Load() > 0 {
		select {
		case w.wake <- struct{}{}:
		default: // a token is there already
		}
	}
}
