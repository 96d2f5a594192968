package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/zset"
)

// Table inheritance (CREATE TABLE … INHERITS, ALTER TABLE … [NO]
// INHERIT). Every table of a hierarchy keeps its own rows; the engine
// keeps only the links, child to parent, in the order they were made. A
// read of a table without ONLY is bound as the union of its and its
// descendants' rows (sql.Relation.Inherit), so that a view over it reads
// each table of the hierarchy as a table of its own: a change to a child
// costs the view one change. A change to the hierarchy itself (a child
// added, detached or dropped) changes what such a view reads: each
// materialized view over a table of the hierarchy is bound and built
// again, a cold start said by a NOTICE.

// KindInherit is a stored table's inheritance links: ALTER TABLE child
// INHERIT parent, one statement per parent, run again at open after the
// tables are created and before their rows and any view.
const KindInherit RelKind = "inherit"

// inheritLink makes child inherit from parent.
type inheritLink struct{ child, parent string }

// inheritState is the engine's inheritance links, in the order they
// were made.
type inheritState struct {
	inherits []inheritLink
	// inheritChild is set while an UPDATE or DELETE of a parent runs
	// over a descendant, whose statement triggers do not fire.
	inheritChild bool
	// inheritOnly are, per table, the columns its parents give it that
	// it does not declare itself (PostgreSQL's attislocal false).
	inheritOnly map[string][]string
	// inheritChecks are, per table, the CHECK constraints its parents
	// give it that it does not declare itself (conislocal false).
	inheritChecks map[string][]string
	// inheritRecursing is set while an ALTER TABLE of a parent alters
	// its descendants (inherit_alter.go); inheritRenaming while a table
	// of a hierarchy is renamed, its links already following.
	inheritRecursing, inheritRenaming bool
}

// parentsOf returns the parents of table name, in order.
func (e *Engine) parentsOf(name string) []string {
	var out []string
	for _, l := range e.inherits {
		if l.child == name {
			out = append(out, l.parent)
		}
	}
	return out
}

// childrenOf returns the children of table name, in the order they
// became its children.
func (e *Engine) childrenOf(name string) []string {
	var out []string
	for _, l := range e.inherits {
		if l.parent == name {
			out = append(out, l.child)
		}
	}
	return out
}

