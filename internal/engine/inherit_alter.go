package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ALTER TABLE of the columns of a table with inheritance children: DROP
// COLUMN, RENAME COLUMN and ALTER COLUMN … TYPE reach the descendants as
// PostgreSQL's do. A descendant keeps a column the table drops when it
// declared the column itself (PostgreSQL's attislocal) or has another
// parent that keeps it (attinhcount); the engine keeps the first, per
// table, as the columns a table has from its parents alone
// (inheritState.inheritOnly), and counts the second from the links. Each
// descendant's ALTER is bound and checked (its readers, its rows under
// the new types) before any table changes, then the descendants are
// altered, the farthest first, and the table last.

// inheritedOnly reports whether column col of table name comes from its
// parents alone.
func (e *Engine) inheritedOnly(name, col string) bool {
	return slices.Contains(e.inheritOnly[name], col)
}

// setInheritedOnly records whether column col of table name comes from
// its parents alone.
func (e *Engine) setInheritedOnly(name, col string, only bool) {
	setOnlyIn(&e.inheritOnly, name, col, only)
}

// localAfterDetach makes the columns of child that no parent gives any
// more its own, as NO INHERIT does in PostgreSQL.
func (e *Engine) localAfterDetach(child string) {
	for _, c := range slices.Clone(e.inheritOnly[child]) {
		if e.inheritCount(child, c) == 0 {
			e.setInheritedOnly(child, c, false)
		}
	}
	for _, c := range slices.Clone(e.inheritChecks[child]) {
		if e.checkInheritCount(child, c) == 0 {
			setOnlyIn(&e.inheritChecks, child, c, false)
		}
	}
}

// inheritCount is the number of parents of table name that have column
// col (PostgreSQL's attinhcount).
func (e *Engine) inheritCount(name, col string) int {
	n := 0
	for _, p := range e.parentsOf(name) {
		if pt := e.tables[p]; pt != nil && slices.ContainsFunc(pt.cols, func(c plan.Column) bool { return c.Name == col }) {
			n++
		}
	}
	return n
}

// hasColumn reports whether table name has column col.
func (e *Engine) hasColumn(name, col string) bool {
	t := e.tables[name]
	return t != nil && slices.ContainsFunc(t.cols, func(c plan.Column) bool { return c.Name == col })
}

// columnChanges are what an ALTER TABLE does to the columns a table
// keeps: each renamed column's new name, each retyped column's new type
// as a column definition writes it, and the columns it drops.
type columnChanges struct {
	renamed map[string]string
	retyped map[string]string
	order   []string // the retyped columns, in the table's order
	dropped []string
}

func changesOf(t *table, a *sql.AlterTable) columnChanges {
	ch := columnChanges{renamed: map[string]string{}, retyped: map[string]string{}, dropped: a.Dropped}
	for i, o := range a.Map {
		if o < 0 {
			continue
		}
		old, c := t.cols[o], a.New.Cols[i]
		if c.Name != old.Name {
			ch.renamed[old.Name] = c.Name
		}
		if c.Type != old.Type {
			typ := c.Type.String()
			if c.Domain != nil {
				typ = expr.QuoteIdent(c.Domain.Name())
			}
			ch.retyped[old.Name] = typ
			ch.order = append(ch.order, old.Name)
		}
	}
	return ch
}

// descendantAlter is the ALTER TABLE that a change of a table's columns
// makes in one of its descendants.
type descendantAlter struct {
	table string
	a     *sql.AlterTable
}

