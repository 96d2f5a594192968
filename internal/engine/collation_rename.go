// ALTER COLLATION … RENAME TO and SET SCHEMA of a collation that columns, constraints, indexes and views name.
package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// PostgreSQL's columns, indexes, constraints, defaults, views, triggers
// and policies hold a collation by oid, so they follow its new name or
// schema at once. Here the texts that name it are written again under
// its new name (sql.RenameCollationInText, sql.RenameCollations) and the
// views are bound again over it; the tables' columns take its new id (a
// new name is a new value.Collation, which orders alike), and the
// materialized views' columns name it. Domains follow it as
// collation_follow.go says. What cannot be written so is refused (0A000)
// and nothing changes.

// collationMatch reports whether names, written in a text that resolves
// names through path, name the collation c.
func (e *Engine) collationMatch(c *sql.UserCollation, path []string) func(names []string) bool {
	return func(names []string) bool {
		switch len(names) {
		case 1:
			if names[0] != c.Name || isBuiltinCollationName(names[0]) {
				return false
			}
			uc, ok := e.userCollationIn(names, path)
			return ok && uc.OID == c.OID
		case 2:
			return names[0] == c.Schema && names[1] == c.Name
		}
		return false
	}
}

// collationRef is how a text that resolves names through path names
// next, the collation keyed oldKey until now: bare when the path finds it
// so, else qualified by its schema.
func (e *Engine) collationRef(next *sql.UserCollation, oldKey string, path []string) []string {
	if !isBuiltinCollationName(next.Name) {
		for _, sc := range path {
			if sc == next.Schema {
				return []string{next.Name}
			}
			if k := collKey(sc, next.Name); k != oldKey && e.colls[k] != nil {
				break
			}
		}
	}
	return []string{next.Schema, next.Name}
}

// collationRenameEdits writes again, naming next, what names c (keyed
// oldKey): the tables' columns, checks, defaults and generated columns,
// the domains' checks and defaults, the triggers' WHEN, the policies, the
// indexes, and the views' statements (not yet bound).
func (e *Engine) collationRenameEdits(c, next *sql.UserCollation, oldKey string) (*enumRenameEdits, error) {
	ed := &enumRenameEdits{tables: map[string]*sql.CreateTable{}, domains: map[*expr.Domain]*expr.DomainDef{}, views: map[string]*movedReader{},
		triggers: map[*trigger]*trigger{}, policies: map[*policy]*policy{}}
	match, to := e.collationMatch(c, defaultPath), e.collationRef(next, oldKey, defaultPath)
	var err error
	refuse := func(what string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER COLLATION of collation %s is not supported: %s names it in a way its text does not show", c.Name, what).
			WithHint("drop it, alter the collation, and create it again")
	}
	// rewrite rewrites a text in place in the caller's copy; it reports
	// whether the text changed, and records its error in err.
	rewrite := func(text *string, what string) bool {
		if err != nil || *text == "" {
			return false
		}
		out, n, rerr := sql.RenameCollationInText(*text, match, to)
		if rerr != nil {
			err = refuse(what)
			return false
		}
		if n == 0 {
			return false
		}
		*text = out
		return true
	}
	for _, name := range sortedKeys(e.tables) {
		t := e.tables[name]
		if t.def == nil {
			continue
		}
		d := *t.def
		d.Checks, d.Cols = slices.Clone(d.Checks), slices.Clone(d.Cols)
		changed := false
		for i := range d.Checks {
			ch := &d.Checks[i]
			changed = rewrite(&ch.SQL, tableCall{table: name, con: ch.Name}.describe()) || changed
		}
		for i := range d.Cols {
			col := &d.Cols[i]
			if col.UserColl != nil && col.UserColl.OID == c.OID {
				uc := *next
				col.UserColl, col.Collation, changed = &uc, next.Name, true
			}
			changed = rewrite(&col.DefaultSQL, tableCall{table: name, col: col.Name}.describe()) || changed
			changed = rewrite(&col.GeneratedSQL, tableCall{table: name, gen: col.Name}.describe()) || changed
		}
		if changed {
			ed.tables[name] = &d
		}
	}
	for _, name := range sortedKeys(e.domains.byName) {
		dom := e.domains.byName[name]
		def := *dom.Def()
		def.Checks = slices.Clone(def.Checks)
		changed := false
		for i := range def.Checks {
			ch := &def.Checks[i]
			changed = rewrite(&ch.SQL, tableCall{domain: name, con: ch.Name}.describe()) || changed
		}
		changed = rewrite(&def.DefaultSQL, tableCall{domain: name}.describe()) || changed
		if changed {
			ed.domains[dom] = &def
		}
	}
	for _, table := range sortedKeys(e.triggers) {
		for _, tr := range e.triggers[table] {
			cp := *tr
			what := "trigger " + tr.name + " on table " + table
			if rewrite(&cp.whenSQL, what) && rewrite(&cp.text, what) {
				ed.triggers[tr] = &cp
			}
		}
	}
	for _, table := range sortedKeys(e.rls) {
		for _, p := range e.rls[table].policies {
			cp := *p
			what := "policy " + p.Name + " on table " + table
			u := rewrite(&cp.Using, what)
			if ch := rewrite(&cp.Check, what); u || ch {
				ed.policies[p] = &cp
			}
		}
	}
	if err != nil {
		return nil, err
	}
	err = e.eachIndex(func(x typeRenamedIndex) error {
		what := "index " + x.name()
		text := x.text
		if !rewrite(&text, what) {
			return err
		}
		if x.def == nil {
			return refuse(what)
		}
		def := *x.def
		def.KeySQL, def.WhereConj, def.KeyOpts = slices.Clone(def.KeySQL), slices.Clone(def.WhereConj), slices.Clone(def.KeyOpts)
		texts := append([]*string{&def.WhereSQL}, pointers(def.KeySQL)...)
		texts = append(texts, pointers(def.WhereConj)...)
		for _, s := range append(texts, pointers(def.KeyOpts)...) {
			rewrite(s, what)
		}
		x.text, x.def = text, &def
		ed.indexes = append(ed.indexes, x)
		return err
	})
	if err != nil {
		return nil, err
	}
	names := e.viewsNamingCollation(c)
	for _, v := range e.enumViewNames() {
		n := 0
		m, ok := e.rewrittenReaderIn(v, func(st *sql.Stmt, path []string) (*sql.Stmt, error) {
			out, k := sql.RenameCollations(st, e.collationMatch(c, path), e.collationRef(next, oldKey, path))
			n = k
			return out, nil
		})
		switch {
		case !ok && names[v]:
			return nil, refuse(e.kindName(v) + " " + v)
		case ok && n > 0:
			ed.views[v] = m
		}
	}
	return ed, nil
}