// inheritDescendants returns every descendant of name once (a child
// reached by two paths counts once), nearest first; a session's
// temporary child of a permanent table is left out, as every session but
// its own skips it (its own adds it when it binds: temp.go).
func (e *Engine) inheritDescendants(name string) []string {
	if len(e.inherits) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{name: true}
	queue := []string{name}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, c := range e.childrenOf(q) {
			if isTemp(c) && !isTemp(q) {
				continue
			}
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// inheritAncestors returns name and every ancestor of it, once.
func (e *Engine) inheritAncestors(name string) []string {
	out := []string{name}
	for i := 0; i < len(out); i++ {
		for _, p := range e.parentsOf(out[i]) {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// inheritMembers is sql.Relation.Inherit for table name: each
// descendant, with its columns of the table's names.
func (e *Engine) inheritMembers(name string, cols []plan.Column) []sql.InheritMember {
	ds := e.inheritDescendants(name)
	if len(ds) == 0 {
		return nil
	}
	out := make([]sql.InheritMember, 0, len(ds))
	for _, d := range ds {
		if m, ok := e.inheritMember(d, cols); ok {
			out = append(out, m)
		}
	}
	return out
}

// inheritMember is the descendant d of a table of columns cols, as
// sql.Relation.Inherit holds it.
func (e *Engine) inheritMember(d string, cols []plan.Column) (sql.InheritMember, bool) {
	t, ok := e.tables[d]
	if !ok {
		return sql.InheritMember{}, false
	}
	rel, _ := tableRelation(d, t)
	m := sql.InheritMember{Rel: rel, Map: make([]int, len(cols))}
	for i, c := range cols {
		m.Map[i] = slices.IndexFunc(t.cols, func(k plan.Column) bool { return k.Name == c.Name })
	}
	return m, true
}

// createInheritor creates CREATE TABLE … INHERITS: a table whose columns
// the binder merged with its parents', linked to them.
func (e *Engine) createInheritor(ct *sql.CreateTable) (Result, error) {
	if e.relationExists(ct.Name) {
		if ct.IfNotExists {
			return Result{Tag: "CREATE TABLE", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", e.bareName(ct.Name))}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", e.bareName(ct.Name))
	}
	if err := e.refuseInheritSinks(ct.Inherits); err != nil {
		return Result{}, err
	}
	seqs, err := e.createOwnedSequences(ct)
	if err != nil {
		return Result{}, err
	}
	e.tables[ct.Name] = newTable(ct)
	e.noteDeferrable(e.tables[ct.Name])
	// The table is stored as its merged definition and its links apart,
	// so that a parent's later columns do not move the child's.
	if err := e.storeCreate(ct.Name, KindTable, ct.SQL()); err != nil {
		e.forgetSequences(seqs) //nolint:errcheck // the store's error is the one to report
		return Result{}, err
	}
	if len(ct.ForeignKeys) > 0 {
		e.linkForeignKeys()
	}
	for _, p := range ct.Inherits {
		e.inherits = append(e.inherits, inheritLink{child: ct.Name, parent: p})
	}
	for _, c := range ct.InheritedOnly {
		e.setInheritedOnly(ct.Name, c, true)
	}
	for _, c := range ct.InheritedChecks {
		setOnlyIn(&e.inheritChecks, ct.Name, c, true)
	}
	if err := e.storeInherits(ct.Name); err != nil {
		return Result{}, err
	}
	notices := slices.Clone(ct.Notices)
	more, err := e.rebuildHierarchyReaders(ct.Inherits)
	return Result{Tag: "CREATE TABLE", Notices: append(notices, more...)}, err
}

// alterInherit runs ALTER TABLE child [NO] INHERIT parent, and, in a
// session restoring a database file (restoring), what it recorded of the
// columns child has from its parents alone.
func (e *Engine) alterInherit(a *sql.AlterInherit, restoring bool) (Result, error) {
	if a.Parent == "" {
		if !restoring || e.tables[a.Child] == nil {
			return Result{}, pgerr.New(pgerr.InvalidParameter, "unrecognized parameter \"attislocal\"")
		}
		for _, c := range a.InheritedOnly {
			e.setInheritedOnly(a.Child, c, true)
		}
		for _, c := range a.InheritedChecks {
			setOnlyIn(&e.inheritChecks, a.Child, c, true)
		}
		return Result{Tag: "ALTER TABLE"}, nil
	}
	at := slices.Index(e.inherits, inheritLink{child: a.Child, parent: a.Parent})
	if err := e.refuseInheritSinks([]string{a.Parent}); err != nil {
		return Result{}, err
	}
	if a.Drop {
		if at < 0 {
			return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q is not a parent of relation %q", e.bareName(a.Parent), e.bareName(a.Child))
		}
		// The views over the parent's hierarchy read the child until now.
		readers := e.inheritAncestors(a.Parent)
		e.inherits = slices.Delete(e.inherits, at, at+1)
		e.localAfterDetach(a.Child)
		if err := e.storeInherits(a.Child); err != nil {
			return Result{}, err
		}
		notices, err := e.rebuildHierarchyReaders(readers)
		return Result{Tag: "ALTER TABLE", Notices: notices}, err
	}
	if at >= 0 {
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q would be inherited from more than once", e.bareName(a.Parent))
	}
	if a.Child == a.Parent || slices.Contains(e.inheritDescendants(a.Child), a.Parent) {
		return Result{}, pgerr.New(pgerr.DuplicateTable, "circular inheritance not allowed").
			WithDetail("%q is already a child of %q.", e.bareName(a.Parent), e.bareName(a.Child))
	}
	if t := e.tables[a.Child]; t != nil && len(t.kids) > 0 || e.parts[a.Child] != nil {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "cannot change inheritance of partitioned table")
	}
	e.inherits = append(e.inherits, inheritLink{child: a.Child, parent: a.Parent})
	if err := e.storeInherits(a.Child); err != nil {
		return Result{}, err
	}
	notices, err := e.rebuildHierarchyReaders([]string{a.Parent})
	return Result{Tag: "ALTER TABLE", Notices: notices}, err
}

// inheritStoreName is the name the store keeps child's links under.
func inheritStoreName(child string) string { return "inherit " + child }

// storeInherits records child's links as they are now.
func (e *Engine) storeInherits(child string) error {
	if e.store == nil || isTemp(child) { // a session's temporary child is linked in memory alone
		return nil
	}
	if e.store == nil {
		return nil
	}
	if err := e.store.Drop([]string{inheritStoreName(child)}); err != nil {
		return err
	}
	parents := e.parentsOf(child)
	if len(parents) == 0 {
		return nil
	}
	var b strings.Builder
	for i, p := range parents {
		if i > 0 {
			b.WriteString(";\n")
		}
		b.WriteString("ALTER TABLE " + expr.QuoteIdent(child) + " INHERIT " + expr.QuoteIdent(p))
	}
	if only := e.inheritedOnlySQL(child); only != "" {
		b.WriteString(";\n" + only)
	}
	return e.store.Create(&StoredRelation{Name: inheritStoreName(child), Kind: KindInherit, SQL: b.String()})
}

// inheritReaders returns the materialized views that read a table of
// tables or one of their ancestors, and those that read them, in the
// order the views are stepped.
func (e *Engine) inheritReaders(tables []string) []string {
	want := map[string]bool{}
	for _, t := range tables {
		for _, a := range e.inheritAncestors(t) {
			want[a] = true
		}
	}
	var out []string
	for _, v := range e.order {
		name := v.meta().name
		if slices.ContainsFunc(e.deps[name], func(d string) bool { return want[d] }) {
			want[name] = true
			out = append(out, name)
		}
	}
	return out
}

// refuseInheritSinks refuses to change the hierarchy of tables while a
// foreign table keeps a view that reads it, which would miss the change.
func (e *Engine) refuseInheritSinks(tables []string) error {
	for _, name := range e.inheritReaders(tables) {
		for _, sk := range e.sinks {
			if sk.view == name {
				return pgerr.New(pgerr.FeatureNotSupported, "cannot change the inheritance hierarchy of %q while a foreign table keeps materialized view %q, which reads it", tables[0], name)
			}
		}
	}
	return nil
}

// rebuildInheritReaders binds and builds again each materialized view
// that reads a table of tables or one of their ancestors (and each view
// over those): what a read without ONLY means changed with the
// hierarchy. A cold start, said by a NOTICE; each view's subscribers
// receive the difference between its rows before and after, under the
// last commit's time.
func (e *Engine) rebuildInheritReaders(tables []string) ([]string, error) {
	return e.rebuildInheritReadersIf(tables, true)
}

// rebuildHierarchyReaders is rebuildInheritReaders after a change of the
// links alone, which leaves every table as it was: a view whose plan
// bound again reads the tables it read (over ONLY, or over a part of the
// hierarchy the change did not touch) keeps its state.
func (e *Engine) rebuildHierarchyReaders(tables []string) ([]string, error) {
	return e.rebuildInheritReadersIf(tables, false)
}

func (e *Engine) rebuildInheritReadersIf(tables []string, always bool) ([]string, error) {
	return e.rebuildViews(e.inheritReaders(tables), always, "the tables of the inheritance hierarchy it reads")
}

// rebuildViews binds again and builds again the materialized views names
// (in the order of the views), each said by a NOTICE that it was built
// again over what over says; each view's subscribers receive the
// difference between its rows before and after, under the last commit's
// time. Unless always, a view whose plan bound again reads the relations
// it read keeps its state.
func (e *Engine) rebuildViews(names []string, always bool, over string) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	r := &alterReaders{plans: map[string]*sql.CreateView{}, empty: map[string]*sql.CreateView{}}
	before := map[string]zset.ZSet{}
	watched := map[string]bool{}
	for _, s := range e.subs {
		watched[s.view] = true
	}
	for _, name := range names {
		_, text, _, ok := e.readerText(name)
		if !ok {
			return nil, pgerr.New(pgerr.Internal, "materialized view %q has no statement to bind again", name)
		}
		cv, err := bindReader(e, text, true)
		if err != nil {
			return nil, err
		}
		if !always && !readsChanged(e.views[name].relations(), plan.Relations(cv.Plan), r.plans) {
			continue
		}
		r.plans[name] = cv
		r.rebuild = append(r.rebuild, name)
		if watched[name] {
			before[name] = zset.Consolidate(slices.Clone(e.views[name].snapshot()))
		}
	}
	// Each view is built in its place in order, so that a view over a
	// view reads the rows its input has now.
	var notices []string
	for _, name := range r.rebuild {
		one := &alterReaders{rebuild: []string{name}, plans: r.plans, over: over}
		more, err := e.rebuildReaders(one, "")
		notices = append(notices, more...)
		if err != nil {
			return notices, err
		}
	}
	if len(before) > 0 {
		deltas := map[string]zset.ZSet{}
		for name, old := range before {
			v, ok := e.views[name]
			if !ok {
				continue
			}
			now := zset.Consolidate(slices.Clone(v.snapshot()))
			if d := zset.Add(now, old.Negate()); len(d) > 0 {
				deltas[name] = d
			}
		}
		e.notify(deltas)
	}
	return notices, nil
}

// readsChanged reports whether a view bound again reads other tables
// than it read (before, its circuit's inputs; after, its new plan's), or
// reads a view being built again.
func readsChanged(before, after []string, rebuilt map[string]*sql.CreateView) bool {
	b, a := slices.Clone(before), slices.Clone(after)
	slices.Sort(b)
	slices.Sort(a)
	if !slices.Equal(slices.Compact(b), slices.Compact(a)) {
		return true
	}
	return slices.ContainsFunc(a, func(n string) bool { return rebuilt[n] != nil })
}

// inheritDropDeps adds to rdeps, the dependents of each relation, the
// inheritance children of each table: DROP TABLE of a parent drops its
// children only under CASCADE, as in PostgreSQL.
func (e *Engine) inheritDropDeps(rdeps map[string][]string) {
	for _, l := range e.inherits {
		if !slices.Contains(rdeps[l.parent], l.child) {
			rdeps[l.parent] = append(rdeps[l.parent], l.child)
		}
	}
}

// inheritDropped forgets the links of the tables gone and returns the
// tables whose hierarchy lost them, for rebuildInheritReaders, and the
// store names of the links gone.
func (e *Engine) inheritDropped(gone map[string]bool) (touched, stored []string) {
	if len(e.inherits) == 0 {
		return nil, nil
	}
	for name := range gone {
		delete(e.inheritOnly, name)
		delete(e.inheritChecks, name)
	}
	e.inherits = slices.DeleteFunc(e.inherits, func(l inheritLink) bool {
		if !gone[l.child] {
			return false
		}
		if !gone[l.parent] && !slices.Contains(touched, l.parent) {
			touched = append(touched, l.parent)
		}
		if !slices.Contains(stored, inheritStoreName(l.child)) {
			stored = append(stored, inheritStoreName(l.child))
		}
		return true
	})
	return touched, stored
}

// execUpdateInherited runs an UPDATE of a table without ONLY: over the
// table, then over each descendant, as one statement (one tag, the
// RETURNING rows of each table in turn).
func (e *Engine) execUpdateInherited(up *sql.Update) (Result, error) {
	top := *up
	top.Inherited = nil
	defer e.hierarchySnapshot(up.ReadsHierarchy)()
	return execInherited(e, "UPDATE ", &top, up.Inherited, e.execUpdate)
}

// execDeleteInherited is execUpdateInherited for DELETE.
func (e *Engine) execDeleteInherited(del *sql.Delete) (Result, error) {
	top := *del
	top.Inherited = nil
	defer e.hierarchySnapshot(del.ReadsHierarchy)()
	return execInherited(e, "DELETE ", &top, del.Inherited, e.execDelete)
}

// hierarchySnapshot makes the reads of an UPDATE or DELETE over a
// hierarchy that reads its own tables (reads) see every table as the
// statement found it, though it changes one table after another: the
// reads go through the transaction's log undone back to the statement's
// start, as a statement with data-modifying WITH items reads (modifying),
// and a row the statement changed is not changed again. It returns what
// ends the snapshot.
func (e *Engine) hierarchySnapshot(reads bool) func() {
	if !reads || e.with != nil {
		return func() {} // a WITH statement reads its own snapshot already
	}
	m := &modifying{mark: len(e.tx.log)}
	m.src = &exec.Returning{Source: asOf{e: e, mark: m.mark}}
	e.with = m
	return func() { e.with = nil }
}

// execInherited runs a statement over a table (top), then over each of
// its descendants, whose row triggers alone fire, and sums their tags.
func execInherited[S any](e *Engine, verb string, top S, descendants []S, run func(S) (Result, error)) (Result, error) {
	res, err := run(top)
	if err != nil {
		return Result{}, err
	}
	n := tagCount(res.Tag)
	for _, c := range descendants {
		e.inheritChild = true
		r, err := run(c)
		e.inheritChild = false
		if err != nil {
			return Result{}, err
		}
		n += tagCount(r.Tag)
		res.Rows = append(res.Rows, r.Rows...)
		res.Notices = append(res.Notices, r.Notices...)
	}
	res.Tag = countTag(verb, n)
	return res, nil
}

// tagCount is the row count that ends a command tag.
func tagCount(tag string) int {
	n, _ := strconv.Atoi(tag[strings.LastIndexByte(tag, ' ')+1:])
	return n
}

// inheritAlter runs before ALTER TABLE a of a table, in an inheritance
// hierarchy or not: a CHECK it adds that the table has from its parents
// alone becomes its own too (NOTICE, as PostgreSQL merges it), another
// it has already is 42710; then inheritAlterHierarchy.
func (e *Engine) inheritAlter(a *sql.AlterTable) ([]string, error) {
	var notices []string
	for _, c := range a.MergeChecks {
		if !slices.Contains(e.inheritChecks[a.Table], c) || e.inheritRecursing {
			return nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", c, e.bareName(a.Table))
		}
	}
	for _, c := range a.MergeChecks {
		setOnlyIn(&e.inheritChecks, a.Table, c, false)
		notices = append(notices, fmt.Sprintf("merging constraint %q with inherited definition", c))
	}
	if len(a.MergeChecks) > 0 {
		if err := e.storeInherits(a.Table); err != nil {
			return notices, err
		}
	}
	more, err := e.inheritAlterHierarchy(a)
	return append(notices, more...), err
}

// inheritAlterHierarchy runs before ALTER TABLE a changes the columns or the name
// of a table in an inheritance hierarchy. ADD COLUMN is supported: it
// adds the columns to each child first (a child that has a column of the
// name and type keeps it, as PostgreSQL merges it); the rest is refused.
// It returns the notices of the children's ALTERs.
func (e *Engine) inheritAlterHierarchy(a *sql.AlterTable) ([]string, error) {
	if len(e.inherits) == 0 || e.inheritRecursing {
		return nil, nil
	}
	if !a.Columns {
		if t := e.tables[a.Table]; t != nil && a.New != nil && (len(e.parentsOf(a.Table)) > 0 || len(e.childrenOf(a.Table)) > 0) {
			return e.inheritInPlace(t, a)
		}
		return nil, nil
	}
	parents, kids := e.parentsOf(a.Table), e.childrenOf(a.Table)
	if len(parents) == 0 && len(kids) == 0 {
		return nil, nil
	}
	t := e.tables[a.Table]
	if err := e.refuseInheritedColumn(t, a, parents); err != nil {
		return nil, err
	}
	if len(kids) == 0 || a.New.Name != a.Table {
		return nil, nil // a leaf's own columns change as any table's; a rename moved the links (alterRenamedMember)
	}
	added, ok := addedColumns(t, a)
	if !ok {
		return e.alterDescendants(t, a, added)
	}
	if a.Only {
		return nil, pgerr.New(pgerr.InvalidTableDef, "column must be added to child tables too")
	}
	// Every descendant is checked before any is altered, so that a
	// failure leaves the hierarchy as it was.
	for _, d := range e.inheritDescendants(a.Table) {
		dt := e.tables[d]
		for _, i := range added {
			c := a.New.Cols[i]
			j := slices.IndexFunc(dt.cols, func(k plan.Column) bool { return k.Name == c.Name })
			switch {
			case j >= 0 && dt.cols[j].Type != c.Type:
				return nil, pgerr.New(pgerr.DatatypeMismatch, "child table %q has different type for column %q", d, c.Name)
			case j < 0 && c.NotNull && a.Fill[i] == nil && dt.rows.Len() > 0:
				return nil, pgerr.New(pgerr.NotNullViolation, "column %q of relation %q contains null values", c.Name, d)
			}
		}
	}
	var notices []string
	for _, k := range kids {
		kt := e.tables[k]
		var cmds []string
		for _, i := range added {
			c := a.New.Cols[i]
			if slices.ContainsFunc(kt.cols, func(x plan.Column) bool { return x.Name == c.Name }) {
				notices = append(notices, fmt.Sprintf("merging definition of column %q for child %q", c.Name, k))
				continue
			}
			cmds = append(cmds, "ADD COLUMN "+columnSQL(c))
		}
		if len(cmds) == 0 {
			continue
		}
		var fromParent []string // the columns the child has from its parents alone
		for _, i := range added {
			if c := a.New.Cols[i].Name; !slices.ContainsFunc(kt.cols, func(x plan.Column) bool { return x.Name == c }) {
				fromParent = append(fromParent, c)
			}
		}
		text := "ALTER TABLE " + expr.QuoteIdent(k) + " " + strings.Join(cmds, ", ")
		st, err := sql.Parse(text)
		if err != nil {
			return notices, err
		}
		b, err := sql.Bind(e, st)
		if err != nil {
			return notices, err
		}
		ka, ok := b.(*sql.AlterTable)
		if !ok {
			return notices, pgerr.New(pgerr.Internal, "%s binds to %T", text, b)
		}
		res, err := e.alterTable(ka)
		notices = append(notices, res.Notices...)
		if err != nil {
			return notices, err
		}
		for _, c := range fromParent {
			e.setInheritedOnly(k, c, true)
		}
		if err := e.storeInherits(k); err != nil {
			return notices, err
		}
	}
	return notices, nil
}

// refuseInheritedColumn refuses, as PostgreSQL does (42P16), to drop,
// rename or retype a column a table inherits from one of parents.
func (e *Engine) refuseInheritedColumn(t *table, a *sql.AlterTable, parents []string) error {
	inherited := func(name string) bool {
		for _, p := range parents {
			if pt := e.tables[p]; pt != nil && slices.ContainsFunc(pt.cols, func(c plan.Column) bool { return c.Name == name }) {
				return true
			}
		}
		return false
	}
	for _, d := range a.Dropped {
		if inherited(d) {
			return pgerr.New(pgerr.InvalidTableDef, "cannot drop inherited column %q", d)
		}
	}
	for i, o := range a.Map {
		if o < 0 || !inherited(t.cols[o].Name) {
			continue
		}
		if a.New.Cols[i].Name != t.cols[o].Name {
			return pgerr.New(pgerr.InvalidTableDef, "cannot rename inherited column %q", t.cols[o].Name)
		}
		if a.Cast[i] != nil {
			return pgerr.New(pgerr.InvalidTableDef, "cannot alter inherited column %q", t.cols[o].Name)
		}
	}
	return nil
}

// addedColumns returns the columns of a.New that ALTER TABLE a adds to
// t, and whether adding them is all it does to t's columns and name.
func addedColumns(t *table, a *sql.AlterTable) ([]int, bool) {
	var added []int
	kept, ok := 0, len(a.Dropped) == 0 && a.New.Name == a.Table
	for i, o := range a.Map {
		switch {
		case o < 0:
			added = append(added, i)
		case o != kept || a.Cast[i] != nil || a.New.Cols[i].Name != t.cols[o].Name:
			ok = false
		default:
			kept++
		}
	}
	return added, ok && kept == len(t.cols)
}

// columnSQL is a column's definition as ADD COLUMN writes it.
func columnSQL(c sql.ColumnDef) string {
	s := expr.QuoteIdent(c.Name) + " "
	if c.Domain != nil {
		s += expr.QuoteIdent(c.Domain.Name())
	} else {
		s += c.Type.String()
	}
	if c.NotNull {
		s += " NOT NULL"
	}
	if c.DefaultSQL != "" {
		s += " DEFAULT " + c.DefaultSQL
	}
	if c.GeneratedSQL != "" {
		s += " GENERATED ALWAYS AS (" + c.GeneratedSQL + ") STORED"
	}
	return s
}

// inheritRows adds pg_inherits' rows of the inheritance links: inhseqno
// numbers each child's parents from 1, in order.
func inheritRows(o *catalogObjects, r *catRows) {
	seq := map[string]int{}
	for _, l := range o.e.inherits {
		if isTemp(l.child) {
			continue // a session's temporary table is not listed
		}
		seq[l.child]++
		r.add("inhrelid", RelationOID(l.child), "inhparent", RelationOID(l.parent), "inhseqno", seq[l.child], "inhdetachpending", false)
	}
}

// hasChildren reports whether table rel has inheritance children
// (pg_class.relhassubclass).
func (o *catalogObjects) hasChildren(rel *catRel) bool {
	return rel.kind == 'r' && rel.key != "" && len(o.e.childrenOf(rel.key)) > 0
}
