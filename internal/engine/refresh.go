package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// REFRESH MATERIALIZED VIEW. A populated view equals its query after
// every commit (views are never stale, and a view refuses the volatile
// functions whose results a refresh would change), so a plain REFRESH has
// nothing to do. WITH NO DATA is real: the view lets go of its state and
// is no longer stepped, and reading it fails with 55000 as in PostgreSQL
// until a REFRESH builds it again, a cold start like CREATE's. A view
// created WITH NO DATA starts so. An unpopulated view keeps its
// definition, its dependencies and its place among the relations; the
// store keeps the statement that created it, followed by the REFRESH
// that brings it to its present state when that differs.

// viewStmt is the statement that created a materialized view, and
// whether it created it WITH NO DATA.
type viewStmt struct {
	text   string
	noData bool
	// path is the search path the statement resolved its names through
	// (nil: the default), for binding it again (alter_move.go).
	path []string
	// relOpts are the view's storage parameters, name=value; createOpts
	// those its CREATE gave; optsAltered is set once an ALTER changed
	// them (matview_options.go).
	relOpts, createOpts []string
	optsAltered         bool
}

// StatementStore is implemented by a Store that can replace the statement
// it keeps for a relation, run again at open in the relation's place.
type StatementStore interface {
	SetStatement(name, text string) error
}

// OrderStore is a Store that can move catalog entries after every other,
// keeping their order among themselves (CREATE OR REPLACE VIEW: the view
// may now read relations made after it, and its readers must follow it).
type OrderStore interface {
	MoveLast(names []string) error
}

func (closedStore) MoveLast([]string) error { return errClosedStore() }

func (closedStore) SetStatement(string, string) error { return errClosedStore() }

func errNotPopulated(name string) error {
	return pgerr.New(pgerr.ObjectNotInPrereqState, "materialized view %q has not been populated", name).
		WithHint("Use the REFRESH MATERIALIZED VIEW command.")
}

// noteViewStmt remembers the statement that created cv.
func (e *Engine) noteViewStmt(cv *sql.CreateView, text string, path []string) {
	if e.viewStmts == nil {
		e.viewStmts = map[string]viewStmt{}
	}
	e.viewStmts[cv.Name] = viewStmt{text: text, noData: cv.NoData, path: path, relOpts: cv.RelOptions, createOpts: cv.RelOptions}
}

// addUnpopulated registers a materialized view without state.
func (e *Engine) addUnpopulated(cv *sql.CreateView, deps []string) {
	if e.unpopulated == nil {
		e.unpopulated = map[string]*sql.CreateView{}
	}
	e.unpopulated[cv.Name] = cv
	e.deps[cv.Name] = deps
}

// refuseUnpopulated fails, as PostgreSQL's query would, when a relation
// in deps is an unpopulated view.
func (e *Engine) refuseUnpopulated(deps []string) error {
	for _, d := range deps {
		if e.unpopulated[d] != nil {
			return errNotPopulated(d)
		}
	}
	return nil
}

// refreshAccess is what REFRESH needs of the engine's locks: the writer
// slot, inside a block too, where it is a catalog change of the block
// (txddl.go).
func (s *Session) refreshAccess() access {
	return accessWrite
}

// execRefresh runs REFRESH MATERIALIZED VIEW.
func (s *Session) execRefresh(r *sql.Refresh) (Result, error) {
	e := s.e
	tag := Result{Tag: "REFRESH MATERIALIZED VIEW"}
	_, populated := e.views[r.View]
	_, unpopulated := e.unpopulated[r.View]
	if !populated && !unpopulated {
		rel, ok := e.Relation(r.View)
		switch {
		case ok && rel.Kind == sql.KindTable:
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%q is not a materialized view", r.View)
		case !ok && e.seqs[r.View] == nil && e.indexes[r.View] == nil && e.matIndexes[r.View] == nil && e.indexOwner(r.View) == nil:
			return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", r.View)
		}
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a table or materialized view", r.View)
	}
	if err := s.allowedOwner(r.View); err != nil {
		return Result{}, err
	}
	if !r.NoData {
		if err := e.ownerMayRead(r.View); err != nil {
			return Result{}, err
		}
	}
	if err := s.refreshSettings(r.View); err != nil {
		return Result{}, err
	}
	switch {
	case populated && r.Concurrently && e.concurrentRefreshable(r.View):
		return tag, nil // as a plain REFRESH: the view equals its query
	case populated && r.Concurrently:
		// CONCURRENTLY needs a unique index on the view's columns.
		return Result{}, pgerr.New(pgerr.ObjectNotInPrereqState, "cannot refresh materialized view %q concurrently", qualified(r.View)).
			WithHint("Create a unique index with no WHERE clause on one or more columns of the materialized view.")
	case unpopulated && r.Concurrently:
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "CONCURRENTLY cannot be used when the materialized view is not populated")
	case populated && !r.NoData, unpopulated && r.NoData:
		return tag, nil // nothing to do: the view is as the refresh leaves it
	}
	return s.ddl("REFRESH MATERIALIZED VIEW", func() (Result, error) {
		if r.NoData {
			return tag, e.unpopulate(r.View)
		}
		return tag, e.populate(r.View)
	})
}