// alterDescendants runs before ALTER TABLE a drops, renames or retypes
// columns of table t, which has inheritance children: it alters each
// descendant as PostgreSQL does, once every one of them and t itself
// have passed the checks an ALTER TABLE makes, and returns their notices.
func (e *Engine) alterDescendants(t *table, a *sql.AlterTable, added []int) ([]string, error) {
	ch := changesOf(t, a)
	if len(added) > 0 && (len(ch.dropped) > 0 || len(ch.retyped) > 0) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE of table %q, which has inheritance children, adding columns and dropping or retyping others in one statement is not supported", a.Table).
			WithHint("write each change in its own ALTER TABLE")
	}
	if a.Only {
		for old := range ch.renamed {
			return nil, pgerr.New(pgerr.InvalidTableDef, "inherited column %q must be renamed in child tables too", old)
		}
		for _, c := range ch.order {
			return nil, pgerr.New(pgerr.InvalidTableDef, "type of inherited column %q must be changed in child tables too", c)
		}
		// The children keep the columns ONLY drops, as their own.
		for _, k := range e.childrenOf(a.Table) {
			for _, d := range ch.dropped {
				e.setInheritedOnly(k, d, false)
			}
			if err := e.storeInherits(k); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	desc := e.inheritDescendants(a.Table)
	// The tables that drop each column: a descendant whose column comes
	// from its parents alone, each of which drops it.
	drops := map[string][]string{}
	for _, col := range ch.dropped {
		in := map[string]bool{a.Table: true}
		for more := true; more; {
			more = false
			for _, d := range desc {
				if in[d] || !e.hasColumn(d, col) || !e.inheritedOnly(d, col) {
					continue
				}
				if !slices.ContainsFunc(e.parentsOf(d), func(p string) bool { return e.hasColumn(p, col) && !in[p] }) {
					in[d], more = true, true
					drops[d] = append(drops[d], col)
				}
			}
		}
	}
	// A descendant that has a renamed column from a parent the rename
	// does not reach would lose it (42P16).
	reached := map[string]bool{a.Table: true}
	for _, d := range desc {
		reached[d] = true
	}
	for old := range ch.renamed {
		for _, d := range desc {
			if slices.ContainsFunc(e.parentsOf(d), func(p string) bool { return !reached[p] && e.hasColumn(p, old) }) {
				return nil, pgerr.New(pgerr.InvalidTableDef, "cannot rename inherited column %q", old)
			}
		}
	}
	var plans []descendantAlter
	for _, d := range desc {
		var cmds []string
		q := expr.QuoteIdent
		for _, col := range drops[d] {
			cmd := "DROP COLUMN " + q(col)
			if a.Cascade {
				cmd += " CASCADE"
			}
			cmds = append(cmds, cmd)
		}
		for _, col := range ch.order {
			if e.hasColumn(d, col) {
				cmds = append(cmds, "ALTER COLUMN "+q(col)+" TYPE "+ch.retyped[col])
			}
		}
		text := ""
		switch {
		case len(cmds) > 0:
			text = "ALTER TABLE " + q(d) + " " + strings.Join(cmds, ", ")
		case len(ch.renamed) > 0:
			for old, nu := range ch.renamed {
				if e.hasColumn(d, old) {
					text = "ALTER TABLE " + q(d) + " RENAME COLUMN " + q(old) + " TO " + q(nu)
				}
			}
		}
		if text == "" {
			continue
		}
		da, err := e.bindDescendantAlter(text)
		if err != nil {
			return nil, err
		}
		plans = append(plans, descendantAlter{table: d, a: da})
	}
	// Every table's checks before any table changes, so that a failure
	// leaves the hierarchy as it was.
	if err := e.checkAlterAhead(t, a); err != nil {
		return nil, err
	}
	for _, p := range plans {
		if err := e.checkAlterAhead(e.tables[p.table], p.a); err != nil {
			return nil, err
		}
	}
	var notices []string
	e.inheritRecursing = true
	for i := len(plans) - 1; i >= 0; i-- {
		res, err := e.alterTable(plans[i].a)
		notices = append(notices, res.Notices...)
		if err != nil {
			e.inheritRecursing = false
			return notices, err
		}
	}
	e.inheritRecursing = false
	// The views over the descendants are built again once, those that
	// read the table or its ancestors by the table's own ALTER after it.
	more, err := e.rebuildViews(e.descendantReaders(a.Table, plans), true, "the tables of the inheritance hierarchy it reads")
	notices = append(notices, more...)
	if err != nil {
		return notices, err
	}
	// What each descendant has from its parents alone follows.
	for _, d := range desc {
		changed := false
		for _, col := range drops[d] {
			if e.inheritedOnly(d, col) {
				e.setInheritedOnly(d, col, false)
				changed = true
			}
		}
		for old, nu := range ch.renamed {
			if e.inheritedOnly(d, old) {
				e.setInheritedOnly(d, old, false)
				e.setInheritedOnly(d, nu, true)
				changed = true
			}
		}
		if changed {
			if err := e.storeInherits(d); err != nil {
				return notices, err
			}
		}
	}
	return notices, nil
}

// descendantReaders returns the materialized views that read a table of
// plans (naming it or an ancestor), and those that read them, but for
// those that name table or an ancestor of it, or read a view that does,
// which table's ALTER builds.
func (e *Engine) descendantReaders(table string, plans []descendantAlter) []string {
	skip := map[string]bool{}
	for _, a := range e.inheritAncestors(table) {
		skip[a] = true
	}
	want := map[string]bool{} // a view reads the descendants of the relations it names
	for _, p := range plans {
		for _, a := range e.inheritAncestors(p.table) {
			want[a] = !skip[a]
		}
	}
	var out []string
	for _, v := range e.order {
		name := v.meta().name
		switch deps := e.deps[name]; {
		case slices.ContainsFunc(deps, func(d string) bool { return skip[d] }):
			skip[name] = true
		case slices.ContainsFunc(deps, func(d string) bool { return want[d] }):
			want[name] = true
			out = append(out, name)
		}
	}
	return out
}

// bindDescendantAlter binds an ALTER TABLE the engine makes of a
// descendant.
func (e *Engine) bindDescendantAlter(text string) (*sql.AlterTable, error) {
	st, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	b, err := sql.Bind(e, st)
	if err != nil {
		return nil, err
	}
	da, ok := b.(*sql.AlterTable)
	if !ok {
		return nil, pgerr.New(pgerr.Internal, "%s binds to %T", text, b)
	}
	return da, nil
}

// checkAlterAhead makes the checks ALTER TABLE a of t makes before it
// changes t (its readers, its indexes and row-level security, its rows
// under the new types), without changing anything.
func (e *Engine) checkAlterAhead(t *table, a *sql.AlterTable) error {
	if _, err := e.alteredReaders(t, a); err != nil {
		return err
	}
	if len(t.indexes) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot change the columns or the name of table %q: it has index %q", a.Table, t.indexes[0].name).
			WithHint("DROP INDEX, alter the table, then create the index again")
	}
	return e.checkAlterRows(t, a)
}

