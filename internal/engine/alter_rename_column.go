package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TABLE … RENAME COLUMN of a column that views read keeps the views,
// as PostgreSQL's follow the column by its number. Each view that reads
// the table is kept as its statement with the column's references renamed
// (sql.RenameColumnRefs): the select-list items that named the column keep
// its old name as an alias, and a * over it is spelled out, as PostgreSQL
// prints the view (SELECT t.k AS a, t.b FROM t). The rewritten statement
// must resolve every column reference as the old one did, over the table
// as the ALTER leaves it; otherwise the ALTER is refused (0A000). The
// readers then follow the path of the readers of a table that moves
// (alter_move.go): their materialized views are built again.

// columnRename is the column a RENAME COLUMN renames.
type columnRename struct {
	rel      string // the relation's key
	col      int
	old, new string
}

// renamedColumnOf is the column a renames when a is a RENAME COLUMN of
// t's columns, ok false for any other ALTER.
func renamedColumnOf(t *table, a *sql.AlterTable) (columnRename, bool) {
	if a.Table != a.New.Name || len(a.Map) != len(t.cols) || len(a.New.Cols) != len(t.cols) {
		return columnRename{}, false
	}
	out, n := columnRename{rel: a.Table, col: -1}, 0
	for i, o := range a.Map {
		if o != i || a.Cast[i] != nil || a.New.Cols[i].Type != t.cols[i].Type {
			return columnRename{}, false
		}
		if a.New.Cols[i].Name != t.cols[i].Name {
			out.col, out.old, out.new = i, t.cols[i].Name, a.New.Cols[i].Name
			n++
		}
	}
	return out, n == 1
}

// renamedReader is the statement of reader name with the references to
// the renamed column renamed, bound again over cat (the catalog as the
// ALTER leaves it) to check that it reads what it read; ok false when the
// reader names the column nowhere (it is bound again as it is).
func (e *Engine) renamedReader(name string, r columnRename, cat sql.Catalog, materialized bool) (*movedReader, bool, error) {
	refuse := func(why string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q of relation %q: %s %s %s", r.old, e.bareName(r.rel), e.kindName(name), name, why).
			WithHint("drop the view, rename the column, then create the view again")
	}
	scope := func(path []string) nameScope { return nameScope{e: e, path: path, restoring: true} }
	var st *sql.Stmt
	path := defaultPath
	var nv *namedView
	if nv = e.named[name]; nv != nil {
		if nv.query == nil || nv.invoker {
			return nil, false, refuse("is kept as a text that names the column")
		}
		st = nv.query
	} else {
		var ok bool
		if st, path, ok = e.matViewStmt(name); !ok {
			return nil, false, refuse("cannot be read again")
		}
	}
	bind := func(cat sql.Catalog, st *sql.Stmt) (*sql.RefLog, error) {
		log := &sql.RefLog{}
		logged := *st
		logged.Refs = log
		_, err := bindMoved(cat, &movedReader{stmt: &logged, text: st.SQL}, materialized)
		return log, err
	}
	before, err := bind(e, st)
	if err != nil {
		return nil, false, refuse("cannot be read again")
	}
	renamed, ok, err := sql.RenameColumnRefs(st, before, r.rel, r.col, r.old, r.new)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, nil
	}
	text, err := sql.ResolvedText(renamed, scope(path))
	if err != nil {
		return nil, false, refuse("cannot be written again")
	}
	var m *movedReader
	if nv != nil {
		cols := make([]string, len(nv.cols))
		for i, c := range nv.cols {
			cols[i] = expr.QuoteIdent(c.Name)
		}
		again, ok := e.reparse(text)
		if !ok {
			return nil, false, refuse("cannot be written again")
		}
		m = &movedReader{stmt: again, text: "CREATE VIEW " + e.keyText(name) + " (" + strings.Join(cols, ", ") + ") AS " + text}
	} else {
		again, ok := e.reparse(text)
		if !ok {
			return nil, false, refuse("cannot be written again")
		}
		m = &movedReader{stmt: again, text: text}
	}
	after, err := bind(cat, m.stmt)
	if err != nil || !sql.SameResolution(before, after, st, m.stmt, r.old) {
		return nil, false, refuse("would read other columns once the column is renamed")
	}
	return m, true, nil
}

