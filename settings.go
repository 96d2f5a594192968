package deltaview

import (
	"io"

	"github.com/deltaview/deltaview/internal/engine"
)

// Settings and figures of a whole database, the Go counterparts of
// deltaview.max_memory, deltaview.refill_notice, the system views and
// EXPLAIN of a live view.

// SetMaxMemory sets the database-wide memory budget of all views' state in
// bytes, as SET deltaview.max_memory does; 0 (or less) removes it. A
// commit that takes the views over it succeeds and raises a notice; a
// cold start or an ad-hoc query that would exceed it fails with SQLSTATE
// 53200.
func (db *DB) SetMaxMemory(bytes int64) {
	if bytes < 0 {
		bytes = 0
	}
	db.e.SetMaxMemory(bytes)
}

// SetRefillNotice sets how many times one view may refill its MIN/MAX
// reserves or top-k windows from their index in one commit before the
// commit raises a notice, as SET deltaview.refill_notice does: 0 raises one
// on every refill, a negative number turns the notice off, and
// DefaultRefillNotice restores the default.
func (db *DB) SetRefillNotice(n int64) { db.e.SetRefillNotice(n) }

// SetWorkers sets how many goroutines prepare the views of one commit, as
// SET deltaview.workers does: views that do not read one another step at
// once, with the same results as one after the other. 1 keeps every step
// on the committing goroutine; 0 (the default) uses GOMAXPROCS. A commit
// whose batches hold fewer than 1,024 rows (512 updates: an update is
// its old row and its new) runs on the committing goroutine alone
// whatever the workers.
func (db *DB) SetWorkers(n int) { db.e.SetWorkers(n) }

// DefaultRefillNotice is the refill notice threshold of a new database.
const DefaultRefillNotice = engine.DefaultRefillNotice

// SetFileOpener sets the function that opens the file of COPY … FROM
// 'file', as Options.OpenFile does; nil refuses such statements.
func (db *DB) SetFileOpener(open func(name string) (io.ReadCloser, error)) {
	db.e.SetFileOpener(open)
}

// StateSize is the state some views hold: rows and bytes.
type StateSize struct {
	Rows  int64
	Bytes int64
}

// Memory is the state memory of a database's materialized views.
type Memory struct {
	// Views is each view's state: all it uses, each piece once, shared
	// with other views or not.
	Views map[string]StateSize
	// Total counts each piece of state once, however many views use it.
	Total StateSize
}

// Memory returns the state each materialized view holds and their total,
// the figures deltaview_views.state_bytes and the budgets read.
func (db *DB) Memory() Memory {
	r := db.e.Memory()
	m := Memory{Views: make(map[string]StateSize, len(r.Views)), Total: StateSize(r.Total)}
	for name, s := range r.Views {
		m.Views[name] = StateSize(s)
	}
	return m
}

// ExplainView returns the plan of an existing materialized view with its
// live figures (operators' state, rows, steps), one line per element, as
// EXPLAIN of the view prints it.
func (db *DB) ExplainView(name string) ([]string, error) {
	res, err := db.e.ExplainView(name)
	if err != nil {
		return nil, err
	}
	return explainLines(res), nil
}

func explainLines(res engine.Result) []string {
	lines := make([]string, len(res.Rows))
	for i, r := range res.Rows {
		lines[i] = r[0].String()
	}
	return lines
}