// checkAlterRows refuses ALTER TABLE a of t under row-level security and
// converts t's rows to the new column types, failing as the change would.
func (e *Engine) checkAlterRows(t *table, a *sql.AlterTable) error {
	if e.hasRowSecurity(a.Table) {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot change the columns or the name of table %q: it has row-level security", a.Table).
			WithHint("DROP POLICY and ALTER TABLE … DISABLE ROW LEVEL SECURITY, alter the table, then set them again")
	}
	if !slices.ContainsFunc(a.Cast, func(c expr.Expr) bool { return c != nil }) {
		return nil
	}
	var err error
	t.scan(func(_ uint64, row value.Row) bool {
		for _, c := range a.Cast {
			if c == nil {
				continue
			}
			if _, err = c.Eval(row); err != nil {
				return false
			}
		}
		return true
	})
	return err
}

// renameLinks renames table from to to in the inheritance links and in
// what the engine keeps of its columns, and records the links of the
// tables they name; it returns what undoes it.
func (e *Engine) renameLinks(from, to string) (func(), error) {
	saved := slices.Clone(e.inherits)
	var touched []string
	for i, l := range e.inherits {
		if l.child == from {
			e.inherits[i].child = to
		}
		if l.parent == from {
			e.inherits[i].parent = to
			touched = append(touched, l.child)
		}
	}
	only, had := e.inheritOnly[from]
	if had {
		delete(e.inheritOnly, from)
		e.inheritOnly[to] = only
	}
	checks, hadChecks := e.inheritChecks[from]
	if hadChecks {
		delete(e.inheritChecks, from)
		e.inheritChecks[to] = checks
	}
	undo := func() {
		e.inherits = saved
		if had {
			delete(e.inheritOnly, to)
			e.inheritOnly[from] = only
		}
		if hadChecks {
			delete(e.inheritChecks, to)
			e.inheritChecks[from] = checks
		}
	}
	if e.store != nil {
		if err := e.store.Drop([]string{inheritStoreName(from)}); err != nil {
			undo()
			return nil, err
		}
	}
	for _, c := range append(touched, to) {
		if err := e.storeInherits(c); err != nil {
			undo()
			return nil, err
		}
	}
	return undo, nil
}

