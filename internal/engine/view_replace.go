package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
)

// replaceView runs CREATE OR REPLACE VIEW of an existing plain view, as
// PostgreSQL does: the new query keeps the view's columns (names and
// types, in order) and may add columns after them. The view keeps its
// column defaults, privileges, triggers and comments. The views that read
// it are bound again over the new definition first: a plain view must
// keep its columns (one that selects * keeps its old ones, the * spelled
// out, as PostgreSQL's keeps its columns by number: view_replace_star.go);
// a materialized view is built again, said by a NOTICE.
func (e *Engine) replaceView(cv *sql.CreateView, rec *recorder) (Result, error) {
	old := e.named[cv.Name]
	if old == nil {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a view", e.bareName(cv.Name))
	}
	if err := checkReplacedColumns(old.cols, cv.Plan.Columns(), old.colls, cv.Collations); err != nil {
		return Result{}, err
	}
	oldDeps, oldFuncs := e.deps[cv.Name], e.funcDeps[cv.Name]
	restore := func() {
		e.named[cv.Name], e.deps[cv.Name] = old, oldDeps
		if oldFuncs != nil {
			e.funcDeps[cv.Name] = oldFuncs
		} else {
			delete(e.funcDeps, cv.Name)
		}
	}
	delete(e.named, cv.Name)
	if _, err := e.createViewMem(cv, rec); err != nil {
		restore()
		return Result{}, err
	}
	nv := e.named[cv.Name]
	nv.defaults, nv.defaultTexts, nv.alters, nv.text = old.defaults, old.defaultTexts, old.alters, rec.text
	spelled, undo, err := e.spellReaders(cv.Name, len(old.cols))
	if err != nil {
		restore()
		return Result{}, err
	}
	matviews, err := e.replacedReaders(cv.Name)
	if err != nil {
		undo()
		restore()
		return Result{}, err
	}
	if e.store != nil {
		if err := e.storeReplacedView(nv); err != nil {
			undo()
			restore()
			return Result{}, err
		}
		if err := e.storeSpelled(spelled); err != nil {
			return Result{}, err
		}
	}
	notices, err := e.rebuildViews(matviews, true, fmt.Sprintf("the new definition of view %q", e.bareName(cv.Name)))
	return Result{Tag: "CREATE VIEW", Notices: notices}, err
}

// storeReplacedView keeps a replaced view's new statement (with the
// ALTER VIEW statements that set its defaults after it), and moves it,
// then every view that reads it directly or not, after everything else
// in the store, so that at open it is made after the relations its new
// query reads, and its readers after it.
func (e *Engine) storeReplacedView(nv *namedView) error {
	ss, ok := e.store.(StatementStore)
	os, ok2 := e.store.(OrderStore)
	if !ok || !ok2 {
		return pgerr.New(pgerr.FeatureNotSupported, "this store cannot record CREATE OR REPLACE VIEW")
	}
	text := nv.text
	if len(nv.alters) > 0 {
		text += "\n;\n" + strings.Join(nv.alters, "\n;\n")
	}
	if err := ss.SetStatement(nv.name, text); err != nil {
		return err
	}
	index := e.dependentsIndex()
	names := []string{nv.name}
	seen := map[string]bool{nv.name: true}
	for i := 0; i < len(names); i++ {
		for _, r := range index[names[i]] {
			if !seen[r] {
				seen[r] = true
				names = append(names, r)
			}
		}
	}
	return os.MoveLast(names)
}

// checkReplacedColumns refuses new columns of a replaced view that drop,
// rename or retype its old ones, with PostgreSQL's errors.
func checkReplacedColumns(old, new []plan.Column, oldColls, newColls []sql.ViewCollation) error {
	if len(new) < len(old) {
		return pgerr.New(pgerr.InvalidTableDef, "cannot drop columns from view")
	}
	for i, o := range old {
		n := new[i]
		if n.Name != o.Name {
			return pgerr.New(pgerr.InvalidTableDef, "cannot change name of view column %q to %q", o.Name, n.Name).
				WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
		}
		if n.Type != o.Type {
			return pgerr.New(pgerr.InvalidTableDef, "cannot change data type of view column %q from %s to %s", o.Name, o.Type, n.Type)
		}
		if oc, nc := viewCollationAt(oldColls, i), viewCollationAt(newColls, i); oc != nc {
			return pgerr.New(pgerr.InvalidTableDef, "cannot change collation of view column %q from %q to %q", o.Name, oc.Name, nc.Name)
		}
	}
	return nil
}

// replacedReaders checks the views that read view, directly or through
// plain views, with its new definition in place: each must bind to the
// columns it had. It returns the materialized views to build again:
// those that read it or a plain view over it, and those that read one of
// those, in the order of the views.
func (e *Engine) replacedReaders(view string) ([]string, error) {
	index := e.dependentsIndex()
	reads := map[string]bool{view: true}
	plain := []string{view}
	for i := 0; i < len(plain); i++ {
		for _, name := range index[plain[i]] {
			if e.named[name] == nil || reads[name] {
				continue
			}
			if err := e.keepsColumns(view, name, false); err != nil {
				return nil, err
			}
			reads[name] = true
			plain = append(plain, name)
		}
	}
	var out []string
	for _, v := range e.order {
		name := v.meta().name
		if !slices.ContainsFunc(e.deps[name], func(d string) bool { return reads[d] }) {
			continue
		}
		if err := e.keepsColumns(view, name, true); err != nil {
			return nil, err
		}
		reads[name] = true
		out = append(out, name)
	}
	return out, nil
}

// keepsColumns refuses the replacement of view when its reader name,
// bound again, would not have the columns it has.
func (e *Engine) keepsColumns(view, name string, materialized bool) error {
	cols, text, _, ok := e.readerText(name)
	var bound *sql.CreateView
	var err error
	if ok {
		bound, err = bindReader(e, text, materialized)
	}
	if !ok || err != nil || !sameColumns(bound.Plan.Columns(), cols, materialized) {
		return pgerr.New(pgerr.FeatureNotSupported, "CREATE OR REPLACE VIEW %s is not supported: %s %s reads it and would not keep its columns", e.bareName(view), e.kindName(name), e.bareName(name)).
			WithHint("list the columns %s reads instead of *, or drop it and create it again", e.bareName(name))
	}
	return nil
}

// viewCollationAt is the collation of a view's column i, "default" when
// colls gives none.
func viewCollationAt(colls []sql.ViewCollation, i int) sql.ViewCollation {
	if i < len(colls) && colls[i].Name != "" {
		return colls[i]
	}
	return sql.ViewCollation{Name: "default"}
}
