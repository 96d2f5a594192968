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
	"sync"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// DB is an in-memory deltaview database. Its methods are safe for
// concurrent use; statements run one at a time.
type DB struct {
	mu sync.Mutex
	e  *engine.Engine
}

// Open returns an empty in-memory database.
func Open() *DB {
	return &DB{e: engine.New()}
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
	out := &Rows{Columns: cols, Rows: make([][]Value, len(rows))}
	for i, r := range rows {
		out.Rows[i] = r
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

// Exec runs a script of one or more SQL statements and discards their
// result sets. It stops at the first error.
func (db *DB) Exec(script string) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.e.ExecScript(script, func(engine.Result) error { return nil })
}

// Query runs one SQL statement and returns its result set (empty when the
// statement returns none).
func (db *DB) Query(query string) (*Rows, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	s, err := parseOne(query)
	if err != nil {
		return nil, err
	}
	return resultRows(db.e.Exec(s))
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
// order. It never runs the view's query.
func (db *DB) View(name string) (*Rows, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	cols, rows, err := db.e.ViewRows(name)
	if err != nil {
		return nil, err
	}
	return toRows(columnsOf(engine.Result{Columns: cols}), rows), nil
}

// Tx is a transaction of typed changes. It holds the database until Commit
// or Rollback.
type Tx struct {
	db   *DB
	done bool
}

// ErrTxDone is returned by a Tx's methods after Commit or Rollback.
var ErrTxDone = errors.New("deltaview: transaction already committed or rolled back")

// Begin opens a transaction.
func (db *DB) Begin() (*Tx, error) {
	db.mu.Lock()
	if err := db.e.Begin(); err != nil {
		db.mu.Unlock()
		return nil, err
	}
	return &Tx{db: db}, nil
}

// Insert adds a row to a table. Values are converted to the column types
// as INSERT assigns them: a number out of an integer column's range, or a
// string too long for a varchar(n) or char(n) column, is an error.
func (tx *Tx) Insert(table string, row ...Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.db.e.Insert(table, row)
}

// Delete removes one row equal to row from a table.
func (tx *Tx) Delete(table string, row ...Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.db.e.Delete(table, row)
}

// Update replaces one row equal to old by new.
func (tx *Tx) Update(table string, old, new []Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.db.e.Update(table, old, new)
}

// Replace replaces the row whose primary key equals row's by row: an
// update that needs no copy of the old row. It is an error (02000) if there
// is no such row, and (42P10) if the table has no primary key.
func (tx *Tx) Replace(table string, row ...Value) error {
	if tx.done {
		return ErrTxDone
	}
	return tx.db.e.Replace(table, row)
}

// Commit applies the transaction's changes to every view at once. If a
// view cannot be maintained over the new rows (an expression fails), the
// whole transaction is rolled back and the error returned.
func (tx *Tx) Commit() error {
	if tx.done {
		return ErrTxDone
	}
	tx.done = true
	defer tx.db.mu.Unlock()
	return tx.db.e.Commit()
}

// Rollback abandons the transaction.
func (tx *Tx) Rollback() error {
	if tx.done {
		return ErrTxDone
	}
	tx.done = true
	defer tx.db.mu.Unlock()
	tx.db.e.Rollback()
	return nil
}
