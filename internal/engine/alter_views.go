package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TABLE of the columns of a table that views read. A view's plan
// reads the table's rows by position and its definition is kept as text,
// so the engine binds each reader's text again over the table as the
// ALTER leaves it, before anything changes:
//
//   - a reader that binds to the same columns (names and types) does not
//     read what changed: the ALTER goes ahead, and each materialized view
//     that reads the table is built again from its new plan after it (a
//     cold start, said by a NOTICE), in its place among the views;
//   - one that no longer binds, or binds to other columns, reads a column
//     the ALTER drops (2BP01, or dropped with it under CASCADE), renames
//     (0A000: PostgreSQL's views follow the rename, this text would not),
//     or selects * and would gain the column added (0A000); a reader of
//     a table the ALTER renames or moves is bound as its statement with
//     the new name instead (alter_move.go);
//   - a reader whose text names a column whose type changes is refused
//     as PostgreSQL refuses it (0A000), by name: a column of another table
//     with the same name counts too.

// alterReaders are the views that read a table an ALTER TABLE changes the
// columns of, bound again over the table's new definition.
type alterReaders struct {
	rebuild []string                   // materialized views, in creation order
	plans   map[string]*sql.CreateView // their definitions bound again
	empty   map[string]*sql.CreateView // unpopulated ones (refresh.go)
	cascade []string                   // readers DROP COLUMN … CASCADE drops
	// moved are the readers of a table given a new key, kept as their
	// statements with it once the ALTER is done (alter_move.go).
	moved map[string]*movedReader
	// over is what the NOTICEs say the views were built again over,
	// when not the new columns of the table.
	over string
	// renamed are the moved readers whose references to a column RENAME
	// COLUMN renames were renamed (alter_rename_column.go).
	renamed map[string]bool
}

// alterOverlay is the engine's catalog with the table altered as the
// ALTER TABLE leaves it.
type alterOverlay struct {
	*Engine
	old string
	rel *sql.Relation
	// moved are the plain views that read a table given a new key, as
	// their statements with it (alter_move.go).
	moved map[string]*movedReader
	// rewritten are the plain views read through their statements as
	// the ALTER rewrites them (alter_rename_column.go).
	rewritten map[string]*sql.Relation
	// parts are the partitions of a partitioned table as the ALTER
	// leaves them (partition_alter.go).
	parts map[string]*sql.Relation
}

func (o alterOverlay) Relation(name string) (*sql.Relation, bool) {
	switch name {
	case o.rel.Name:
		return o.rel, true
	case o.old:
		return nil, false
	}
	if r, ok := o.parts[name]; ok {
		return r, true
	}
	if r, ok := o.rewritten[name]; ok {
		return r, true
	}
	if m := o.moved[name]; m != nil && o.named[name] != nil {
		return o.movedView(name, m)
	}
	return o.Engine.Relation(name)
}

