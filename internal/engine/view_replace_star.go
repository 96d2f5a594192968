package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A view that selects * from a view CREATE OR REPLACE VIEW gives new
// columns keeps the columns it had, as PostgreSQL's (which names them by
// number): its statement is kept with the * spelled out as the columns
// it covered (sql.SpellStars), in memory and in the store, where a plain
// view's CREATE VIEW is written again as PostgreSQL prints it
// (CREATE VIEW star (id, g) AS SELECT v.id, v.g FROM v). A plain view
// costs nothing more; a materialized view is built again with the others
// over the view.

// spellReaders spells out, in each plain view that reads view through a
// * that now covers view's columns numbered keep or above, that * as the
// columns it covered. It returns the views changed and how to undo it.
func (e *Engine) spellReaders(view string, keep int) (names []string, undo func(), err error) {
	var undos []func()
	undo = func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}
	for _, name := range e.dependentsIndex()[view] {
		if e.views[name] != nil {
			ok, err := e.spellMatView(view, keep, name, &undos)
			if err != nil {
				undo()
				return nil, nil, err
			}
			if ok {
				names = append(names, name)
			}
			continue
		}
		nv := e.named[name]
		if nv == nil || nv.query == nil || nv.invoker {
			continue // keepsColumns refuses it if it must
		}
		log := &sql.RefLog{}
		logged := *nv.query
		logged.Refs = log
		if _, err := bindMoved(e, &movedReader{stmt: &logged, text: nv.query.SQL}, false); err != nil {
			continue
		}
		st, ok, err := sql.SpellStars(nv.query, log, view, keep)
		if err != nil {
			undo()
			return nil, nil, err
		}
		if !ok {
			continue
		}
		text, err := sql.ResolvedText(st, nameScope{e: e, path: defaultPath, restoring: true})
		if err != nil {
			continue
		}
		again, ok := e.reparse(text)
		if !ok {
			continue
		}
		cols := make([]string, len(nv.cols))
		for i, c := range nv.cols {
			cols[i] = expr.QuoteIdent(c.Name)
		}
		full := "CREATE VIEW " + e.keyText(name) + " (" + strings.Join(cols, ", ") + ") AS " + text
		if nv.check != "" {
			full += " WITH " + strings.ToUpper(nv.check) + " CHECK OPTION"
		}
		oldQuery, oldText := nv.query, nv.text
		nv.query, nv.text = again, full
		undos = append(undos, func() { nv.query, nv.text = oldQuery, oldText })
		names = append(names, name)
	}
	return names, undo, nil
}

// spellMatView is spellReaders for materialized view name, whose
// statement the store keeps as its CREATE MATERIALIZED VIEW.
func (e *Engine) spellMatView(view string, keep int, name string, undos *[]func()) (bool, error) {
	st, path, ok := e.matViewStmt(name)
	if !ok {
		return false, nil
	}
	log := &sql.RefLog{}
	logged := *st
	logged.Refs = log
	if _, err := bindMoved(e, &movedReader{stmt: &logged, text: st.SQL}, true); err != nil {
		return false, nil
	}
	spelled, ok, err := sql.SpellStars(st, log, view, keep)
	if err != nil || !ok {
		return false, err
	}
	text, err := sql.ResolvedText(spelled, nameScope{e: e, path: path, restoring: true})
	if err != nil {
		return false, nil
	}
	old := e.viewStmts[name]
	vs := old
	vs.text, vs.path = text, nil
	e.viewStmts[name] = vs
	*undos = append(*undos, func() { e.viewStmts[name] = old })
	return true, nil
}

// storeSpelled keeps the new statements of the views spellReaders
// changed, each followed by its ALTER VIEW statements.
func (e *Engine) storeSpelled(names []string) error {
	ss, ok := e.store.(StatementStore)
	if !ok || e.store == nil {
		return nil
	}
	for _, name := range names {
		if v := e.views[name]; v != nil {
			if err := e.restate(name, true); err != nil {
				return err
			}
			continue
		}
		nv := e.named[name]
		text := nv.text
		if len(nv.alters) > 0 {
			text += "\n;\n" + strings.Join(nv.alters, "\n;\n")
		}
		if err := ss.SetStatement(name, text); err != nil {
			return err
		}
	}
	return nil
}
