package engine

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// An ALTER TABLE that gives a table a new key (ALTER TABLE … SET SCHEMA)
// keeps the views that read it: PostgreSQL's views follow the table by
// its oid, these are kept as text. Each reader's statement is resolved
// through the search path it was made under, the table's old key renamed
// to the new one, and bound over the table as the ALTER leaves it; once
// the ALTER is done, the reader is kept as that statement, written with
// every name of a schema other than public qualified (sql.ResolvedText),
// and its materialized views are built again as for any ALTER TABLE
// (alter_views.go). The readers are bound with the plain views among
// them as their new statements, so that a view over a plain view over
// the table binds too; a plain view read by a view that does not read
// the table is not followed (the ALTER is refused as before).

// movedReader is a reader's statement with the table's new key.
type movedReader struct {
	// stmt is a plain view's query, or a materialized view's CREATE
	// statement, resolved and renamed.
	stmt *sql.Stmt
	// text is the statement the store keeps for the reader then.
	text string
}

// stmtOr is the reader's statement, or st when there is no reader.
func (m *movedReader) stmtOr(st *sql.Stmt) *sql.Stmt {
	if m == nil {
		return st
	}
	return m.stmt
}

// movedText resolves the statement of the reader name and renames the
// relation's key old to new in it; ok is false when it cannot. The
// relation is renamed, and its readers' plans read it as they did.
func (e *Engine) movedText(name, old, new string) (*movedReader, bool) {
	rename := func(schema, n string) (string, bool, error) {
		if schema == "" && n == old {
			return new, true, nil
		}
		return "", false, nil
	}
	return e.rewrittenReader(name, func(st *sql.Stmt) (*sql.Stmt, error) { return sql.RenameRelations(st, rename) })
}

// rewrittenReader resolves the statement of the reader name and rewrites
// it by rewrite; ok is false when it cannot.
func (e *Engine) rewrittenReader(name string, rewrite func(*sql.Stmt) (*sql.Stmt, error)) (*movedReader, bool) {
	return e.rewrittenReaderIn(name, func(st *sql.Stmt, _ []string) (*sql.Stmt, error) { return rewrite(st) })
}

// rewrittenReaderIn is rewrittenReader whose rewrite is also told the
// search path the statement resolves its names through.
func (e *Engine) rewrittenReaderIn(name string, rewrite func(st *sql.Stmt, path []string) (*sql.Stmt, error)) (*movedReader, bool) {
	scope := func(path []string) nameScope { return nameScope{e: e, path: path, restoring: true} }
	if nv := e.named[name]; nv != nil {
		if nv.query == nil {
			return nil, false
		}
		st, err := rewrite(nv.query, defaultPath)
		if err != nil {
			return nil, false
		}
		var ok bool
		sel, err := sql.ResolvedText(st, scope(defaultPath))
		if err != nil {
			return nil, false
		}
		cols := make([]string, len(nv.cols))
		for i, c := range nv.cols {
			cols[i] = expr.QuoteIdent(c.Name)
		}
		text := "CREATE VIEW " + e.keyText(name) + " (" + strings.Join(cols, ", ") + ")"
		if nv.invoker {
			text += " WITH (security_invoker = true)"
		}
		text += " AS " + sel
		if nv.check != "" {
			text += " WITH " + strings.ToUpper(nv.check) + " CHECK OPTION"
		}
		if st, ok = e.reparse(sel); !ok {
			return nil, false
		}
		return &movedReader{stmt: st, text: text}, true
	}
	vs, ok := e.viewStmts[name]
	if !ok {
		return nil, false
	}
	text, path := vs.text, vs.path
	const set = "SET search_path = "
	if strings.HasPrefix(text, set) {
		i := strings.Index(text, ";\n")
		if i < 0 {
			return nil, false
		}
		path, text = e.pathOf(text[len(set):i], ""), text[i+2:]
	}
	if path == nil {
		path = defaultPath
	}
	st, err := sql.Parse(text)
	if err != nil || st == nil {
		return nil, false
	}
	if st, err = sql.QualifyNames(st, scope(path)); err != nil {
		return nil, false
	}
	if st, err = rewrite(st, path); err != nil {
		return nil, false
	}
	out, err := sql.ResolvedText(st, scope(path))
	if err != nil {
		return nil, false
	}
	if st, ok = e.reparse(out); !ok {
		return nil, false
	}
	return &movedReader{stmt: st, text: out}, true
}

