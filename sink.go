package deltaview

import (
	"database/sql"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sink"
)

// Target is a keyed table outside deltaview that a materialized view is
// kept in: at every commit that changes the view, its explicit delta is
// applied to the table with MERGE semantics (INSERT; UPDATE; UPDATE of the
// known columns; INSERT … ON CONFLICT DO UPDATE; DELETE that must find its
// row; DELETE if present) inside one target transaction, committed with
// the view or not at all.
type Target = engine.Sink

// SQLiteDatabase is a SQLite database whose tables keep views; the tables
// of one database change in one transaction per commit.
type SQLiteDatabase struct{ d *sink.SQLiteDB }

// SQLite returns the database db (a database/sql handle opened with a
// SQLite driver, such as modernc.org/sqlite's "sqlite").
func SQLite(db *sql.DB) *SQLiteDatabase { return &SQLiteDatabase{d: sink.NewSQLiteDB(db)} }

// Table returns a target that keeps a view in table, created when missing
// and replaced by the view's rows when attached.
func (s *SQLiteDatabase) Table(table string) Target { return s.d.Table(table) }

// PostgresDatabase is a PostgreSQL connection whose tables keep views.
type PostgresDatabase struct{ d *sink.PostgresDB }

// Postgres returns the database reached through conn.
func Postgres(conn *pgx.Conn) *PostgresDatabase {
	return &PostgresDatabase{d: sink.NewPostgresDB(conn)}
}

// Table returns a target that keeps a view in table, created when missing
// and replaced by the view's rows when attached.
func (p *PostgresDatabase) Table(table string) Target { return p.d.Table(table) }

// SinkTo keeps view in target from now on: the target is loaded with the
// view's rows, then receives its delta at every commit. A target that
// fails fails the commit, which is rolled back. The view must be keyed:
// maintained by partial propagation, or a select-project-join view that
// keeps its root table's primary key. detach stops it.
func (db *DB) SinkTo(view string, target Target) (detach func(), err error) {
	return db.e.AttachSink(view, target)
}
