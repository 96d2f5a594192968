package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER FUNCTION … RENAME TO (and ALTER AGGREGATE's) keeps the users of
// the routine, as PostgreSQL's follow it by its oid: the views that call
// it, and the defaults, generated columns and checks of tables and
// domains. Each is kept as its text with the calls of the routine given
// the new name (sql.RenameFunctionCalls, sql.RenameFunctionInText):
//
//   - a view's statement is bound again over the catalog as the rename
//     leaves it, and must call what it called (the same signatures, the
//     renamed one's new); its materialized views are built again, as
//     their plans may call the routine by its signature;
//   - a default's or a check's bound expression calls the routine by its
//     signature: each such call must be one the text names, and takes the
//     new signature in place.
//
// What cannot be rewritten so is refused (0A000) and nothing changes.

// routineRename is the rename of the routine of signature sig, keyed
// old, to newSig, keyed new.
type routineRename struct {
	sig, newSig, old, new string
	// swap renames the routine in the engine's catalog (back: undoes it);
	// both adds it under its new name, keeping the old.
	swap, both func(back bool)
}

// renamedUsers is what a routine's rename rewrites: its views and
// their dependencies, and the edits of the tables' and domains'
// definitions.
type renamedUsers struct {
	readers *alterReaders
	called  map[string][]string // each view's routines, bound again
	edits   []func()            // each sets a definition's new text and calls
	tables  []string            // the tables whose definitions change
	domains []*expr.Domain      // the domains whose definitions change
}

// renameUsers rewrites the users of the routine r renames, with the
// catalog as it was; nothing is changed (the catalog is left as it was).
func (e *Engine) renameUsers(r routineRename) (*renamedUsers, error) {
	out := &renamedUsers{called: map[string][]string{}}
	if err := e.renameDefinitionCalls(r, out); err != nil {
		return nil, err
	}
	callers := e.callers(r.sig)
	if len(callers) == 0 {
		return out, nil
	}
	refuse := func(v, why string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename %s: %s %s calls it, and %s", r.sig, e.kindName(v), v, why).
			WithHint("drop the view, rename the routine, and create the view again")
	}
	moved := map[string]*movedReader{}
	for _, v := range callers {
		pick, err := e.callsOfRenamed(v, r)
		if err != nil {
			return nil, refuse(v, "its statement cannot be written again")
		}
		m, ok := e.rewrittenReader(v, func(st *sql.Stmt) (*sql.Stmt, error) {
			renamed, _ := sql.RenameFunctionCalls(st, r.old, r.new, pick)
			return renamed, nil
		})
		if !ok {
			return nil, refuse(v, "its statement cannot be written again")
		}
		moved[v] = m
	}
	cat := alterOverlay{Engine: e, rel: &sql.Relation{}, moved: moved}
	rd := &alterReaders{plans: map[string]*sql.CreateView{}, empty: map[string]*sql.CreateView{}, moved: moved}
	r.swap(false)
	defer r.swap(true)
	for _, v := range e.readersInOrder(callers) {
		cols, _, _, _ := e.readerText(v)
		materialized := e.views[v] != nil || e.unpopulated[v] != nil
		rec := &recorder{cat: cat, seen: map[string]bool{}}
		bound, err := bindMovedWith(rec, moved[v], materialized)
		if err != nil {
			return nil, refuse(v, "it would not bind once renamed: "+err.Error())
		}
		want := slices.Clone(e.funcDeps[v])
		want[slices.Index(want, r.sig)] = r.newSig
		slices.Sort(want)
		got := rec.calledFunctions()
		if !slices.Equal(got, want) || !sameColumns(bound.Plan.Columns(), cols, materialized) {
			return nil, refuse(v, "it would call other routines once renamed")
		}
		out.called[v] = got
		switch {
		case e.views[v] != nil:
			rd.plans[v] = bound
			rd.rebuild = append(rd.rebuild, v)
		case e.unpopulated[v] != nil:
			rd.empty[v] = bound
		}
	}
	slices.SortFunc(rd.rebuild, func(a, b string) int { return e.orderOf(a) - e.orderOf(b) })
	out.readers = rd
	return out, nil
}

// any reports whether the routine has users that follow it.
func (u *renamedUsers) any() bool {
	return len(u.edits) > 0 || len(u.called) > 0
}

// callsOfRenamed picks, among the calls of view v that may name the
// routine (its overloads share the name), those that call it: a call
// calls it when, with the routine under both names, naming it anew
// alone binds the view to the routine's new signature. Nil picks every
// call, when the routine's name is its own.
func (e *Engine) callsOfRenamed(v string, r routineRename) (func(int) bool, error) {
	if len(e.funcs[r.old])+len(e.aggs[r.old]) <= 1 {
		return nil, nil
	}
	st, ok := e.rewrittenReader(v, func(st *sql.Stmt) (*sql.Stmt, error) { return st, nil })
	if !ok {
		return nil, errReaderKind(nil)
	}
	_, n := sql.RenameFunctionCalls(st.stmt, r.old, r.new, func(int) bool { return false })
	materialized := e.views[v] != nil || e.unpopulated[v] != nil
	picked := make([]bool, n)
	r.both(false)
	defer r.both(true)
	for i := range n {
		m, ok := e.rewrittenReader(v, func(st *sql.Stmt) (*sql.Stmt, error) {
			renamed, _ := sql.RenameFunctionCalls(st, r.old, r.new, func(j int) bool { return j == i })
			return renamed, nil
		})
		if !ok {
			continue
		}
		rec := &recorder{cat: e, seen: map[string]bool{}}
		if _, err := bindMovedWith(rec, m, materialized); err == nil && slices.Contains(rec.calledFunctions(), r.newSig) {
			picked[i] = true
		}
	}
	return func(i int) bool { return i < len(picked) && picked[i] }, nil
}

// apply keeps the rewritten users; the routine is renamed in the
// catalog and the store. It returns the NOTICEs of the materialized views
// built again over the routine renamed (what): PostgreSQL, which changes a
// name only, says nothing, but a cold start is never silent here.
func (u *renamedUsers) apply(e *Engine, what string) ([]string, error) {
	for _, edit := range u.edits {
		edit()
	}
	if ss, ok := e.store.(StatementStore); ok && e.store != nil {
		for _, name := range u.tables {
			if t := e.tables[name]; t != nil && !t.temp {
				if err := ss.SetStatement(name, t.def.SQL()); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, d := range u.domains {
		if err := e.saveDomain(d.Name(), d, nil); err != nil {
			return nil, err
		}
	}
	for v, called := range u.called {
		e.funcDeps[v] = called
	}
	if u.readers == nil {
		return nil, nil
	}
	if err := e.applyMoved(u.readers, "", ""); err != nil {
		return nil, err
	}
	u.readers.over = what
	return e.rebuildReaders(u.readers, "")
}

// renameDefinitionCalls rewrites the defaults, generated columns and
// checks of tables and domains that call the routine r renames, into
// out's edits. Each edit gives its table or domain a new definition, so
// that a ROLLBACK restores the one it had.
func (e *Engine) renameDefinitionCalls(r routineRename, out *renamedUsers) error {
	var err error
	// rewrite renames the calls of x, whose text is *text, in place in
	// the copy the caller made; it reports whether x calls the routine.
	rewrite := func(x *expr.Expr, text *string, what string) bool {
		if err != nil || *x == nil || !callsSig(*x, r.sig) {
			return false
		}
		renamed, n, rerr := sql.RenameFunctionInText(*text, true, r.old, r.new)
		if rerr != nil || n != countCalls(*x, r.sig) {
			err = pgerr.New(pgerr.FeatureNotSupported, "cannot rename %s: %s calls it in a way its text does not show", r.sig, what).
				WithHint("drop the default or the constraint, rename the function, and set it again")
			return false
		}
		*text, *x = renamed, retargeted(*x, r)
		return true
	}
	for _, name := range sortedKeys(e.tables) {
		t := e.tables[name]
		d := *t.def
		d.Checks, d.Cols = slices.Clone(d.Checks), slices.Clone(d.Cols)
		changed := false
		for i := range d.Checks {
			ch := &d.Checks[i]
			changed = rewrite(&ch.Expr, &ch.SQL, tableCall{table: name, con: ch.Name}.describe()) || changed
		}
		for i := range d.Cols {
			c := &d.Cols[i]
			changed = rewrite(&c.Default, &c.DefaultSQL, tableCall{table: name, col: c.Name}.describe()) || changed
			changed = rewrite(&c.Generated, &c.GeneratedSQL, tableCall{table: name, gen: c.Name}.describe()) || changed
		}
		if changed {
			out.edits = append(out.edits, func() { t.def = &d })
			out.tables = append(out.tables, name)
		}
	}
	for _, name := range sortedKeys(e.domains.byName) {
		dom := e.domains.byName[name]
		def := *dom.Def()
		def.Checks = slices.Clone(def.Checks)
		changed := false
		for i := range def.Checks {
			ch := &def.Checks[i]
			changed = rewrite(&ch.Expr, &ch.SQL, tableCall{domain: name, con: ch.Name}.describe()) || changed
		}
		typDefault, _ := e.domainDefaultTexts(&def) // deparsed while the function has its old name
		if rewrite(&def.Default, &def.DefaultSQL, tableCall{domain: name}.describe()) {
			def.DefaultText, changed = typDefault, true // pg_type.typdefault keeps the text as it was set
		}
		if changed {
			out.edits = append(out.edits, func() { dom.Set(def) })
			out.domains = append(out.domains, dom)
		}
	}
	return err
}

// countCalls counts the calls of the user function of signature sig in x.
func countCalls(x expr.Expr, sig string) int {
	n := 0
	expr.Walk(x, func(c expr.Expr) bool {
		if rc, ok := c.(*expr.RoutineCall); ok {
			if fsig, _ := sql.SplitRoutineSig(rc.Sig); fsig == sig {
				n++
			}
		}
		return true
	})
	return n
}

// retargeted is x with the calls of the renamed routine calling it by
// its new name and signature; x itself is left as it is.
func retargeted(x expr.Expr, r routineRename) expr.Expr {
	return expr.Rewrite(x, func(c expr.Expr) expr.Expr {
		rc, ok := c.(*expr.RoutineCall)
		if !ok {
			return c
		}
		fsig, inst := sql.SplitRoutineSig(rc.Sig)
		if fsig != r.sig {
			return c
		}
		n := *rc
		n.Name, n.Sig = r.new, r.newSig
		if inst != "" {
			n.Sig += "\x00" + inst
		}
		return &n
	})
}
