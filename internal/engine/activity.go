package engine

import (
	"cmp"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// activity keeps what pg_stat_activity shows of a session that runs SQL:
// its statement, state and times, which the session writes at the start
// and end of each statement and other sessions read, under mu.
type activity struct {
	mu     sync.Mutex
	on     bool // listed: the session has run SQL and is not closed
	pid    int32
	user   string
	app    string
	client netip.AddrPort // the connection's client, if any (connection.go)
	// query is the last statement, state active, idle, idle in
	// transaction or idle in transaction (aborted); wait the lock waited
	// for, if any.
	query, state, wait                               string
	backendStart, xactStart, queryStart, stateChange int64
	// intr is the interrupt another session raised (backend_signal.go).
	intr atomic.Int32
}

// activities are the sessions pg_stat_activity lists, held weakly: a
// session never closed goes with its garbage. A session's record is part
// of it, so that listing a session allocates nothing, even for a session
// reused after its Close (the Go API's transactions).
type activities struct {
	mu sync.Mutex
	m  map[weak.Pointer[Session]]struct{}
}

// activityStart records the start of a statement of text.
func (s *Session) activityStart(text string) {
	s.forgetCancel()
	now := expr.ClockMicros()
	a := &s.act
	if !a.on {
		pid := s.BackendPID()
		a.mu.Lock()
		a.on, a.pid, a.backendStart, a.xactStart = true, pid, now, 0
		a.mu.Unlock()
		acts := &s.e.acts
		acts.mu.Lock()
		if acts.m == nil {
			acts.m = map[weak.Pointer[Session]]struct{}{}
		}
		acts.m[weak.Make(s)] = struct{}{}
		acts.mu.Unlock()
	}
	app, _ := s.setting("application_name")
	user := s.sessionUserName()
	a.mu.Lock()
	a.query, a.state, a.queryStart, a.stateChange, a.user, a.app = text, "active", now, now, user, app
	if !s.block || a.xactStart == 0 {
		a.xactStart = now
	}
	a.mu.Unlock()
}

// activityClock records the times of the statement starting at now, as
// now() and statement_timestamp() read them.
func (s *Session) activityClock(now int64) {
	if a := &s.act; a.on {
		a.mu.Lock()
		a.xactStart, a.queryStart, a.stateChange = s.txStart, now, now
		a.mu.Unlock()
	}
}

// activityEnd records the end of the session's statement.
func (s *Session) activityEnd() {
	a := &s.act
	if !a.on {
		return
	}
	state := "idle"
	switch {
	case s.failed:
		state = "idle in transaction (aborted)"
	case s.block:
		state = "idle in transaction"
	}
	a.mu.Lock()
	a.state, a.stateChange = state, expr.ClockMicros()
	if !s.block {
		a.xactStart = 0
	}
	a.mu.Unlock()
}

// activityWait records that the session waits for a lock, or no longer.
func (s *Session) activityWait(what string) {
	if a := &s.act; a.on {
		a.mu.Lock()
		a.wait = what
		a.mu.Unlock()
	}
}

// endActivity takes a closed session out of pg_stat_activity.
func (s *Session) endActivity() {
	if s.act.on {
		s.e.acts.mu.Lock()
		delete(s.e.acts.m, weak.Make(s))
		s.act.on = false
		s.e.acts.mu.Unlock()
	}
}

// activityRow is a row of pg_stat_activity.
type activityRow struct {
	pid                                              int32
	client                                           netip.AddrPort
	user, app, query, state, wait                    string
	backendStart, xactStart, queryStart, stateChange int64
}

// activityRows lists the sessions, by pid.
func (e *Engine) activityRows() []activityRow {
	acts := &e.acts
	acts.mu.Lock()
	defer acts.mu.Unlock()
	var out []activityRow
	for wp := range acts.m {
		s := wp.Value()
		if s == nil {
			delete(acts.m, wp)
			continue
		}
		a := &s.act
		a.mu.Lock()
		out = append(out, activityRow{pid: a.pid, client: a.client, user: a.user, app: a.app, query: a.query, state: a.state, wait: a.wait,
			backendStart: a.backendStart, xactStart: a.xactStart, queryStart: a.queryStart, stateChange: a.stateChange})
		a.mu.Unlock()
	}
	sortActivity(out)
	return out
}

func sortActivity(rows []activityRow) {
	slices.SortFunc(rows, func(x, y activityRow) int { return cmp.Compare(x.pid, y.pid) })
}

// pgStatActivity lists the sessions that ran SQL as pg_stat_activity
// does; the client columns are NULL for a session of no TCP connection,
// as for a connection through a Unix socket.
func pgStatActivity(o *catalogObjects, r *catRows) {
	db := objectOID("database", DatabaseName)
	ts := func(us int64) any {
		if us == 0 {
			return nil
		}
		return value.NewTimestamp(value.TimestampTZ, us)
	}
	for _, a := range o.activity {
		role := uint32(superuserOID)
		if a.user != SuperuserName {
			role = objectOID("role", a.user)
		}
		var waitType, wait any
		if a.wait != "" {
			waitType, wait = "Lock", a.wait
		}
		var port any
		if a.client.IsValid() {
			port = int32(a.client.Port())
		}
		r.add("datid", db, "datname", DatabaseName, "pid", a.pid, "usesysid", role, "usename", a.user,
			"client_addr", inetValue(a.client), "client_port", port,
			"application_name", a.app, "backend_start", ts(a.backendStart), "xact_start", ts(a.xactStart),
			"query_start", ts(a.queryStart), "state_change", ts(a.stateChange), "wait_event_type", waitType, "wait_event", wait,
			"state", a.state, "query", a.query, "backend_type", "client backend")
	}
}
