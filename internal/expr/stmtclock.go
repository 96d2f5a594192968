package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"time"

	"github.com/deltaview/deltaview/internal/value"
)

// StmtClock holds the instants an ad-hoc statement's clock functions
// read, in microseconds since 2000-01-01 UTC: the start of the
// transaction (now(), current_timestamp, transaction_timestamp(),
// current_date, current_time, localtime, localtimestamp) and the start of
// the statement (statement_timestamp()). Whoever runs the statement sets
// it before each execution; until then the functions read Now.
type StmtClock struct {
	Tx, Stmt int64
	Set      bool
	// User is the role the session acts as, what current_user reads;
	// Session the session user, what session_user reads (SessionUser).
	User, Session string
	// Settings are the session's settings (SettingCall).
	Settings Settings
	// Seqs are the sequences as the session sees them, which nextval,
	// currval, setval and lastval call (SeqCall).
	Seqs Sequences
	// Routines runs the procedural functions a statement calls
	// (RoutineCall).
	Routines Routines
	// Backend is the session itself, which pg_backend_pid() and the
	// advisory lock functions ask (BackendCall).
	Backend Backend
	// TextStyle is the session's output settings, in which casts of
	// intervals, dates, bytea and floats to text write them
	// (IntervalText).
	TextStyle value.TextStyle
	// Zone is the session's TimeZone, in which the statement's
	// zone-dependent operations on timestamptz run (ZoneCast, ZoneFunc);
	// the zero Zone is UTC.
	Zone value.Zone
	// Deadline, when set, is the statement's end (statement_timeout),
	// at which a sleep stops with Late's error (SleepCall).
	Deadline time.Time
	Late     func() error
	// Interrupts, when set, is asked for the error of an interrupt
	// another session raised (pg_cancel_backend) while a sleep waits.
	Interrupts Interrupter
}

// Interrupter reports the interrupt another session raised: a cancel or
// a terminate (pg_cancel_backend, pg_terminate_backend), as its error,
// nil for none. A session is one; it is an interface, not a func, so that
// setting it allocates nothing.
type Interrupter interface {
	Interrupted() error
}

// SessionUser is current_user (and its synonyms) in an ad-hoc statement:
// the role its session acts as when it runs, which the statement's clock
// carries, so that a prepared statement reads its executing session's.
type SessionUser struct {
	C    *StmtClock
	Name string // the keyword, for printing
}

var _ Expr = (*SessionUser)(nil)

func (u *SessionUser) Type() value.Type { return value.TextType }
func (u *SessionUser) Volatile() bool   { return true }
func (*SessionUser) expr()              {}
func (u *SessionUser) String() string   { return u.Name }

// Eval implements Expr.
func (u *SessionUser) Eval(value.Row) (value.Value, error) {
	if u.C == nil {
		// A column's default outside a statement (the Go API's typed
		// changes), which has no session to ask.
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "%s is supported only in statements a session runs", u.Name)
	}
	if u.Name == "session_user" && u.C.Session != "" {
		return text(u.C.Session), nil
	}
	return text(u.C.User), nil
}

// ClockRead is a clock function of an ad-hoc statement: its transaction's
// or statement's start as a timestamptz, which every call in the
// transaction (or statement) shares.
type ClockRead struct {
	C    *StmtClock
	Stmt bool   // statement_timestamp(), not the transaction's start
	Name string // the function, for printing
}

var _ Expr = (*ClockRead)(nil)

func (c *ClockRead) Type() value.Type { return value.TimestampTZType }
func (c *ClockRead) Volatile() bool   { return true }
func (*ClockRead) expr()              {}
func (c *ClockRead) String() string   { return c.Name + "()" }

func (c *ClockRead) Eval(value.Row) (value.Value, error) {
	if !c.C.Set {
		return value.NewTimestamp(value.TimestampTZ, Now().UnixMicro()-pgEpochMicros), nil
	}
	if c.Stmt {
		return value.NewTimestamp(value.TimestampTZ, c.C.Stmt), nil
	}
	return value.NewTimestamp(value.TimestampTZ, c.C.Tx), nil
}

// ClockMicros reads Now as microseconds since 2000-01-01 UTC.
func ClockMicros() int64 { return Now().UnixMicro() - pgEpochMicros }

// timeofday() is the wall clock at the call as text, in the format of
// PostgreSQL's timeofday() for a session in UTC.
func init() {
	// The input words now, today, tomorrow and yesterday read Now too.
	value.SetInputClock(ClockMicros)
	register(&FuncDef{Name: "timeofday", Volatile: true, Result: value.TextType,
		Eval: func([]value.Value) (value.Value, error) {
			t := time.Now().UTC()
			return value.NewText(value.Text, t.Format("Mon Jan 02 15:04:05.000000 2006 UTC")), nil
		}})
}