// reparse parses a resolved text again and resolves its names, so that
// the statement's text, which the catalogs show, is the new one.
func (e *Engine) reparse(text string) (*sql.Stmt, bool) {
	st, err := sql.Parse(text)
	if err != nil || st == nil {
		return nil, false
	}
	st, err = sql.QualifyNames(st, nameScope{e: e, path: defaultPath, restoring: true})
	return st, err == nil
}

// keyText is the relation keyed key as SQL names it, qualified by its
// schema unless it is public's.
func (e *Engine) keyText(key string) string {
	sc, n := e.splitKey(key)
	if sc == "public" {
		return expr.QuoteIdent(n)
	}
	return expr.QuoteIdent(sc) + "." + expr.QuoteIdent(n)
}

// bindMoved binds a moved reader's statement over cat.
func bindMoved(cat sql.Catalog, m *movedReader, materialized bool) (*sql.CreateView, error) {
	return bindMovedWith(&recorder{cat: cat, seen: map[string]bool{}}, m, materialized)
}

// bindMovedWith is bindMoved recording what the statement reads in rec.
func bindMovedWith(rec *recorder, m *movedReader, materialized bool) (*sql.CreateView, error) {
	rec.text = m.text
	// Binding marks the calls of user aggregates in the tree, which the
	// reader keeps as its statement: it binds a copy.
	st := *m.stmt
	st.Node = proto.Clone(m.stmt.Node).(*pg_query.Node)
	if !materialized {
		p, err := sql.BindQuery(rec, &st, false)
		if err != nil {
			return nil, err
		}
		return &sql.CreateView{Plan: p}, nil
	}
	b, err := sql.Bind(rec, &st)
	if err != nil {
		return nil, err
	}
	cv, ok := b.(*sql.CreateView)
	if !ok {
		return nil, errReaderKind(b)
	}
	return cv, nil
}

// applyMoved keeps the moved readers as their new statements, and their
// dependencies on the table's new key; the ALTER has succeeded.
func (e *Engine) applyMoved(r *alterReaders, old, new string) error {
	if r == nil || len(r.moved) == 0 {
		return nil
	}
	for name, deps := range e.deps {
		if i := slices.Index(deps, old); i >= 0 {
			deps = slices.Clone(deps)
			deps[i] = new
			slices.Sort(deps)
			e.deps[name] = deps
		}
	}
	for _, name := range sortedKeys(r.moved) {
		m := r.moved[name]
		if nv := e.named[name]; nv != nil {
			nv.query, nv.text = m.stmt, m.text
			if ss, ok := e.store.(StatementStore); ok && e.store != nil {
				if err := ss.SetStatement(name, m.text); err != nil {
					return err
				}
			}
			continue
		}
		vs := e.viewStmts[name]
		vs.text, vs.path = m.text, nil
		e.viewStmts[name] = vs
		if err := e.restate(name, e.views[name] != nil); err != nil {
			return err
		}
	}
	return nil
}

// movedReadersOf are the readers deps of a table an ALTER gives a new
// key, as their statements with it; nil for any other ALTER. A plain
// view whose own readers are not all among deps is left out: they would
// bind it as it was (every view over a plain view over the table is
// among the table's readers, as its plan inlines the view's).
func (e *Engine) movedReadersOf(deps []string, a *sql.AlterTable) map[string]*movedReader {
	if a.Table == a.New.Name {
		return nil
	}
	in := map[string]bool{}
	for _, d := range deps {
		in[d] = true
	}
	out := map[string]*movedReader{}
	readers := e.dependentsIndex()
	for _, name := range deps {
		if e.named[name] != nil && slices.ContainsFunc(readers[name], func(r string) bool { return !in[r] }) {
			continue
		}
		if m, ok := e.movedText(name, a.Table, a.New.Name); ok {
			out[name] = m
		}
	}
	return out
}

// movedView is the plain view name as the binder sees it with its
// statement m.
func (o alterOverlay) movedView(name string, m *movedReader) (*sql.Relation, bool) {
	rel, ok := o.Engine.Relation(name)
	if !ok {
		return rel, ok
	}
	r := *rel
	r.Query = m.stmt
	return &r, true
}
