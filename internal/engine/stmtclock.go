package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The clock of ad-hoc statements. As in PostgreSQL, now(),
// current_timestamp, current_date, current_time, localtime,
// localtimestamp and transaction_timestamp() are the start of the
// transaction: the same value for every call in it (in autocommit, the
// statement's start); statement_timestamp() is the start of the
// statement, clock_timestamp() and timeofday() the wall clock at each
// call. The instants come from expr.Now. Views do not read this clock:
// their temporal filters follow the engine's (clock.go).

var _ sql.StatementClocker = (*recorder)(nil)

// StatementClock is the clock of the statement the recorder binds, which
// the session sets before each execution.
func (r *recorder) StatementClock() *expr.StmtClock { return &r.clock }

// startClock reads the clock at the start of a statement: it starts the
// transaction's time when no transaction block is open (the statement
// is its own transaction, or BEGIN opens one), and sets the clock of the
// statement's binding.
func (s *Session) startClock(rec *recorder) {
	now := expr.ClockMicros()
	if !s.block {
		s.txStart = now
	}
	s.activityClock(now)
	if rec != nil {
		s.setClock(rec, now)
	}
}

// statementClock sets the clock of a statement that PL/pgSQL code runs,
// inside the transaction of the statement that runs the code.
func (s *Session) statementClock(rec *recorder) { s.setClock(rec, expr.ClockMicros()) }

func (s *Session) setClock(rec *recorder, now int64) {
	rec.clock = expr.StmtClock{Tx: s.txStart, Stmt: now, Set: true, User: s.userName(), Session: s.sessionUserName(), Settings: s, Seqs: sessionSeqs{s},
		Routines: sessionRoutines{s}, Backend: s, TextStyle: s.TextStyle(), Zone: s.TimeZone(), Deadline: s.deadline, Late: errStatementTimeout,
		Interrupts: s}
}

// SuperuserName is current_user in a session without a role: the one
// role of a server without roles, which acts as a superuser. DatabaseName
// and ServerVersion are what current_database() and version() say.
const (
	SuperuserName = "deltaview"
	DatabaseName  = expr.DatabaseName
	ServerVersion = expr.ServerVersion
)

// userName is the role the session acts as, for current_user.
func (s *Session) userName() string {
	if s.role == "" {
		return SuperuserName
	}
	return s.role
}
