package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Transition tables (CREATE TRIGGER … REFERENCING {OLD | NEW} TABLE AS
// name) keep, for one statement on a table with such a trigger, a copy of
// every row it inserted, updated or deleted, by event: the old rows and
// the new. As in PostgreSQL, the AFTER trigger's function reads them by
// their names in its queries, and only there: while it runs, the session
// holds a frame of them (transFrame) at the function's call depth, and
// the statements of its body are bound against a catalog that knows the
// names (transCatalog), under an engine name no statement can write,
// which the engine's Scan answers from the frame. Such statements are
// bound at every call (the names' rows differ from one call to the next);
// a statement that fires no such trigger keeps no copy.

// transFrame is the transition tables of a trigger call: by the name the
// body uses.
type transFrame struct {
	depth int // the session's routineDepth inside the call
	rels  map[string]*transRel
}

// transRel is one transition table.
type transRel struct {
	name string // the engine's
	cols []plan.Column
	rows []value.Row
}

// transRows are the rows a statement wrote, for transition tables.
type transRows struct{ old, new []value.Row }

// transOps are the events of the triggers in list that have transition
// tables: those whose rows a statement must keep.
func transOps(list []*trigger) int16 {
	var out int16
	for _, tr := range list {
		if tr.oldTable != "" || tr.newTable != "" {
			out |= tr.typ & (sql.TriggerInsert | sql.TriggerUpdate | sql.TriggerDelete)
		}
	}
	return out
}

// keepTransition keeps a copy of a row op wrote, when a trigger of op has
// transition tables.
func (f *trigFire) keepTransition(op int16, old, new value.Row) {
	if f.transOps&op == 0 {
		return
	}
	if f.trans == nil {
		f.trans = map[int16]*transRows{}
	}
	tr := f.trans[op]
	if tr == nil {
		tr = &transRows{}
		f.trans[op] = tr
	}
	if old != nil {
		tr.old = append(tr.old, slices.Clone(old))
	}
	if new != nil {
		tr.new = append(tr.new, slices.Clone(new))
	}
}

// transFrameFor returns the frame of tr's transition tables for a call
// of op at the session's next depth; nil when it has none.
func (f *trigFire) transFrameFor(tr *trigger, op int16) *transFrame {
	if tr.oldTable == "" && tr.newTable == "" {
		return nil
	}
	var rows transRows
	if r := f.trans[op]; r != nil {
		rows = *r
	}
	depth := f.s.routineDepth + 1
	fr := &transFrame{depth: depth, rels: map[string]*transRel{}}
	add := func(name string, rows []value.Row) {
		if name != "" {
			fr.rels[name] = &transRel{name: fmt.Sprintf("\x00transition %d %s", depth, name), cols: f.cols, rows: rows}
		}
	}
	add(tr.oldTable, rows.old)
	add(tr.newTable, rows.new)
	return fr
}

// transFrame returns the frame of the trigger call running at the
// session's current depth, nil when there is none.
func (s *Session) transFrame() *transFrame {
	if n := len(s.trans); n > 0 && s.trans[n-1].depth == s.routineDepth {
		return s.trans[n-1]
	}
	return nil
}

// transitionRows returns the rows of the transition table of engine name
// rel, of the running session's innermost trigger call.
func (e *Engine) transitionRows(rel string) ([]value.Row, bool) {
	s := e.firer
	if s == nil || len(s.trans) == 0 || len(rel) == 0 || rel[0] != 0 {
		return nil, false
	}
	for i := len(s.trans) - 1; i >= 0; i-- {
		for _, r := range s.trans[i].rels {
			if r.name == rel {
				return r.rows, true
			}
		}
	}
	return nil, false
}

// transCatalog is the engine's catalog with the transition tables of a
// trigger call, which shadow the relations of their names.
type transCatalog struct {
	*Engine
	fr *transFrame
}

// Relation implements sql.Catalog.
func (c transCatalog) Relation(name string) (*sql.Relation, bool) {
	if r, ok := c.fr.rels[name]; ok {
		return &sql.Relation{Name: r.name, Kind: sql.KindTable, Cols: r.cols, Rows: int64(len(r.rows))}, true
	}
	return c.Engine.Relation(name)
}
