// Package deltaview is an incremental view maintenance engine: it keeps SQL
// materialized views up to date by applying to each view a correction
// proportional to what changed, never by running the view's query again.
//
// A DB holds tables and views in memory. SQL goes in through Exec and
// Query (PostgreSQL's dialect); typed changes go in through a Tx; every
// committed transaction steps every view once, and subscribers receive each
// view's consolidated delta.
package deltaview

import (
	"errors"
	"io"
	"sync"
	"time"

	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// DB is an in-memory deltaview database. Its methods are safe for
// concurrent use. Each call that runs SQL runs in a session of its own
// (see Session), so a transaction cannot span two calls on the DB:
// statements that read never wait for another session's open transaction,
// and writers take turns, each transaction's changes committed or rolled
// back as a whole.
type DB struct {
	e           *engine.Engine
	lockTimeout time.Duration
	file        io.Closer // the store of a DB opened by OpenFile
	clock       clockTimer
	// txSessions holds the closed sessions of ended transactions (Begin),
	// reset, for the next Begin: a transaction of one change then costs
	// no session of its own.
	txSessions sync.Pool
}

// Options configure a database.
type Options struct {
	// Progress is told of the progress of long work (the cold start of a
	// materialized view, a COPY), between batches, on the goroutine that
	// runs it, while the database is locked: it must not call the
	// database.
	Progress func(Progress)
	// OpenFile opens the file of COPY … FROM 'file'; nil (the default)
	// refuses such statements. If the reader has a Size() int64 method,
	// progress counts bytes out of that size.
	OpenFile func(name string) (io.ReadCloser, error)
	// CreateFile creates the file of COPY … TO 'file' (an absolute path);
	// nil (the default) refuses such statements.
	CreateFile func(name string) (io.WriteCloser, error)
	// LockTimeout is every session's lock_timeout to begin with: how long
	// a change waits for another session's transaction before it fails
	// with SQLSTATE 55P03. 0 (the default) waits for ever, so that a
	// goroutine that holds a Tx open and writes through the DB waits for
	// itself; a timeout turns that into an error.
	LockTimeout time.Duration
	// Clock is the time source of temporal filters (a view's WHERE ts >
	// now() - interval '1 hour'); nil is the wall clock. Rows enter and
	// leave views at each commit and, while the database is open, when
	// a timer set for the next instant at which one does fires; the
	// timer waits as long as Clock says remains.
	Clock func() time.Time
}

// Progress reports how far long work has come: Done out of Total (-1 when
// unknown) Units, after Elapsed; Finished on the last report.
type Progress = engine.Progress

// Open returns an empty in-memory database.
func Open() *DB { return OpenWith(Options{}) }

// OpenWith returns an empty in-memory database configured by o.
func OpenWith(o Options) *DB {
	e := engine.New()
	if o.Progress != nil {
		e.SetProgress(o.Progress)
	}
	if o.OpenFile != nil {
		e.SetFileOpener(o.OpenFile)
	}
	if o.CreateFile != nil {
		e.SetFileCreator(o.CreateFile)
	}
	db := &DB{e: e, lockTimeout: o.LockTimeout}
	if o.Clock != nil {
		e.SetClockSource(o.Clock)
	}
	db.clock.init(e, o.Clock)
	return db
}

// newSession opens a session with the database's settings.
func (db *DB) newSession() *engine.Session {
	s := db.e.NewSession()
	s.SetLockTimeout(db.lockTimeout)
	return s
}

// Error is the error every failing call returns: a SQLSTATE code, a
// message and, for errors in SQL text, a 1-based character position.
type Error = pgerr.Error

// Code returns the SQLSTATE of err ("XX000" when err carries none).
func Code(err error) string { return pgerr.Code(err) }

// Column is a result column: its name and its PostgreSQL type name.
type Column struct {
	Name string
	Type string
}

// Rows is a result set.
type Rows struct {
	Columns []Column
	Rows    [][]Value
}

func toRows(cols []Column, rows []value.Row) *Rows {
	return &Rows{Columns: cols, Rows: copyRows(rows)}
}

// copyRows copies rows into one allocation: the engine's rows are its
// stored state (a view's, a table's), which a caller changing a returned
// row would change under it.
func copyRows(rows []value.Row) [][]Value {
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	slab := make([]Value, n)
	out := make([][]Value, len(rows))
	for i, r := range rows {
		k := copy(slab, r)
		out[i], slab = slab[:k:k], slab[k:]
	}
	return out
}

func columnsOf(res engine.Result) []Column {
	cols := make([]Column, len(res.Columns))
	for i, c := range res.Columns {
		cols[i] = Column{Name: c.Name, Type: c.Type.String()}
	}
	return cols
}

// Exec runs a script of one or more SQL statements in a session of its
// own and discards their result sets. It stops at the first error. A
// script may hold whole transaction blocks (BEGIN; …; COMMIT); one that
// ends inside a block has that block rolled back and fails with SQLSTATE
// 25000: a transaction that spans calls needs a Session.
func (db *DB) Exec(script string) error {
	s := db.newSession()
	defer s.Close()
	if err := s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
		return err
	}
	return endedInBlock(s)
}

