package sink

import (
	"context"
	"database/sql"
	"strings"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var _ engine.Sink = (*SQLite)(nil)

// SQLite keeps a view in a table of a SQLite database (any database/sql
// handle to SQLite, such as modernc.org/sqlite's "sqlite" driver). It keeps
// nothing but the open transaction of the step being applied and its
// statements' text. Integers and booleans are stored as INTEGER, floats as
// REAL, everything else as its PostgreSQL text form.
type SQLite struct {
	d      *SQLiteDB
	db     *sql.DB
	table  string
	g      *gen
	schema *delta.Schema
	// epoch, when set, makes every transaction record (epoch, step) in
	// the target's progress table (progress.go).
	epoch string
	defs  []string // column definitions
	keys  []string // quoted key columns
}

// SQLiteDB is a SQLite database holding views' tables. The sinks of one
// database share its transaction: the first Prepare of a commit opens it,
// every sink adds its statements, the first Commit commits them all and
// an Abort rolls them all back — so the views' tables change together,
// once per step, as the engine's views do.
type SQLiteDB struct {
	db   *sql.DB
	tx   *sql.Tx
	base context.Context // the calls' context: a foreign table's, which its drop cancels
}

// NewSQLiteDB returns the database of db, a database/sql handle to SQLite.
func NewSQLiteDB(db *sql.DB) *SQLiteDB { return &SQLiteDB{db: db, base: context.Background()} }

// Table returns a sink into table; Open creates the table if it does not
// exist.
func (d *SQLiteDB) Table(table string) *SQLite { return &SQLite{d: d, db: d.db, table: table} }

// NewSQLite returns a sink into table of db, with a database of its own.
func NewSQLite(db *sql.DB, table string) *SQLite { return NewSQLiteDB(db).Table(table) }

func sqliteType(k value.Kind) string {
	switch {
	case k.IsInteger(), k == value.Bool:
		return "INTEGER"
	case k.IsFloat():
		return "REAL"
	}
	return "TEXT"
}

func (s *SQLite) arg(v value.Value, i int) any {
	if v.IsNull() {
		return nil
	}
	switch k := v.Kind(); {
	case k.IsInteger():
		return v.Int()
	case k == value.Bool:
		if v.Bool() {
			return int64(1)
		}
		return int64(0)
	case k.IsFloat():
		return v.Float()
	}
	return text(v)
}

// setup makes s's statements for v, without I/O.
func (s *SQLite) setup(v engine.SinkView) error {
	s.g = newGen(v, s.table, func(n, _ int) string { return "?" + itoa(n) })
	names := make([]string, len(v.Columns))
	s.defs = make([]string, len(v.Columns))
	for i, c := range v.Columns {
		names[i] = c.Name
		s.defs[i] = quote(c.Name) + " " + sqliteType(c.Type.Kind)
	}
	var err error
	if s.schema, err = delta.NewSchema(v.Name, names, v.Key); err != nil {
		return err
	}
	s.keys = make([]string, len(v.Key))
	for i, k := range v.Key {
		s.keys[i] = quote(v.Columns[k].Name)
	}
	return nil
}

// Open implements engine.Sink.
func (s *SQLite) Open(v engine.SinkView, rows []value.Row) error {
	if err := s.setup(v); err != nil {
		return err
	}
	ctx := s.d.base
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.err(err)
	}
	defer tx.Rollback()
	qs := []string{
		"CREATE TABLE IF NOT EXISTS " + quote(s.table) + " (" + strings.Join(s.defs, ", ") + ", PRIMARY KEY (" + strings.Join(s.keys, ", ") + "))",
		"DELETE FROM " + quote(s.table),
	}
	if s.epoch != "" {
		qs = append(qs, progressDDL)
	}
	for _, q := range qs {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return s.err(err)
		}
	}
	ins := s.g.insert(false)
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, ins, s.args(r)...); err != nil {
			return s.err(err)
		}
	}
	if s.epoch != "" {
		if _, err := tx.ExecContext(ctx, progressUpsert("?"), s.table, s.epoch, int64(v.Step)); err != nil {
			return s.err(err)
		}
	}
	return s.err(tx.Commit())
}

func (s *SQLite) args(vals []value.Value) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = s.arg(v, i)
	}
	return out
}

// Prepare implements engine.Sink: one statement per change, in one
// transaction left open.
func (s *SQLite) Prepare(step uint64, changes delta.Batch) error {
	ctx := s.d.base
	if s.d.tx == nil {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return s.err(err)
		}
		s.d.tx = tx
	}
	tx := s.d.tx
	for _, c := range changes {
		st := s.g.statement(s.schema, c)
		res, err := tx.ExecContext(ctx, st.sql, s.args(st.args)...)
		if err != nil {
			s.Abort()
			if strings.Contains(err.Error(), "UNIQUE constraint failed") {
				err = pgerr.New(pgerr.UniqueViolation, "the key exists already")
			}
			return s.g.failed(st, err)
		}
		if st.must {
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				s.Abort()
				return s.g.noRow(st)
			}
		}
	}
	if s.epoch != "" {
		if _, err := tx.ExecContext(ctx, progressUpsert("?"), s.table, s.epoch, int64(step)); err != nil {
			s.Abort()
			return s.err(err)
		}
	}
	return nil
}

// Commit implements engine.Sink: it commits the database's transaction,
// if still open.
func (s *SQLite) Commit() error {
	tx := s.d.tx
	s.d.tx = nil
	if tx == nil {
		return nil
	}
	return s.err(tx.Commit())
}

// Abort implements engine.Sink.
func (s *SQLite) Abort() {
	if s.d.tx != nil {
		s.d.tx.Rollback()
		s.d.tx = nil
	}
}

func (s *SQLite) err(err error) error {
	if err == nil {
		return nil
	}
	return pgerr.New("58000", "SQLite table %s: %v", s.table, err)
}
