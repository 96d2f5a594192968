package deltaview

import "github.com/deltaview/deltaview/internal/engine"

// Target is a keyed table outside deltaview that a materialized view is
// kept in: at every commit that changes the view, its explicit delta is
// applied to the table with MERGE semantics (INSERT; UPDATE; UPDATE of the
// known columns; INSERT … ON CONFLICT DO UPDATE; DELETE that must find its
// row; DELETE if present) inside one target transaction, committed with
// the view or not at all. The packages sink/sqlite and sink/postgres
// provide targets; the root package links no database driver.
type Target = engine.Sink

// SinkTo keeps view in target from now on: the target is loaded with the
// view's rows, then receives its delta at every commit. A target that
// fails fails the commit, which is rolled back. The view must be keyed:
// maintained by partial propagation, or a select-project-join view that
// keeps its root table's primary key. detach stops it.
func (db *DB) SinkTo(view string, target Target) (detach func(), err error) {
	return db.e.AttachSink(view, target)
}