// endedInBlock is the error of a call on the DB that leaves its session
// inside a transaction block, which Close then rolls back.
func endedInBlock(s *engine.Session) error {
	if !s.InBlock() {
		return nil
	}
	return pgerr.New(pgerr.InvalidTxState, "the statements ended inside a transaction block, which was rolled back").
		WithHint("each call on a DB runs in a session of its own: use DB.Session for a transaction that spans calls, or DB.Begin for typed changes")
}

// Query runs one SQL statement in a session of its own and returns its
// result set (empty when the statement returns none). It reads the
// committed state, without waiting for other sessions' transactions.
func (db *DB) Query(query string) (*Rows, error) {
	st, err := parseOne(query)
	if err != nil {
		return nil, err
	}
	s := db.newSession()
	defer s.Close()
	res, err := s.Exec(st)
	if err == nil {
		err = endedInBlock(s)
	}
	return resultRows(res, err)
}

// parseOne parses one statement; an empty text is a syntax error.
func parseOne(query string) (*sql.Stmt, error) {
	s, err := sql.Parse(query)
	if err == nil && s == nil {
		err = pgerr.New(pgerr.SyntaxError, "empty query")
	}
	return s, err
}

// View returns a materialized view's maintained rows, in its canonical
// order, as last committed. It never runs the view's query, and never
// waits for an open transaction.
func (db *DB) View(name string) (*Rows, error) {
	cols, rows, err := db.e.ViewRows(name)
	if err != nil {
		return nil, err
	}
	return toRows(columnsOf(engine.Result{Columns: cols}), rows), nil
}

// Tx is a transaction of typed changes (and prepared statements, Tx.Exec)
// in a session. It takes the database's right to write at its first
// change and keeps it until Commit or Rollback: other writers wait for it,
// readers do not. A Tx is used by one goroutine at a time.
type Tx struct {
	s    *engine.Session
	db   *DB
	own  bool // the session is the Tx's own (DB.Begin), closed at its end
	done bool
}

// ErrTxDone is returned by a Tx's methods after Commit or Rollback.
var ErrTxDone = errors.New("deltaview: transaction already committed or rolled back")

// Begin opens a transaction in a session of its own. It is small enough
// to be inlined, so that a caller's Tx need not be allocated.
func (db *DB) Begin() (*Tx, error) {
	return &Tx{s: db.txSession(), db: db, own: true}, nil
}

// txSession returns a new session in a transaction block, for a Tx of
// its own: a closed one of an earlier Tx, reset, when there is one.
func (db *DB) txSession() *engine.Session {
	s, _ := db.txSessions.Get().(*engine.Session)
	if s == nil {
		s = new(engine.Session)
	}
	db.e.InitTxSession(s)
	if db.lockTimeout != 0 {
		// A new session already waits for ever and acts as the
		// superuser: setting the default again would only apply the
		// settings anew (a few map lookups a transaction).
		s.SetLockTimeout(db.lockTimeout)
	}
	return s
}

// endTxSession closes a Tx's own session and keeps it for the next Tx:
// the Tx, marked done, never uses it again.
func (db *DB) endTxSession(s *engine.Session) {
	s.Close()
	db.txSessions.Put(s)
}

// Insert adds a row to a table. Values are converted to the column types
// as INSERT assigns them: a number out of an integer column's range, or a
// string too long for a varchar(n) or char(n) column, is an error.
//
// Insert, Delete, Update, Replace and ReplaceRows fire the table's
// triggers (CREATE TRIGGER) as a statement of one row would, each row a
// statement of its own; an error of a trigger takes back that change
// alone. A table without triggers pays nothing for them.
func (tx *Tx) Insert(table string, row ...Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.s.Insert(table, row)
}

// Delete removes one row equal to row from a table.
func (tx *Tx) Delete(table string, row ...Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.s.Delete(table, row)
}

// Update replaces one row equal to old by new.
func (tx *Tx) Update(table string, old, new []Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.s.Update(table, old, new)
}

// Replace replaces the row whose primary key equals row's by row: an
// update that needs no copy of the old row. It is an error (02000) if there
// is no such row, and (42P10) if the table has no primary key.
func (tx *Tx) Replace(table string, row ...Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.s.Replace(table, row)
}

// ReplaceRows is Replace of each of rows in turn, in one call: what a call
// costs beyond its row (the database's lock, the transaction's and the
// privilege's checks) is paid once for the batch. It stops at the first
// row that fails, with that row's error, and takes back the rows of this
// call replaced before it; the transaction's earlier changes stay. The
// slices of rows are not kept: the caller may reuse them once it returns.
func (tx *Tx) ReplaceRows(table string, rows [][]Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.s.ReplaceRows(table, rows)
}

// Commit applies the transaction's changes to every view at once. If a
// view cannot be maintained over the new rows (an expression fails), the
// whole transaction is rolled back and the error returned.
func (tx *Tx) Commit() error {
	if tx.done {
		return ErrTxDone
	}
	tx.done = true
	err := tx.s.Commit()
	if tx.own {
		tx.db.endTxSession(tx.s)
	}
	return err
}

// Rollback abandons the transaction.
func (tx *Tx) Rollback() error {
	if tx.done {
		return ErrTxDone
	}
	tx.done = true
	tx.s.Rollback()
	if tx.own {
		tx.db.endTxSession(tx.s)
	}
	return nil
}

func init() {
	dbaccess.NewSession = func(db any) *engine.Session { return db.(*DB).newSession() }
	dbaccess.Engine = func(db any) *engine.Engine { return db.(*DB).e }
}
