package engine

import (
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// A panic in a statement is a bug, and where it met the engine's state
// half changed nothing can say what is left: the engine halts. The
// statement's entry (Session.do, typedChangeKeep, endTx) releases the
// locks it held, so that Close and the other sessions do not wait forever
// on them; every statement after it fails with XX000, so that nothing
// half changed is read, sent or stored; CloseStore closes the file
// without writing (its last commit is what reopening finds); and the
// panic goes on to the caller, whose process ends with its stack unless
// it recovers.

// haltState holds the error statements get once the engine halted, nil
// before.
type haltState struct{ err atomic.Pointer[pgerr.Error] }

// halt records that a statement panicked with p.
func (e *Engine) halt(p any) {
	e.halted.err.CompareAndSwap(nil, pgerr.New(pgerr.Internal, "the database stopped after an internal error (%v): reopen it", p).
		WithHint("its last committed transaction is what reopening its file finds"))
}

// haltErr is the error of a statement run after a halt, nil before one.
func (e *Engine) haltErr() error {
	if err := e.halted.err.Load(); err != nil {
		return err
	}
	return nil
}

// lockHeld is which of the engine's locks a statement holds, for its
// release when the statement panics.
type lockHeld uint8

const (
	heldNone lockHeld = iota
	heldShared
	heldExclusive
)

// onPanic, deferred by a statement's entry, halts the engine when the
// statement panics, releases the lock *held says it holds and the
// session's writer slot, and panics again.
func (s *Session) onPanic(held *lockHeld) {
	p := recover()
	if p == nil {
		return
	}
	e := s.e
	e.halt(p)
	switch *held {
	case heldShared:
		e.mu.RUnlock()
	case heldExclusive:
		e.mu.Unlock()
	}
	s.releaseSlot()
	panic(p)
}
