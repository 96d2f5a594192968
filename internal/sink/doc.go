// Package sink applies materialized views' explicit deltas to keyed tables
// outside the engine — a SQLite table (SQLite) or a PostgreSQL table
// (Postgres) — with MERGE semantics, through generated statements inside
// one target transaction per step:
//
//	Insert             INSERT INTO t (…) VALUES (…)          (a conflict is 23505)
//	Update             UPDATE t SET every column WHERE key   (must change one row)
//	PartialUpdate      UPDATE t SET the known columns …      (must change one row)
//	Upsert             INSERT … ON CONFLICT (key) DO UPDATE
//	Delete             DELETE FROM t WHERE key               (must delete one row)
//	TruePartialDelete  DELETE FROM t WHERE key               (must delete one row)
//	SafePartialDelete  DELETE FROM t WHERE key
//
// A statement that must find its row and does not fails the step with
// P0002, naming the key; the engine adds the view and the step, rolls the
// target transaction back and the engine's transaction with it. Both types
// implement engine.Sink; the core never imports this package, and the
// public packages sink/sqlite and sink/postgres hand them to users.
//
// Example:
//
//	db, _ := sql.Open("sqlite", "views.db")
//	detach, err := e.AttachSink("dim", sink.NewSQLite(db, "dim"))
package sink