// applyRenamed keeps a renamed plain view's CREATE VIEW statement as the
// one its ALTER VIEW … SET DEFAULT statements follow in the store.
func (e *Engine) applyRenamed(r *alterReaders) error {
	if r == nil {
		return nil
	}
	for _, name := range sortedKeys(r.moved) {
		nv := e.named[name]
		if nv == nil || !r.renamed[name] {
			continue
		}
		nv.text = r.moved[name].text
		if len(nv.alters) == 0 {
			continue
		}
		if ss, ok := e.store.(StatementStore); ok && e.store != nil {
			if err := ss.SetStatement(name, nv.text+"\n;\n"+strings.Join(nv.alters, "\n;\n")); err != nil {
				return err
			}
		}
	}
	return nil
}

// readersInOrder orders a relation's readers so that a view comes after
// the views it reads: each reads every relation its readers' readers
// read (Engine.deps is transitive), so by the number of those.
func (e *Engine) readersInOrder(deps []string) []string {
	out := slices.Clone(deps)
	slices.SortStableFunc(out, func(a, b string) int { return len(e.deps[a]) - len(e.deps[b]) })
	return out
}

// readRewritten makes the plain view name read through its rewritten
// statement m in the catalog overlay rw, for the views that read it.
func (e *Engine) readRewritten(rw map[string]*sql.Relation, name string, m *movedReader) {
	if e.named[name] == nil {
		return
	}
	if rel, ok := e.Relation(name); ok {
		r := *rel
		r.Query = m.stmt
		rw[name] = &r
	}
}

// renameViewColumn runs ALTER VIEW … RENAME COLUMN: the view's column
// takes the new name, and the views that read it are kept as their
// statements with the references to it renamed, as for a table's column.
// A plain view is kept as its statement with the new column list; a
// materialized view keeps its rows and operators, its statement written
// with a column list (CREATE MATERIALIZED VIEW mv (a, b) AS …). The
// materialized views that read the view are built again.
func (e *Engine) renameViewColumn(r *sql.RenameViewColumn) (Result, error) {
	res := Result{Tag: r.Tag}
	rel, ok := e.Relation(r.View)
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", e.bareName(r.View))
	}
	next := *rel
	next.Cols = slices.Clone(rel.Cols)
	next.Cols[r.Col].Name = r.New
	cat := alterOverlay{Engine: e, old: "", rel: &next, rewritten: map[string]*sql.Relation{}}
	rename := columnRename{rel: r.View, col: r.Col, old: r.Old, new: r.New}
	out := &alterReaders{plans: map[string]*sql.CreateView{}, empty: map[string]*sql.CreateView{}}
	for _, name := range e.readersInOrder(e.dependentsIndex()[r.View]) {
		cols, text, _, ok := e.readerText(name)
		materialized := e.views[name] != nil || e.unpopulated[name] != nil
		if !ok {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q of %q: %s %s reads it", r.Old, e.bareName(r.View), e.kindName(name), name)
		}
		m, renamed, err := e.renamedReader(name, rename, cat, materialized)
		if err != nil {
			return Result{}, err
		}
		var bound *sql.CreateView
		if renamed {
			if bound, err = bindMoved(cat, m, materialized); err == nil {
				if out.moved == nil {
					out.moved, out.renamed = map[string]*movedReader{}, map[string]bool{}
				}
				out.moved[name], out.renamed[name] = m, true
				e.readRewritten(cat.rewritten, name, m)
			}
		} else {
			bound, err = bindReader(cat, text, materialized)
		}
		if err != nil || !sameColumns(bound.Plan.Columns(), cols, materialized) {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q of %q: %s %s would read other columns once it is renamed", r.Old, e.bareName(r.View), e.kindName(name), name).
				WithHint("drop the view, rename the column, then create the view again")
		}
		if e.views[name] != nil {
			out.plans[name] = bound
			out.rebuild = append(out.rebuild, name)
		} else if e.unpopulated[name] != nil {
			out.empty[name] = bound
		}
	}
	slices.SortFunc(out.rebuild, func(a, b string) int { return e.orderOf(a) - e.orderOf(b) })
	if err := e.renameOwnColumn(r, rel); err != nil {
		return Result{}, err
	}
	if err := e.applyMoved(out, r.View, r.View); err != nil {
		return res, err
	}
	if err := e.applyRenamed(out); err != nil {
		return res, err
	}
	notices, err := e.rebuildReaders(out, r.View)
	res.Notices = notices
	return res, err
}

