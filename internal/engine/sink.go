package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Sink is a keyed target outside the engine (a table of SQLite or
// PostgreSQL) that receives a materialized view's explicit delta at every
// commit that changes the view, and applies it with MERGE semantics
// (delta.MergeRules), as the view's own rows apply it.
//
// The engine calls a sink on its own goroutine, during the commit:
// Prepare with the step's changes (net: at most one per key), then Commit
// once every view and every sink has prepared, or Abort when anything
// failed. Prepare applies the changes inside one target transaction that
// it leaves open; Commit commits it, Abort rolls it back. An error of
// Prepare or of the first Commit rolls the engine's transaction back
// too, so that nothing is half-applied; a sink whose Commit fails after
// another sink has committed is detached and reported.
type Sink interface {
	// Open makes the target hold exactly rows (the view's current
	// contents), creating it if needed, in one target transaction.
	Open(v SinkView, rows []value.Row) error
	Prepare(step uint64, changes delta.Batch) error
	Commit() error
	Abort()
}

// SinkView describes the view a sink receives: its name, columns, the
// positions of its key columns, and the logical time of the rows Open
// receives (the last commit's).
type SinkView struct {
	Name    string
	Columns []plan.Column
	Key     []int
	Step    uint64
	// Temporal says the view reads the clock (a temporal filter), itself
	// or through a view it reads: its rows change as time passes, so a
	// target written before a restart is not known to hold them. (Such
	// a view has no key today, so no sink keeps one yet.)
	Temporal bool
}

type sinkAttach struct {
	view     string
	sink     Sink
	schema   *delta.Schema // the view's key, for converting Z-set deltas
	prepared bool
}

// AttachSink makes s receive view's explicit delta from now on, after
// loading the view's current rows into it. A view maintained by partial
// propagation gives its delta as it is; a view maintained by the Z-set
// dataflow gives its delta by key (a retraction and an assertion of one
// key are an update), which needs the view to keep a key: a
// select-project-join view that keeps its root table's key.
//
// It holds the write lock while it loads the view's rows, so that no
// commit falls between the load and the first delta; a transaction open in
// a session does not matter, as views change only at commit.
func (e *Engine) AttachSink(view string, s Sink) (detach func(), err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.views[view]
	if !ok {
		if e.unpopulated[view] != nil {
			return nil, errNotPopulated(view)
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", view)
	}
	schema, err := v.keyed(e)
	if err != nil {
		return nil, err
	}
	sv := SinkView{Name: view, Columns: v.meta().cols, Key: schema.Key, Step: e.ts, Temporal: e.readsClock(v, 0)}
	if err := s.Open(sv, v.rows()); err != nil {
		return nil, err
	}
	a := &sinkAttach{view: view, sink: s, schema: schema}
	e.sinks = append(e.sinks, a)
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		for i, x := range e.sinks {
			if x == a {
				e.sinks = append(e.sinks[:i], e.sinks[i+1:]...)
				return
			}
		}
	}, nil
}

// prepareSinks gives every sink its view's delta of the commit being made
// and, when all have prepared, commits them. On error it returns the
// failing sink's view; the sinks are rolled back and the caller rolls the
// engine's transaction back.
func (e *Engine) prepareSinks(deltas map[string]zset.ZSet) (string, error) {
	var prepared []*sinkAttach
	abort := func() {
		for _, a := range prepared {
			a.sink.Abort()
		}
	}
	step := e.ts + 1
	for _, a := range e.sinks {
		b := e.views[a.view].explicit(a.schema, deltas[a.view])
		if len(b) == 0 {
			continue
		}
		if err := a.sink.Prepare(step, b); err != nil {
			abort()
			pe := *pgerr.Wrap(err)
			pe.Message = fmt.Sprintf("sink of materialized view %s, step %d: %s", a.view, step, pe.Message)
			return a.view, &pe
		}
		prepared = append(prepared, a)
	}
	for i, a := range prepared {
		if err := a.sink.Commit(); err != nil {
			if i == 0 {
				prepared = prepared[1:]
				abort()
				pe := *pgerr.Wrap(err)
				pe.Message = fmt.Sprintf("sink of materialized view %s, step %d: commit: %s", a.view, step, pe.Message)
				return a.view, &pe
			}
			// Earlier sinks have committed: the engine commits too, and
			// this sink, now behind, is detached.
			for _, b := range prepared[i+1:] {
				if err := b.sink.Commit(); err != nil {
					e.detachFailed(b, step, err)
				}
			}
			e.detachFailed(a, step, err)
			return "", nil
		}
	}
	return "", nil
}

func (e *Engine) detachFailed(a *sinkAttach, step uint64, err error) {
	msg := fmt.Sprintf("sink of materialized view %s failed to commit step %d and was detached: %v", a.view, step, err)
	e.notices = append(e.notices, msg)
	if d, ok := a.sink.(Detachable); ok {
		d.Detached(msg)
	}
	for i, x := range e.sinks {
		if x == a {
			e.sinks = append(e.sinks[:i], e.sinks[i+1:]...)
			return
		}
	}
}

// readsClock says whether v reads the clock, itself or through the views
// it reads (depth bounds a cycle the catalog cannot hold anyway).
func (e *Engine) readsClock(v matView, depth int) bool {
	if zv, ok := v.(*zview); ok && len(zv.c.Temporal) > 0 {
		return true
	}
	if depth > 64 {
		return true
	}
	for _, r := range v.relations() {
		if w, ok := e.views[r]; ok && e.readsClock(w, depth+1) {
			return true
		}
	}
	return false
}
