package engine

import (
	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/sql"
)

// funcSnapshot keeps which state of the tables the functions a statement
// calls read, as PostgreSQL's snapshots decide it: a VOLATILE function
// takes a fresh snapshot at each of its queries, which holds everything
// written so far, the calling statement's own earlier rows included (the
// rows an INSERT … SELECT inserted before, the rows an UPDATE changed
// before); a STABLE or IMMUTABLE function reads with the snapshot of the
// query that calls it, which holds none of that query's own writes.
//
// The writer changes tables in place, so reading them as they are is the
// fresh snapshot; a query notes where the transaction's log stood when it
// began (beginQuery), and the queries of a function that is not volatile
// read the tables as of that point (asOf), the changes logged since undone
// on the fly.
type funcSnapshot struct {
	// query is the log's length, plus one, when the innermost running
	// query began; 0 for none.
	query int
	// pinned is the log's length, plus one, that the running function's
	// queries read at; 0 when they read the tables as they are.
	pinned int
}

// beginQuery notes that a query of the writer starts: the non-volatile
// functions it calls read the tables as they are now. It returns what
// ends the query.
func (e *Engine) beginQuery() (end func()) {
	if e.tx == nil {
		return func() {}
	}
	prev := e.snap.query
	e.snap.query = len(e.tx.log) + 1
	return func() { e.snap.query = prev }
}

// enterFunction sets the snapshot of a call of a function of volatility
// (as sql.Function.Volatility): the tables as they are for a volatile
// one, else the snapshot its caller reads with (that of an enclosing
// non-volatile function, or of the calling query). It returns what ends
// the call.
func (e *Engine) enterFunction(volatility string) (leave func()) {
	prev := e.snap.pinned
	switch {
	case volatility != "stable" && volatility != "immutable":
		e.snap.pinned = 0
	case prev == 0:
		e.snap.pinned = e.snap.query
	}
	return func() { e.snap.pinned = prev }
}

// pinnedSource returns the source a function's query reads: src, or the
// tables as of the pinned snapshot inside a non-volatile function.
func (e *Engine) pinnedSource(src exec.Source) exec.Source {
	if e.snap.pinned == 0 || e.tx == nil {
		return src
	}
	mark := min(e.snap.pinned-1, len(e.tx.log))
	if mark == len(e.tx.log) {
		return src // nothing written since
	}
	return asOf{e: e, mark: mark}
}

// volatilityOf is the volatility of the function a call of sig runs, f:
// that of the function in the catalog now, which ALTER FUNCTION may have
// changed since f, the form a SQL function runs as, was made.
func (e *Engine) volatilityOf(sig string, f *sql.Function) string {
	fsig, _ := sql.SplitRoutineSig(sig)
	if base, _ := e.function(fsig, f.Name); base != nil {
		return base.Volatility
	}
	return f.Volatility
}