// alterRenamedMember runs ALTER TABLE … RENAME TO of a table in an
// inheritance hierarchy: the links follow the name first, so that the
// views over the hierarchy are bound again over it, and go back when the
// ALTER fails.
func (e *Engine) alterRenamedMember(a *sql.AlterTable) (Result, error) {
	undo, err := e.renameLinks(a.Table, a.New.Name)
	if err != nil {
		return Result{}, err
	}
	e.inheritRenaming = true
	res, err := e.alterTable(a)
	e.inheritRenaming = false
	if err != nil {
		undo()
		if e.store != nil {
			for _, c := range append(e.childrenOf(a.Table), a.Table) {
				e.storeInherits(c) //nolint:errcheck // the ALTER's error is the one to report
			}
			_ = e.store.Drop([]string{inheritStoreName(a.New.Name)})
		}
		return res, err
	}
	return res, nil
}

// renamesMember reports whether ALTER TABLE a renames a table of an
// inheritance hierarchy (and is not that rename running).
func (e *Engine) renamesMember(a *sql.AlterTable) bool {
	if e.inheritRenaming || a.New == nil || a.New.Name == a.Table || len(e.inherits) == 0 {
		return false
	}
	return len(e.parentsOf(a.Table)) > 0 || len(e.childrenOf(a.Table)) > 0
}

// inheritedOnlySQL is the statement a database file keeps of the columns
// of child that its parents alone give it; "" when none.
func (e *Engine) inheritedOnlySQL(child string) string {
	var parts []string
	for _, c := range e.inheritOnly[child] {
		parts = append(parts, fmt.Sprintf("ALTER COLUMN %s SET (attislocal = false)", expr.QuoteIdent(c)))
	}
	for _, c := range e.inheritChecks[child] {
		parts = append(parts, "SET (conislocal = '"+strings.ReplaceAll(c, "'", "''")+"')")
	}
	if len(parts) == 0 {
		return ""
	}
	return "ALTER TABLE " + expr.QuoteIdent(child) + " " + strings.Join(parts, ", ")
}

// setOnlyIn records in m whether item (a column, a constraint) of table
// name comes from its parents alone.
func setOnlyIn(m *map[string][]string, name, item string, only bool) {
	if *m == nil {
		*m = map[string][]string{}
	}
	items := slices.DeleteFunc((*m)[name], func(c string) bool { return c == item })
	if only {
		items = append(items, item)
	}
	if len(items) == 0 {
		delete(*m, name)
		return
	}
	(*m)[name] = items
}

// inheritableCheck returns table name's CHECK constraint named check
// when its children inherit it.
func (e *Engine) inheritableCheck(name, check string) (sql.Check, bool) {
	t := e.tables[name]
	if t == nil {
		return sql.Check{}, false
	}
	for _, c := range t.def.Checks {
		if c.Name == check && !c.NoInherit {
			return c, true
		}
	}
	return sql.Check{}, false
}

// checkInheritCount is the number of parents of table name that give it
// CHECK constraint check (PostgreSQL's coninhcount).
func (e *Engine) checkInheritCount(name, check string) int {
	n := 0
	for _, p := range e.parentsOf(name) {
		if _, ok := e.inheritableCheck(p, check); ok {
			n++
		}
	}
	return n
}

