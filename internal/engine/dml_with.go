package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// A statement with data-modifying WITH items (sql.WithModify) runs as
// PostgreSQL runs one. Every part reads one snapshot, the database as it
// was when the statement started: the tables are read through the
// transaction's log undone back to that point (asOf), so that no part sees
// another's changes, and the main statement sees an item only through
// its RETURNING rows (exec.Returning). Each item runs once and to the end.
//
// The order of the parts is PostgreSQL's where it is fixed: the items the
// main statement reads run first (PostgreSQL runs them as the main
// statement reads their rows), in the list's order, then the main
// statement, then the items nothing read, from the last to the first
// (PostgreSQL runs them to completion after the main statement, in that
// order); an item runs after the items it reads. The order shows when two
// parts change the same row: the first to reach it changes it and the
// later ones skip it, as PostgreSQL skips a row the same command already
// changed; an INSERT … ON CONFLICT DO UPDATE whose conflicting row was
// written by an earlier part fails with 21000; a key an earlier part
// inserted makes a later insert fail with 23505, one it deleted is free.
//
// The whole statement is one change of the transaction: an error undoes
// every part, and the views see all parts' changes at one commit.

// modifying is the state of a running statement with data-modifying WITH
// items.
type modifying struct {
	w    *sql.WithModify
	mark int // the transaction log's length when the statement started
	src  *exec.Returning
	// state is each item's: 0 not run, 1 running, 2 run.
	state []int8
	// written are the rows the parts run so far changed, per table, by
	// row id; nil until taken (changed).
	written map[*table]map[uint64]bool
	seen    int // the log's length when written was taken
}

func (s *Session) execWithModify(w *sql.WithModify) (Result, error) {
	e := s.e
	fig := s.withFigures // taken once: a statement the parts run is not the one explained
	s.withFigures = nil
	return e.autocommit(func() (Result, error) {
		m := &modifying{w: w, mark: len(e.tx.log), state: make([]int8, len(w.Items))}
		m.src = &exec.Returning{Source: asOf{e: e, mark: m.mark}, Rows: make([][]value.Row, len(w.Items))}
		e.with = m
		defer func() { e.with = nil }()
		first := sql.Reads(w.Main)
		slices.Sort(first)
		for _, i := range first {
			if err := m.run(e, i); err != nil {
				return Result{}, err
			}
		}
		var res Result
		var err error
		if sel, ok := w.Main.(*sql.Select); ok {
			var src exec.Source = e.queryBudget(m.src)
			if fig != nil {
				src = exec.NewProfile(src, fig.prof)
			}
			res, err = execSelect(sel.Plan, src)
		} else {
			res, err = e.execModify(w.Main)
		}
		if err != nil {
			return Result{}, err
		}
		for i := len(w.Items) - 1; i >= 0; i-- {
			if err := m.run(e, i); err != nil {
				return Result{}, err
			}
		}
		if fig != nil {
			fig.items = m.src.Rows
		}
		return res, nil
	})
}

// run runs item i, after the items it reads, unless it has run.
func (m *modifying) run(e *Engine, i int) error {
	switch m.state[i] {
	case 2:
		return nil
	case 1:
		// The binder lets an item read only the items before it.
		return pgerr.New(pgerr.Internal, "WITH query %q reads itself", m.w.Items[i].Name)
	}
	m.state[i] = 1
	st := m.w.Items[i].Stmt
	for _, j := range sql.Reads(st) {
		if err := m.run(e, j); err != nil {
			return err
		}
	}
	res, err := e.execModify(st)
	if err != nil {
		return err
	}
	m.src.Rows[i] = res.Rows
	m.state[i] = 2
	return nil
}

// execModify runs an INSERT, UPDATE, DELETE or MERGE of the statement.
func (e *Engine) execModify(b sql.Bound) (Result, error) {
	switch b := b.(type) {
	case *sql.Insert:
		return e.execInsert(b)
	case *sql.Update:
		return e.execUpdate(b)
	case *sql.Delete:
		return e.execDelete(b)
	case *sql.Merge:
		return e.execMerge(b)
	}
	return Result{}, pgerr.New(pgerr.Internal, "unhandled statement %T in WITH", b)
}

// dmlSource is what the queries of a DML statement read: the tables as
// they are, or, in a statement with data-modifying WITH items, as they
// were when it started, with the items' rows.
func (e *Engine) dmlSource() exec.Source {
	if e.with != nil {
		return e.with.src
	}
	return e
}

// changed returns the ids of t's rows that the statement's parts run so
// far inserted, updated or deleted; nil when none, or outside such a
// statement. The caller holds the lock.
func (e *Engine) changed(t *table) map[uint64]bool {
	m := e.with
	if m == nil {
		return nil
	}
	if m.written == nil || m.seen != len(e.tx.log) {
		m.written = map[*table]map[uint64]bool{}
		for _, c := range e.tx.log[m.mark:] {
			if c.w == 0 {
				continue
			}
			ids := m.written[c.t]
			if ids == nil {
				ids = map[uint64]bool{}
				m.written[c.t] = ids
			}
			ids[c.id] = true
		}
		m.seen = len(e.tx.log)
	}
	return m.written[t]
}

