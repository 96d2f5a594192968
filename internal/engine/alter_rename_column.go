package engine

import (
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
		vs, ok := e.viewStmts[name]
		if !ok {
			return nil, false, refuse("is kept as a text that names the column")
		}
		text := vs.text
		if vs.path != nil {
			path = vs.path
		}
		const set = "SET search_path = "
		if strings.HasPrefix(text, set) {
			i := strings.Index(text, ";\n")
			if i < 0 {
				return nil, false, refuse("is kept as a text that names the column")
			}
			path, text = e.pathOf(text[len(set):i], ""), text[i+2:]
		}
		var err error
		if st, err = sql.Parse(text); err != nil || st == nil {
			return nil, false, refuse("cannot be read again")
		}
		if st, err = sql.QualifyNames(st, scope(path)); err != nil {
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
	if err != nil || !sql.SameResolution(before, after) {
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
