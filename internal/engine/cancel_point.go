package engine

import "time"

// Cancellation points of statements that change rows. A write statement
// runs under the engine's exclusive lock, for the session e.firer; its
// row loops (INSERT, UPDATE, DELETE, MERGE, COPY, PL/pgSQL loops) call
// interruptPoint, which counts the calls in a plain counter (the lock
// guards it) and only every interruptEvery calls loads the session's
// interrupt (an atomic) and reads the clock against statement_timeout:
// a few nanoseconds per row. A statement that fails there is undone
// entirely, as any failed statement is (its autocommit, or the failed
// transaction block). The views' step in a commit has none: once the
// changes are committed, their views follow them.

// interruptEvery is how many calls of interruptPoint pass between two
// looks at the interrupt and the clock: at a few microseconds a row, a
// cancel is seen within a millisecond or so.
const interruptEvery = 256

// interruptPoint is a cancellation point of the write statement running:
// the error of a cancel, a terminate or the statement's timeout, or nil.
func (e *Engine) interruptPoint() error {
	s := e.firer
	if s == nil || e.stepping {
		return nil
	}
	if e.polls++; e.polls%interruptEvery != 0 {
		return nil
	}
	return s.checkInterrupts()
}

// checkInterrupts is the session's cancellation point itself: the error of
// an interrupt another session raised, or of the statement's deadline
// passed.
func (s *Session) checkInterrupts() error {
	if err := s.Interrupted(); err != nil {
		return err
	}
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		return errStatementTimeout()
	}
	return nil
}