// qualified is name as PostgreSQL names a relation of the search path in
// some messages: schema.name.
func qualified(name string) string {
	if strings.Contains(name, ".") {
		return name
	}
	return "public." + name
}

// unpopulate lets go of a populated view's state (REFRESH … WITH NO
// DATA). A view that another materialized view or a foreign table reads
// is refused: it would stop being maintained, where PostgreSQL's would
// only go stale. Its subscriptions end with 55000.
func (e *Engine) unpopulate(name string) error {
	for _, v := range e.order {
		if slices.Contains(e.deps[v.meta().name], name) {
			return pgerr.New(pgerr.FeatureNotSupported, "REFRESH MATERIALIZED VIEW %s WITH NO DATA is not supported: materialized view %s reads it, and would stop being maintained", name, v.meta().name).
				WithHint("DROP MATERIALIZED VIEW %s first", v.meta().name)
		}
	}
	for _, sk := range e.sinks {
		if sk.view == name {
			return pgerr.New(pgerr.FeatureNotSupported, "REFRESH MATERIALIZED VIEW %s WITH NO DATA is not supported while a foreign table keeps it", name)
		}
	}
	v := e.views[name]
	cv := v.meta().def
	if err := e.restate(name, false); err != nil {
		return err
	}
	gone := map[string]bool{name: true}
	e.read, e.waves = nil, nil
	delete(e.views, name)
	e.order = slices.DeleteFunc(e.order, func(o matView) bool { return gone[o.meta().name] })
	e.shared.release(gone)
	e.detachViewIndexes(name)
	if e.txd != nil {
		// In a transaction block its subscriptions end with the block,
		// which may bring its state back (endBlock).
		e.addUnpopulated(cv, e.deps[name])
		return nil
	}
	// Its subscriptions end, as a drop ends them: no delta follows.
	subs := e.subs[:0]
	for _, sub := range e.subs {
		if sub.view != name {
			subs = append(subs, sub)
		} else if sub.end != nil {
			sub.end(errNotPopulated(name))
		}
	}
	clear(e.subs[len(subs):])
	e.subs = subs
	deps := e.deps[name]
	e.addUnpopulated(cv, deps)
	return nil
}

// populate builds an unpopulated view (REFRESH): a cold start, after
// which it is maintained again, stepped after the views before it.
func (e *Engine) populate(name string) error {
	cv := e.unpopulated[name]
	deps := e.deps[name]
	if err := e.refuseUnpopulated(deps); err != nil {
		return err
	}
	delete(e.unpopulated, name)
	built := *cv
	built.NoData = false
	if _, err := e.buildMatView(&built, deps); err != nil {
		e.unpopulated[name] = cv
		e.deps[name] = deps
		return err
	}
	if err := e.attachViewIndexes(e.views[name]); err != nil {
		// A unique index the new rows break: the view stays unpopulated.
		e.unbuildView(name)
		e.addUnpopulated(cv, deps)
		return err
	}
	if err := e.restate(name, true); err != nil {
		e.dropAll([]string{name}, map[string]bool{name: true})
		e.addUnpopulated(cv, deps)
		return err
	}
	return nil
}

// restate records in the store that the view name is now populated or
// not: the statement that created it, followed by the REFRESH that
// brings it to that state when the statement alone does not.
func (e *Engine) restate(name string, populated bool) error {
	if e.store == nil {
		return nil
	}
	st, ok := e.viewStmts[name]
	if !ok {
		return pgerr.New(pgerr.Internal, "no statement text kept for materialized view %q", name)
	}
	ss, ok := e.store.(StatementStore)
	if !ok {
		return pgerr.New(pgerr.FeatureNotSupported, "this store cannot record REFRESH MATERIALIZED VIEW")
	}
	text := settingsText(st.text, e.viewSettings[name])
	if populated == st.noData {
		// A newline ends a comment the statement may end with.
		text += fmt.Sprintf("\n;\nREFRESH MATERIALIZED VIEW %s", expr.QuoteIdent(name))
		if !populated {
			text += " WITH NO DATA"
		}
	}
	text += matViewOptionsText(name, st)
	return ss.SetStatement(name, text)
}
