// Package sqlite keeps materialized views in SQLite tables: each commit's
// explicit delta of a view is applied to its table with MERGE semantics,
// in one SQLite transaction per commit shared by the database's tables,
// committed with the view or not at all.
//
// Importing it also makes CREATE SERVER … FOREIGN DATA WRAPPER and
// CREATE FOREIGN TABLE … OPTIONS (view 'v') available in SQL (docs/sql.md).
//
// It is its own package so that a program that embeds deltaview links
// database/sql and a SQLite driver only when it keeps views in SQLite.
// Importing it registers modernc.org/sqlite's driver as "sqlite".
package sqlite

import (
	"database/sql"

	_ "modernc.org/sqlite" // the driver Database's handles are opened with

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/sink"
)

// DB is a SQLite database whose tables keep views.
type DB struct{ d *sink.SQLiteDB }

// Database returns the database of db, a database/sql handle to SQLite
// (sql.Open("sqlite", path) once this package is imported).
func Database(db *sql.DB) *DB { return &DB{d: sink.NewSQLiteDB(db)} }

// Table returns a target that keeps a view in table, created when missing
// and replaced by the view's rows when attached with deltaview's
// DB.SinkTo. Integers and booleans are stored as INTEGER, floats as REAL,
// everything else as its PostgreSQL text form.
func (db *DB) Table(table string) deltaview.Target { return db.d.Table(table) }