// alteredReaders checks the views that read t against a, and returns
// those to build again.
func (e *Engine) alteredReaders(t *table, a *sql.AlterTable) (*alterReaders, error) {
	deps := e.dependentsIndex()[a.Table]
	if len(deps) == 0 {
		return nil, nil
	}
	next := newTable(a.New)
	rel, _ := tableRelation(a.New.Name, next)
	rel.Inherit = e.inheritMembers(a.New.Name, next.cols)
	cat := alterOverlay{Engine: e, old: a.Table, rel: rel, moved: e.movedReadersOf(deps, a), rewritten: map[string]*sql.Relation{}}
	if len(t.kids) > 0 {
		next.kids = t.kids // for tableoid, which routes the rows
		pa, err := e.alteredPartitions(t, a)
		if err != nil {
			return nil, err
		}
		cat.parts = pa.relations(e, rel)
	}
	typed := retypedColumns(t, a)
	rename, renaming := renamedColumnOf(t, a)
	if renaming {
		deps = e.readersInOrder(deps)
	}
	out := &alterReaders{plans: map[string]*sql.CreateView{}, empty: map[string]*sql.CreateView{}}
	var broken []string // readers of a column dropped
	for _, name := range deps {
		_, _, def, _ := e.readerText(name)
		if col := namesColumn(def, typed); col != "" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of a column used by a view or rule").
				WithDetail("rule _RETURN on %s %s depends on column %q", e.kindName(name), name, col)
		}
	}
	for _, name := range deps {
		cols, text, _, ok := e.readerText(name)
		if !ok {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot change the columns of table %q: %s %s reads it", a.Table, e.kindName(name), name).
				WithHint("drop the views that read the table, alter it, then create them again")
		}
		materialized := e.views[name] != nil || e.unpopulated[name] != nil
		var bound *sql.CreateView
		var err error
		var m *movedReader
		var renamed bool
		if renaming {
			if m, renamed, err = e.renamedReader(name, rename, cat, materialized); err != nil {
				return nil, err
			}
		}
		if !renamed {
			m, renamed = cat.moved[name]
		} else {
			if out.renamed == nil {
				out.renamed = map[string]bool{}
			}
			out.renamed[name] = true
		}
		if renamed {
			if bound, err = bindMoved(cat, m, materialized); err == nil {
				if out.moved == nil {
					out.moved = map[string]*movedReader{}
				}
				out.moved[name] = m
				e.readRewritten(cat.rewritten, name, m)
			}
		} else {
			bound, err = bindReader(cat, text, materialized)
		}
		if err == nil && sameColumns(bound.Plan.Columns(), cols, materialized) {
			if e.views[name] != nil {
				out.plans[name] = bound
			} else if e.unpopulated[name] != nil {
				out.empty[name] = bound
			}
			continue
		}
		switch {
		case len(a.Dropped) > 0:
			broken = append(broken, name)
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this ALTER TABLE of table %q is not supported: %s %s reads what it changes, and is kept as the text that defined it", a.Table, e.kindName(name), name).
				WithHint("drop the views that read the table, alter it, then create them again")
		}
	}
	if len(broken) > 0 && !a.Cascade {
		lines := make([]string, len(broken))
		for i, name := range broken {
			lines[i] = fmt.Sprintf("%s %s depends on column %s of table %s", e.kindName(name), name, a.Dropped[0], a.Table)
		}
		return nil, &pgerr.Error{Code: pgerr.DependentObjects,
			Message: fmt.Sprintf("cannot drop column %s of table %s because other objects depend on it", a.Dropped[0], a.Table),
			Detail:  strings.Join(lines, "\n"),
			Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	out.cascade = broken
	for _, v := range e.order {
		if name := v.meta().name; out.plans[name] != nil {
			out.rebuild = append(out.rebuild, name)
		}
	}
	return out, nil
}

// readerText returns a view's columns, the statement to bind it again
// and its defining SELECT.
func (e *Engine) readerText(name string) (cols []plan.Column, text, def string, ok bool) {
	if v := e.views[name]; v != nil {
		st, ok := e.viewStmts[name]
		return v.meta().cols, st.text, v.meta().def.Definition, ok
	}
	if cv := e.unpopulated[name]; cv != nil {
		st, ok := e.viewStmts[name]
		return cv.Plan.Columns(), st.text, cv.Definition, ok
	}
	if nv := e.named[name]; nv != nil && nv.query != nil {
		return nv.cols, nv.query.SQL, nv.query.SQL, true
	}
	return nil, "", "", false
}

// bindReader binds a view's text again: a materialized view's CREATE
// statement, a plain view's SELECT.
func bindReader(cat sql.Catalog, text string, materialized bool) (*sql.CreateView, error) {
	st, err := sql.Parse(text)
	if err != nil || st == nil {
		return nil, pgerr.New(pgerr.Internal, "cannot parse a view's text again")
	}
	rec := &recorder{cat: cat, seen: map[string]bool{}, text: text}
	if !materialized {
		p, err := sql.BindQuery(rec, st, false)
		if err != nil {
			return nil, err
		}
		return &sql.CreateView{Plan: p}, nil
	}
	b, err := sql.Bind(rec, st)
	if err != nil {
		return nil, err
	}
	cv, ok := b.(*sql.CreateView)
	if !ok {
		return nil, errReaderKind(b)
	}
	return cv, nil
}

// sameColumns reports whether a view bound again has the columns it had:
// their types, and their names but for a plain view's, which its column
// list (CREATE VIEW v (x, y)) renames after its SELECT.
func sameColumns(a, b []plan.Column, names bool) bool {
	return slices.EqualFunc(a, b, func(x, y plan.Column) bool { return (!names || x.Name == y.Name) && x.Type == y.Type })
}

// retypedColumns are the names of t's columns whose type a changes.
func retypedColumns(t *table, a *sql.AlterTable) []string {
	var out []string
	for i, c := range a.Cast {
		if c != nil && a.Map[i] >= 0 {
			out = append(out, t.cols[a.Map[i]].Name)
		}
	}
	return out
}

// namesColumn returns the first of cols that the SELECT def names as a
// column (by its last name, whatever it qualifies it with), or "" for
// none; * names every column.
func namesColumn(def string, cols []string) string {
	if len(cols) == 0 {
		return ""
	}
	tree, err := pg_query.ParseToJSON(def)
	if err != nil {
		return cols[0] // cannot tell: the safe side
	}
	var root any
	if json.Unmarshal([]byte(tree), &root) != nil {
		return cols[0]
	}
	found := ""
	var walk func(any)
	walk = func(n any) {
		if found != "" {
			return
		}
		switch n := n.(type) {
		case map[string]any:
			if cr, ok := n["ColumnRef"].(map[string]any); ok {
				fields, _ := cr["fields"].([]any)
				if len(fields) > 0 {
					last, _ := fields[len(fields)-1].(map[string]any)
					if _, star := last["A_Star"]; star {
						found = cols[0]
						return
					}
					if s, ok := last["String"].(map[string]any); ok {
						if name, _ := s["sval"].(string); slices.Contains(cols, name) {
							found = name
							return
						}
					}
				}
			}
			for _, v := range n {
				walk(v)
			}
		case []any:
			for _, v := range n {
				walk(v)
			}
		}
	}
	walk(root)
	return found
}

// rebuildReaders builds again, from the plans bound before the ALTER,
// the materialized views that read the table, each in its place among
// the views; the state they held is let go of first. It returns the
// NOTICEs that say so.
func (e *Engine) rebuildReaders(r *alterReaders, table string) ([]string, error) {
	if r == nil {
		return nil, nil
	}
	for name, cv := range r.empty {
		e.unpopulated[name] = cv
	}
	if len(r.rebuild) == 0 {
		return nil, nil
	}
	gone := map[string]bool{}
	for _, name := range r.rebuild {
		gone[name] = true
	}
	e.shared.release(gone)
	e.read, e.waves = nil, nil
	var notices []string
	for _, name := range r.rebuild {
		old := e.views[name]
		cv := r.plans[name]
		cv.MaxMemory = old.meta().def.MaxMemory
		v, err := e.buildView(cv)
		if err == nil {
			err = e.attachViewIndexes(v) // its indexes, over its new rows
		}
		if err != nil {
			// The table has changed already: the view is left
			// unpopulated, for REFRESH to build, rather than stale.
			e.order = slices.DeleteFunc(e.order, func(o matView) bool { return o == old })
			delete(e.views, name)
			e.addUnpopulated(cv, e.deps[name])
			if serr := e.restate(name, false); serr != nil {
				return notices, serr
			}
			notices = append(notices, fmt.Sprintf("materialized view %q could not be built again (%v): it is left unpopulated", name, err))
			continue
		}
		e.shared.share(v)
		e.views[name] = v
		v.refillOps()
		e.order[slices.Index(e.order, old)] = v
		what := fmt.Sprintf("the new columns of table %q", table)
		switch {
		case r.over != "":
			what = r.over
		case r.moved[name] != nil:
			what = fmt.Sprintf("table %q", table) // moved or renamed (alter_move.go)
		}
		notices = append(notices, fmt.Sprintf("materialized view %q was built again over %s (%d rows)", name, what, v.rowCount()))
	}
	e.read, e.waves = nil, nil
	return notices, nil
}

// errReaderKind is the error for a materialized view's statement that
// binds to b, not to CREATE MATERIALIZED VIEW.
func errReaderKind(b sql.Bound) error {
	return pgerr.New(pgerr.Internal, "a materialized view's text binds to %T", b)
}
