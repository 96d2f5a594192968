package deltaview

import (
	"errors"
	"io"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
	"github.com/deltaview/deltaview/internal/value"
)

// Session is one connection to a database: SQL BEGIN, COMMIT and ROLLBACK
// belong to it, so a transaction may span calls, and SET lock_timeout is
// its own. A Session is used by one goroutine at a time; sessions run
// concurrently.
//
// Each statement sees the state committed when it starts, plus its own
// transaction's changes (PostgreSQL's READ COMMITTED). Reads never wait.
// Writers take turns: a session takes the database's right to write at
// its first change and keeps it until its transaction ends, so another
// session's change waits, as long as SET lock_timeout allows (for ever by
// default, or Options.LockTimeout; after it, SQLSTATE 55P03). A goroutine that holds a transaction
// open in one session and writes through another would wait for itself:
// set a lock timeout, or write through the session that holds the
// transaction.
type Session struct {
	db *DB
	s  *engine.Session
	// notes are notifications taken and not yet returned
	// (WaitForNotification).
	notes []Notification
}

// Session opens a session. Close it when done: an open transaction is
// rolled back.
func (db *DB) Session() *Session { return &Session{db: db, s: db.newSession()} }

// SessionAs opens a session that acts as role: each of its statements
// needs the role's privileges (GRANT … TO role), and catalog changes, COPY
// from a file and role management need a superuser role (SQLSTATE 42501
// otherwise). It is an error (42704) if the role does not exist. A session
// from Session, and the DB's own methods, act as a superuser.
func (db *DB) SessionAs(role string) (*Session, error) {
	s := db.newSession()
	if err := s.SetRole(role); err != nil {
		s.Close()
		return nil, err
	}
	return &Session{db: db, s: s}, nil
}

// Role returns the role the session acts as; empty for a session of
// Session, which acts as a superuser.
func (s *Session) Role() string { return s.s.RoleName() }

// Close rolls back an open transaction, ends the session's SUBSCRIBE
// statements, and ends the session.
func (s *Session) Close() error {
	s.s.Close()
	return nil
}

// InTransaction reports whether a transaction block is open (BEGIN, or a
// Tx from Begin).
func (s *Session) InTransaction() bool { return s.s.InBlock() }

// Exec runs a script of one or more SQL statements and discards their
// result sets. It stops at the first error, which is a *ScriptError.
func (s *Session) Exec(script string) error {
	return s.s.ExecScript(script, func(engine.Result) error { return nil })
}

// Query runs one SQL statement and returns its result set (empty when the
// statement returns none).
func (s *Session) Query(query string) (*Rows, error) {
	st, err := parseOne(query)
	if err != nil {
		return nil, err
	}
	return resultRows(s.s.Exec(st))
}

// ExecStmt runs a prepared statement in the session, within its open
// transaction if there is one, and returns the number of rows it
// inserted, updated, deleted or returned.
func (s *Session) ExecStmt(st *Stmt, args ...Value) (int64, error) {
	res, err := s.execStmt(st, args)
	return affected(res), err
}

// QueryStmt runs a prepared statement in the session and returns its
// result set.
func (s *Session) QueryStmt(st *Stmt, args ...Value) (*Rows, error) {
	return resultRows(s.execStmt(st, args))
}

func (s *Session) execStmt(st *Stmt, args []Value) ([]engine.Result, error) {
	if st.db != s.db {
		return nil, pgerr.New(pgerr.InvalidParameter, "the statement was prepared on another database")
	}
	return s.s.ExecPrepared(st.p, args)
}

// Begin opens a transaction of typed changes in the session; it is an
// error (25001) if one is open.
func (s *Session) Begin() (*Tx, error) {
	if err := s.s.Begin(); err != nil {
		return nil, err
	}
	return &Tx{s: s.s, db: s.db}, nil
}

// Result is what one statement of a script returns: a result set when
// HasRows, the command tag ("INSERT 0 3", "SELECT 2", "COMMIT"), and the
// notices it raised. The result sets of SUBSCRIBE statements (columns ts,
// diff, then the view's) are Results of their own, after the statement
// during which they arrived.
type Result struct {
	Columns []Column
	Rows    [][]Value
	HasRows bool
	Tag     string
	// CopyOut is the data COPY … TO STDOUT wrote, in the format it asked
	// for; nil for other statements.
	CopyOut []byte
	Notices []string
	// levels are the severities of the notices that are not NOTICEs.
	levels map[int]string
	types  []value.Type
	style  value.TextStyle // the session's IntervalStyle when the statement ended, for Print
	zone   value.Zone      // the session's TimeZone then, for Print
}

// Run runs a script, calling fn with each statement's Result, in order.
// It stops at the first error: fn's, or a *ScriptError.
func (s *Session) Run(script string, fn func(*Result) error) error {
	return s.s.ExecScript(script, func(r engine.Result) error {
		out := &Result{Columns: columnsOf(r), HasRows: r.HasRows, Tag: r.Tag, Notices: r.Notices, levels: r.NoticeLevels,
			Rows: copyRows(r.Rows), types: make([]value.Type, len(r.Columns)), style: s.s.TextStyle(), zone: s.s.TimeZone()}
		if r.CopyOut != nil {
			out.CopyOut = r.CopyOut.Data
		}
		for i, c := range r.Columns {
			out.types[i] = c.Type
		}
		return fn(out)
	})
}

// NoticeSeverity is the severity of the i-th notice: NOTICE, or INFO or
// WARNING for PL/pgSQL's RAISE INFO and RAISE WARNING.
func (r *Result) NoticeSeverity(i int) string {
	return engine.Result{NoticeLevels: r.levels}.NoticeLevel(i)
}

// PrintOptions choose how Result.Print prints a result set.
type PrintOptions struct {
	// Format is "table" (psql's aligned format; also when empty), "csv"
	// (psql --csv) or "json" (an array of objects).
	Format string
	// Null is printed for SQL NULL in the table and csv formats.
	Null string
}

// Print writes the result set as psql prints it, in PostgreSQL's text
// format (intervals in the session's IntervalStyle), followed by an empty line (a newline in json); a Result without
// rows prints nothing.
func (r *Result) Print(w io.Writer, o PrintOptions) error {
	if r.CopyOut != nil {
		_, err := w.Write(r.CopyOut)
		return err
	}
	if !r.HasRows {
		return nil
	}
	set := &resultfmt.Set{Columns: make([]resultfmt.Column, len(r.Columns)), Rows: make([]value.Row, len(r.Rows))}
	for i, c := range r.Columns {
		set.Columns[i] = resultfmt.Column{Name: c.Name, Type: r.types[i]}
	}
	for i, row := range r.Rows {
		set.Rows[i] = row
	}
	return resultfmt.Write(w, set, resultfmt.Options{Format: o.Format, Null: o.Null, TextStyle: r.style, TimeZone: r.zone})
}

// ScriptError is an error in one statement of a script: Err, and SQL, the
// text of the statement, for FormatError.
type ScriptError = engine.ScriptError

// FormatError prints err as psql prints a server error: "ERROR:  message
// (SQLSTATE code)", then, for an error in a statement of a script with a
// position, the statement's line with a caret under the position, then
// DETAIL and HINT lines.
func FormatError(err error) string {
	var se *ScriptError
	if errors.As(err, &se) {
		return pgerr.Format(se.Err, se.SQL)
	}
	return pgerr.Format(err, "")
}

// HasRoles reports whether the database's catalog holds a role (CREATE
// ROLE): servers then ask clients to log in as one.
func (db *DB) HasRoles() bool { return db.e.HasRoles() }
