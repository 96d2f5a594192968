// Package postgres keeps materialized views in PostgreSQL tables: each
// commit's explicit delta of a view is applied to its table with MERGE
// semantics, in one PostgreSQL transaction per commit shared by the
// database's tables, committed with the view or not at all.
//
// Importing it also makes CREATE SERVER … FOREIGN DATA WRAPPER and
// CREATE FOREIGN TABLE … OPTIONS (view 'v') available in SQL (docs/sql.md).
//
// It is its own package so that a program that embeds deltaview links
// pgx only when it keeps views in PostgreSQL.
package postgres

import (
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/sink"
)

// DB is a PostgreSQL connection whose tables keep views. The connection
// belongs to it while views are kept there: each commit opens, fills and
// commits a transaction on it.
type DB struct{ d *sink.PostgresDB }

// Database returns the database reached through conn.
func Database(conn *pgx.Conn) *DB { return &DB{d: sink.NewPostgresDB(conn)} }

// SetTimeout bounds each call to the server (a step's statements, its
// commit, the load of a table) by d, 30 s unless set; 0 for no bound. A
// call without an answer by then fails the commit with 08006 and closes
// the connection.
func (db *DB) SetTimeout(d time.Duration) { db.d.SetTimeout(d) }

// Table returns a target that keeps a view in table, created when missing
// and replaced by the view's rows when attached with deltaview's
// DB.SinkTo. Values travel in PostgreSQL's text form and are cast to the
// column's type.
func (db *DB) Table(table string) deltaview.Target { return db.d.Table(table) }