// inheritInPlace runs before an ALTER TABLE a that changes constraints
// or defaults of a table in an inheritance hierarchy (SET and DROP NOT
// NULL, SET and DROP DEFAULT, ADD and DROP CONSTRAINT … CHECK): as in
// PostgreSQL, a CHECK a parent gives cannot be dropped (42P16), and the
// change reaches every descendant, but with ONLY (where an inheritable
// CHECK must reach the children, 42P16) and for a CHECK … NO INHERIT. A
// descendant keeps a CHECK dropped from its parent that it declared
// itself or has from another parent. Every descendant's ALTER is bound
// and its rows checked before any table changes.
func (e *Engine) inheritInPlace(t *table, a *sql.AlterTable) ([]string, error) {
	old := t.def
	var dropped, added []sql.Check
	for _, c := range old.Checks {
		if !slices.ContainsFunc(a.New.Checks, func(n sql.Check) bool { return n.Name == c.Name }) {
			if e.checkInheritCount(a.Table, c.Name) > 0 {
				return nil, pgerr.New(pgerr.InvalidTableDef, "cannot drop inherited constraint %q of relation %q", c.Name, a.Table)
			}
			if !c.NoInherit {
				dropped = append(dropped, c)
			}
		}
	}
	for _, c := range a.New.Checks {
		if !c.NoInherit && !slices.ContainsFunc(old.Checks, func(o sql.Check) bool { return o.Name == c.Name }) {
			added = append(added, c)
		}
	}
	if len(e.childrenOf(a.Table)) == 0 {
		return nil, nil
	}
	if a.Only {
		if len(added) > 0 {
			return nil, pgerr.New(pgerr.InvalidTableDef, "constraint must be added to child tables too")
		}
		for _, k := range e.childrenOf(a.Table) {
			for _, c := range dropped {
				setOnlyIn(&e.inheritChecks, k, c.Name, false)
			}
			if err := e.storeInherits(k); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	if len(a.New.Cols) != len(old.Cols) {
		return nil, pgerr.New(pgerr.Internal, "ALTER TABLE %q in place changes its columns", a.Table)
	}
	q := expr.QuoteIdent
	cols := a.ColumnCmds // the commands every descendant gets
	desc := e.inheritDescendants(a.Table)
	drops := map[string][]string{}
	for _, c := range dropped {
		in := map[string]bool{a.Table: true}
		for more := true; more; {
			more = false
			for _, d := range desc {
				if in[d] || !slices.Contains(e.inheritChecks[d], c.Name) {
					continue
				}
				if !slices.ContainsFunc(e.parentsOf(d), func(p string) bool {
					_, has := e.inheritableCheck(p, c.Name)
					return has && !in[p]
				}) {
					in[d], more = true, true
					drops[d] = append(drops[d], c.Name)
				}
			}
		}
	}
	var notices []string
	var plans []descendantAlter
	gets := map[string][]string{} // the CHECKs each descendant gets from the table
	for _, d := range desc {
		cmds := slices.Clone(cols)
		for _, c := range drops[d] {
			cmds = append(cmds, "DROP CONSTRAINT "+q(c))
		}
		for _, c := range added {
			if mine, ok := e.inheritableCheck(d, c.Name); ok || slices.ContainsFunc(e.tables[d].def.Checks, func(x sql.Check) bool { return x.Name == c.Name }) {
				if !ok || mine.SQL != c.SQL {
					return nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", c.Name, d)
				}
				notices = append(notices, fmt.Sprintf("merging constraint %q with inherited definition", c.Name))
				continue
			}
			cmds = append(cmds, "ADD CONSTRAINT "+q(c.Name)+" CHECK ("+c.SQL+")")
			gets[d] = append(gets[d], c.Name)
		}
		if len(cmds) == 0 {
			continue
		}
		da, err := e.bindDescendantAlter("ALTER TABLE " + q(d) + " " + strings.Join(cmds, ", "))
		if err != nil {
			return nil, err
		}
		plans = append(plans, descendantAlter{table: d, a: da})
	}
	// The table's rows too: its own ALTER runs after the descendants'.
	if err := checkRowsAhead(t, a); err != nil {
		return nil, err
	}
	for _, p := range plans {
		if err := checkRowsAhead(e.tables[p.table], p.a); err != nil {
			return nil, err
		}
	}
	e.inheritRecursing = true
	for _, p := range plans {
		res, err := e.alterTable(p.a)
		notices = append(notices, res.Notices...)
		if err != nil {
			e.inheritRecursing = false
			return notices, err
		}
	}
	e.inheritRecursing = false
	for _, d := range desc {
		if len(drops[d]) == 0 && len(gets[d]) == 0 {
			continue
		}
		for _, c := range drops[d] {
			setOnlyIn(&e.inheritChecks, d, c, false)
		}
		for _, c := range gets[d] {
			setOnlyIn(&e.inheritChecks, d, c, true)
		}
		if err := e.storeInherits(d); err != nil {
			return notices, err
		}
	}
	return notices, nil
}

// checkRowsAhead checks t's rows against the NOT NULL columns and CHECK
// constraints ALTER TABLE a gives it, without changing anything.
func checkRowsAhead(t *table, a *sql.AlterTable) error {
	next := newTable(a.New)
	var err error
	t.scan(func(_ uint64, row value.Row) bool {
		for i, c := range next.def.Cols {
			if c.NotNull && row[i].IsNull() {
				err = pgerr.New(pgerr.NotNullViolation, "column %q of relation %q contains null values", c.Name, t.name)
				return false
			}
		}
		for _, ch := range next.def.Checks {
			v, e2 := ch.Expr.Eval(row)
			if e2 != nil {
				err = e2
				return false
			}
			if !v.IsNull() && !v.Bool() {
				err = pgerr.New(pgerr.CheckViolation, "check constraint %q of relation %q is violated by some row", ch.Name, t.name)
				return false
			}
		}
		return true
	})
	return err
}