// viewsNamingCollation are the views and materialized views whose
// statements collationDependents finds naming c.
func (e *Engine) viewsNamingCollation(c *sql.UserCollation) map[string]bool {
	out := map[string]bool{}
	for _, v := range e.enumViewNames() {
		if _, text, _, ok := e.readerText(v); ok && collationNamedIn(c, text) {
			out[v] = true
		}
	}
	return out
}

// collationNamedIn reports whether a text may name c after COLLATE.
func collationNamedIn(c *sql.UserCollation, text string) bool {
	_, n, err := sql.RenameCollationInText(text, func(names []string) bool { return names[len(names)-1] == c.Name }, []string{c.Name})
	return err != nil || n > 0
}

// renameCollationInUse makes c, keyed key, the collation next, keyed nk,
// and writes again what names it; nothing changes on an error.
func (e *Engine) renameCollationInUse(key, nk string, c, next *sql.UserCollation) error {
	ed, err := e.collationRenameEdits(c, next, key)
	if err != nil {
		return err
	}
	e.putCollation(key, nil)
	e.putCollation(nk, next)
	bound := map[string]*sql.CreateView{}
	for _, v := range sortedKeys(ed.views) {
		cols, _, _, _ := e.readerText(v)
		materialized := e.named[v] == nil
		cv, berr := bindMoved(e, ed.views[v], materialized)
		if berr == nil && !sameColumns(cv.Plan.Columns(), cols, materialized) {
			berr = pgerr.New(pgerr.FeatureNotSupported, "it would have other columns")
		}
		if berr != nil {
			e.putCollation(nk, nil)
			e.putCollation(key, c)
			return pgerr.New(pgerr.FeatureNotSupported, "ALTER COLLATION of collation %s is not supported: %s %s names it, and its statement would not bind again: %s", c.Name, e.kindName(v), v, pgerr.Wrap(berr).Message).
				WithHint("drop the view, alter the collation, and create the view again")
		}
		bound[v] = cv
	}
	if err := e.storeCollation(key, nil); err != nil {
		return err
	}
	if err := e.storeCollation("", next); err != nil {
		return err
	}
	if err := e.applyEnumRename(ed); err != nil {
		return err
	}
	e.collatedViewColumns(c, next, bound)
	return e.followCollation(c.OID, next)
}

// collatedViewColumns gives the views' columns of collation c the
// collation next: the plain views bound again (bound) take their new
// columns, and every view's columns name next.
func (e *Engine) collatedViewColumns(c, next *sql.UserCollation, bound map[string]*sql.CreateView) {
	follow := func(colls []sql.ViewCollation) ([]sql.ViewCollation, bool) {
		i := slices.IndexFunc(colls, func(vc sql.ViewCollation) bool { return vc.Name == c.Name && vc.ID == c.ID })
		if i < 0 {
			return colls, false
		}
		colls = slices.Clone(colls)
		for i := range colls {
			if colls[i].Name == c.Name && colls[i].ID == c.ID {
				colls[i] = sql.ViewCollation{Name: next.Name, ID: next.ID}
			}
		}
		return colls, true
	}
	for _, name := range sortedKeys(e.named) {
		nv := e.named[name]
		cv, rebound := bound[name]
		colls, named := follow(nv.colls)
		if !rebound && !named {
			continue
		}
		cp := *nv
		cp.colls = colls
		if rebound {
			cp.cols = slices.Clone(nv.cols)
			for i, col := range cv.Plan.Columns() {
				if i < len(cp.cols) {
					cp.cols[i].Coll = col.Coll
				}
			}
		}
		e.named[name] = &cp
	}
	for _, name := range sortedKeys(e.views) {
		m := e.views[name].meta()
		if m.def == nil {
			continue
		}
		if colls, ok := follow(m.def.Collations); ok {
			def := *m.def
			def.Collations = colls
			m.def = &def
		}
	}
	for _, name := range sortedKeys(e.unpopulated) {
		if colls, ok := follow(e.unpopulated[name].Collations); ok {
			cv := *e.unpopulated[name]
			cv.Collations = colls
			e.unpopulated[name] = &cv
		}
	}
}