// asOf reads the tables as they were when the transaction's log was mark
// long: the changes logged since are undone on the fly, as a reader that
// is not the writer undoes the whole log (committedSource). Materialized
// views and system views are read as they are.
type asOf struct {
	e    *Engine
	mark int
}

var _ exec.FilteredSource = asOf{}

func (a asOf) since() exec.FilteredSource {
	return &committedSource{e: a.e, log: a.e.tx.log[a.mark:]}
}

// RelationSize implements exec.Sizer.
func (a asOf) RelationSize(rel string) (int, bool) { return a.e.RelationSize(rel) }

// Scan implements exec.Source.
func (a asOf) Scan(rel string, fn func(value.Row) error) error {
	return a.since().Scan(rel, fn)
}

// ScanFiltered implements exec.FilteredSource: through the table's
// indexes, which describe the table as it is. When the statement has
// changed the table, the rows the index finds that it changed are left
// out and the rows they were at the mark, where pred accepts them, merged
// back in by row id: O(rows found + the statement's changes to the
// table).
func (a asOf) ScanFiltered(rel string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	e := a.e
	log := e.tx.log[a.mark:]
	t, ok := e.tables[rel]
	if !ok || !t.keepsRows() || !slices.ContainsFunc(log, func(c change) bool { return c.t == t && c.w != 0 }) {
		return e.ScanFiltered(rel, pred, fn)
	}
	e.lookupMu.Lock()
	defer e.lookupMu.Unlock()
	p, err := t.accessPath(pred)
	if err != nil || p == nil {
		return false, nil // a scan evaluates, and fails, as before
	}
	written, old := undo(log, t)
	var found []restored
	t.eachOnPath(p, func(id uint64, row value.Row) bool {
		if !written[id] {
			found = append(found, restored{id, row})
		}
		return true
	})
	emit := func(row value.Row) error {
		ok, err := accepts(pred, row)
		if err != nil || !ok {
			return err
		}
		return fn(row)
	}
	for len(found) > 0 || len(old) > 0 {
		var next value.Row
		if len(old) == 0 || len(found) > 0 && found[0].id < old[0].id {
			next, found = found[0].row, found[1:]
		} else {
			next, old = old[0].row, old[1:]
		}
		if err := emit(next); err != nil {
			return true, err
		}
	}
	return true, nil
}

// skipChanged drops from ts the rows an earlier part of the statement
// changed: the part's snapshot does not hold a row inserted since, and a
// row updated or deleted since is skipped, as PostgreSQL skips a row the
// same command already changed. A row no part changed is as the snapshot
// holds it.
func (e *Engine) skipChanged(t *table, ts []target) []target {
	ids := e.changed(t)
	if len(ids) == 0 {
		return ts
	}
	out := ts[:0]
	for _, tg := range ts {
		if !ids[tg.id] {
			out = append(out, tg)
		}
	}
	return out
}

// authorizeWithModify checks that the session's role may run w: each
// part needs what it needs as a statement of its own (INSERT, UPDATE or
// DELETE on its table, and SELECT where it reads the table's rows), and
// every relation the statement names needs SELECT, except a table it
// names only as the target of its parts.
func (s *Session) authorizeWithModify(w *sql.WithModify, rec *recorder) error {
	none := &recorder{cat: rec.cat, seen: map[string]bool{}, rowSec: rec.rowSec}
	targets := map[string]bool{}
	var read []string
	check := func(b sql.Bound) error {
		if err := s.authorize(b, none); err != nil {
			return err
		}
		switch b := b.(type) {
		case *sql.Select:
			read = append(read, plan.Relations(b.Plan)...)
		case *sql.Insert:
			targets[b.Table] = true
			read = append(read, plan.Relations(b.Source)...)
		case *sql.Update:
			targets[b.Table] = true
			if b.From != nil {
				read = append(read, plan.Relations(b.From)...)
			}
		case *sql.Delete:
			targets[b.Table] = true
			if b.Using != nil {
				read = append(read, plan.Relations(b.Using)...)
			}
		case *sql.Merge:
			targets[b.Table] = true
			read = append(read, plan.Relations(b.Join)...)
		}
		read = append(read, subqueryReads(b)...)
		return nil
	}
	for _, it := range w.Items {
		if err := check(it.Stmt); err != nil {
			return err
		}
	}
	if err := check(w.Main); err != nil {
		return err
	}
	if locks(w.Main) {
		if err := s.lockAllowed(rec); err != nil {
			return err
		}
	}
	for _, name := range rec.direct {
		if targets[name] && !slices.Contains(read, name) {
			continue
		}
		if err := s.allowed(name, sql.PrivSelect); err != nil {
			return err
		}
	}
	return nil
}
