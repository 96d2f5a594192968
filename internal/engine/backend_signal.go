package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
)

// pg_cancel_backend and pg_terminate_backend: a session interrupts
// another by setting the interrupt of the other's activity record (an
// atomic, no lock of the other's), which the other reads at its
// cancellation points: every 1024 rows an ad hoc query reads or makes
// (exec.Budget), while a sleep function waits, and at the start of each
// statement. A cancel that finds the session idle is forgotten, as in
// PostgreSQL; a terminate fails the running statement and every later
// one, and takes the session out of pg_stat_activity.

// The interrupts, by strength: a cancel does not undo a terminate.
const (
	intrNone int32 = iota
	intrCancel
	intrTerminate
)

// SignalBackend implements expr.Backend: it interrupts the session of
// process id pid, reporting whether there is one. Signalled, the
// session's own statement fails at once.
func (s *Session) SignalBackend(pid int32, terminate bool) (bool, error) {
	code := intrCancel
	if terminate {
		code = intrTerminate
	}
	if pid == s.BackendPID() {
		s.interrupt(code)
		return true, s.Interrupted()
	}
	acts := &s.e.acts
	acts.mu.Lock()
	defer acts.mu.Unlock()
	for wp := range acts.m {
		o := wp.Value()
		if o == nil {
			continue
		}
		o.act.mu.Lock()
		found, user := o.act.on && o.act.pid == pid, o.act.user
		o.act.mu.Unlock()
		if found {
			if err := s.maySignal(user, terminate); err != nil {
				return false, err
			}
			o.interrupt(code)
			return true, nil
		}
	}
	return false, nil
}

// maySignal returns an error (42501) unless the session may signal a
// session of role user, as PostgreSQL decides: a superuser signals
// anyone; another role only the sessions of its own role, and no
// superuser's. (PostgreSQL also lets members of pg_signal_backend and of
// the other's role: deltaview has no role membership.) The caller holds
// the engine's lock.
func (s *Session) maySignal(user string, terminate bool) error {
	if s.role == "" {
		return nil
	}
	roles := s.e.roles
	if r := roles[s.role]; r != nil && r.superuser {
		return nil
	}
	what, detail := "cancel query", "cancel queries"
	if terminate {
		what, detail = "terminate process", "terminate processes"
	}
	if r := roles[user]; user == SuperuserName || r != nil && r.superuser {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to %s", what).
			WithDetail("Only roles with the SUPERUSER attribute may %s of roles with the SUPERUSER attribute.", detail)
	}
	if user != s.userName() {
		pe := pgerr.New(pgerr.InsufficientPrivilege, "permission denied to %s", what)
		if terminate {
			return pe.WithDetail("Only roles with privileges of the role whose process is being terminated or with privileges of the \"pg_signal_backend\" role may terminate this process.")
		}
		return pe.WithDetail("Only roles with privileges of the role whose query is being canceled or with privileges of the \"pg_signal_backend\" role may cancel this query.")
	}
	return nil
}

// Cancel cancels the session's running statement at its next
// cancellation point, as pg_cancel_backend does: the wire protocol's
// cancel request. A session that runs nothing forgets it.
func (s *Session) Cancel() { s.interrupt(intrCancel) }

// interrupt raises the session's interrupt to code.
func (s *Session) interrupt(code int32) {
	for {
		old := s.act.intr.Load()
		if old >= code || s.act.intr.CompareAndSwap(old, code) {
			return
		}
	}
}

// Interrupted implements expr.Interrupter: the error of the interrupt
// raised, nil for none. The statement's cancellation points call it.
func (s *Session) Interrupted() error {
	switch s.act.intr.Load() {
	case intrCancel:
		s.act.intr.CompareAndSwap(intrCancel, intrNone)
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	case intrTerminate:
		return errTerminated()
	}
	return nil
}

// forgetCancel forgets a cancel that came while the session was idle:
// called before the session shows its statement active.
func (s *Session) forgetCancel() { s.act.intr.CompareAndSwap(intrCancel, intrNone) }

// startInterrupts fails a terminated session's statement.
func (s *Session) startInterrupts() error {
	if s.act.intr.Load() != intrTerminate {
		return nil
	}
	s.endActivity()
	return errTerminated()
}

func errTerminated() error {
	return pgerr.New(pgerr.AdminShutdown, "terminating connection due to administrator command")
}