// orderOf is a materialized view's place among the views, -1 for none.
func (e *Engine) orderOf(name string) int {
	return slices.IndexFunc(e.order, func(v matView) bool { return v.meta().name == name })
}

// renameOwnColumn renames the view's own column, in memory and in the
// statement the store keeps.
func (e *Engine) renameOwnColumn(r *sql.RenameViewColumn, rel *sql.Relation) error {
	if nv := e.named[r.View]; nv != nil {
		cols := slices.Clone(nv.cols)
		cols[r.Col].Name = r.New
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = expr.QuoteIdent(c.Name)
		}
		sel, err := sql.ResolvedText(nv.query, nameScope{e: e, path: defaultPath, restoring: true})
		if err != nil {
			return pgerr.New(pgerr.Internal, "cannot write view %q again: %v", r.View, err)
		}
		alters := slices.Clone(nv.alters)
		for i, a := range alters {
			if alters[i], err = sql.RenameAlterViewColumn(a, r.Old, r.New); err != nil {
				return err
			}
		}
		text := "CREATE VIEW " + e.keyText(r.View) + " (" + strings.Join(names, ", ") + ") AS " + sel
		if ss, ok := e.store.(StatementStore); ok && e.store != nil {
			stored := text
			if len(alters) > 0 {
				stored += "\n;\n" + strings.Join(alters, "\n;\n")
			}
			if err := ss.SetStatement(r.View, stored); err != nil {
				return err
			}
		}
		nv.cols, nv.text, nv.alters = cols, text, alters
		return nil
	}
	st, path, ok := e.matViewStmt(r.View)
	if !ok {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q of %q: it is kept as a text that names it", r.Old, e.bareName(r.View))
	}
	names := make([]string, len(rel.Cols))
	for i, c := range rel.Cols {
		names[i] = c.Name
	}
	names[r.Col] = r.New
	st, err := sql.WithColumnNames(st, names)
	if err != nil {
		return err
	}
	text, err := sql.ResolvedText(st, nameScope{e: e, path: path, restoring: true})
	if err != nil {
		return pgerr.New(pgerr.Internal, "cannot write materialized view %q again: %v", r.View, err)
	}
	again, ok := e.reparse(text)
	if !ok {
		return pgerr.New(pgerr.Internal, "cannot read materialized view %q again", r.View)
	}
	bound, err := bindMoved(e, &movedReader{stmt: again, text: text}, true)
	if err != nil {
		return pgerr.New(pgerr.Internal, "cannot bind materialized view %q again: %v", r.View, err)
	}
	if v := e.views[r.View]; v != nil {
		m := v.meta()
		bound.MaxMemory = m.def.MaxMemory
		cols := slices.Clone(m.cols)
		cols[r.Col].Name = r.New
		m.cols, m.def = cols, bound
	} else if cv := e.unpopulated[r.View]; cv != nil {
		bound.MaxMemory = cv.MaxMemory
		e.unpopulated[r.View] = bound
	}
	vs := e.viewStmts[r.View]
	vs.text, vs.path = text, nil
	e.viewStmts[r.View] = vs
	return e.restate(r.View, e.views[r.View] != nil)
}

// matViewStmt is a materialized view's CREATE statement with its names
// resolved through the search path it was made under, and that path.
func (e *Engine) matViewStmt(name string) (*sql.Stmt, []string, bool) {
	vs, ok := e.viewStmts[name]
	if !ok {
		return nil, nil, false
	}
	text, path := vs.text, vs.path
	if path == nil {
		path = defaultPath
	}
	const set = "SET search_path = "
	if strings.HasPrefix(text, set) {
		i := strings.Index(text, ";\n")
		if i < 0 {
			return nil, nil, false
		}
		path, text = e.pathOf(text[len(set):i], ""), text[i+2:]
	}
	st, err := sql.Parse(text)
	if err != nil || st == nil {
		return nil, nil, false
	}
	if st, err = sql.QualifyNames(st, nameScope{e: e, path: path, restoring: true}); err != nil {
		return nil, nil, false
	}
	return st, path, true
}
