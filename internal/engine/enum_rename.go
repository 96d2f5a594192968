package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ALTER TYPE … RENAME VALUE and RENAME TO of an enum that tables, views,
// domains or functions use; RENAME TO of a range type goes the same way
// (its registry slot keeps its values too). In memory an enum value is its type's
// registry slot and its label's number, so the rows, the views' plans and
// their state follow the rename as PostgreSQL's follow the label's and the
// type's oids. What names them as text is written again:
//
//   - the rows a database file keeps hold labels as text: each table with
//     a column of the type (or an array of it) is written again when a
//     label is renamed (its cost is the table's rows);
//   - the statements of the views that name the type or the label, and the
//     defaults, generated columns and checks of tables and domains, are
//     rewritten (sql.RenameTypeNames, sql.RenameStringConsts) and bound
//     again; a string constant is the label's when the binder reads it as
//     the type's label, which binding it with another text tells;
//   - a table's or a domain's own statement names its columns' types by
//     their current names (CreateTable.SQL, sql.DomainSQL).
//
// What cannot be written so is refused (0A000) and nothing changes. A
// SQL function's body is kept as written, as PostgreSQL keeps it.

// enumRename is one rename of the enum type t, keyed key: of its label
// from to to (RENAME VALUE), or of the type to newKey (RENAME TO).
type enumRename struct {
	t        value.Type
	key      string
	newKey   string
	from, to string
}

// value reports whether r renames a label.
func (r enumRename) value() bool { return r.newKey == "" }

// enumRenameEdits are the edits a rename makes to the catalog beside the
// type: each table's and domain's new definition and each view's new
// statement, made once the type itself is renamed; for RENAME TO, the
// triggers' and policies' texts that name it, and the composite and range
// types whose statements the store keeps name it.
type enumRenameEdits struct {
	tables  map[string]*sql.CreateTable
	domains map[*expr.Domain]*expr.DomainDef
	views   map[string]*movedReader
	rows    []string // the tables whose stored rows change
	// triggers and policies are the new texts of those that name the
	// type, by the one they replace.
	triggers map[*trigger]*trigger
	policies map[*policy]*policy
	// composites and ranges are the types to record again.
	composites, ranges []string
	indexes            []typeRenamedIndex
}

// renameEnumValue renames the label from of the enum type t, keyed key,
// to to.
func (e *Engine) renameEnumValue(key string, t value.Type, from, to string) error {
	before := t.Enum()
	// The label is checked first, as PostgreSQL checks it.
	if err := value.EnumRenameValue(t, from, to); err != nil {
		return err
	}
	value.EnumRestore(t, before)
	if len(e.typeDependents(key, t)) == 0 {
		return value.EnumRenameValue(t, from, to)
	}
	return e.renameEnumInUse(enumRename{t: t, key: key, from: from, to: to},
		func() error { return value.EnumRenameValue(t, from, to) },
		func() { value.EnumRestore(t, before) })
}

// renameEnum renames the enum type t, keyed key, to newKey.
func (e *Engine) renameEnum(key, newKey string, t value.Type) error {
	before := t.Enum()
	rename := func() error {
		if err := value.EnumRename(t, newKey); err != nil {
			return err
		}
		delete(e.userTypes, key)
		e.userTypes[newKey] = t
		return nil
	}
	if !e.renamesInUse(key, t) {
		return rename()
	}
	undo := func() {
		value.EnumRestore(t, before)
		delete(e.userTypes, newKey)
		e.userTypes[key] = t
	}
	if err := e.renameEnumInUse(enumRename{t: t, key: key, newKey: newKey}, rename, undo); err != nil {
		return err
	}
	e.renameTypeUses(key, newKey)
	return nil
}

// renameTypeUses renames the type key to newKey among the types each
// relation's statement named.
func (e *Engine) renameTypeUses(key, newKey string) {
	for rel, types := range e.typeUses {
		if i := slices.Index(types, key); i >= 0 {
			types = slices.Clone(types)
			types[i] = newKey
			e.typeUses[rel] = types
		}
	}
}

// renameEnumInUse renames the enum type (or its label) that other objects
// use, rewriting them; rename does it to the type itself, undo undoes it.
func (e *Engine) renameEnumInUse(r enumRename, rename func() error, undo func()) error {
	if err := e.refuseEnumRename(r); err != nil {
		return err
	}
	labels, err := e.enumLabelViews(r)
	if err != nil {
		return err
	}
	policies, err := e.labelPolicies(r)
	if err != nil {
		return err
	}
	if err := rename(); err != nil {
		return err
	}
	ed, err := e.enumRenameEdits(r, labels)
	if err == nil && r.value() {
		ed.policies = policies
		ed.indexes, err = e.labelIndexes(r)
	}
	if err != nil {
		undo()
		return err
	}
	return e.applyEnumRename(ed)
}

// refuseEnumRename refuses what a rename cannot follow (a routine naming
// the type is keyed anew, routine_type_rename.go): for RENAME VALUE, a
// trigger's text naming the label that its bound condition does not hold.
func (e *Engine) refuseEnumRename(r enumRename) error {
	refuse := func(what string) error {
		verb := "RENAME TO"
		if r.value() {
			verb = "RENAME VALUE"
		}
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … %s of type %s, which %s uses, is not supported", verb, r.key, what).
			WithHint("drop it, rename the type, then create it again")
	}
	for _, name := range sortedKeys(e.tables) {
		if !r.value() {
			break
		}
		for _, tr := range e.triggers[name] {
			if tr.when == nil && stringsName(tr.whenSQL, r) {
				return refuse("trigger " + tr.name + " on table " + name)
			}
		}
	}
	// The policies' and the indexes' texts that write the label are
	// written again (enum_rename_label_texts.go).
	return nil
}

// uses reports whether ct is, or is an array of, the type r renames (a
// range type's multirange too).
func (r enumRename) uses(ct value.Type) bool {
	if r.t.UserRange() != nil {
		return ct.UserRange() != nil && ct.Mod == r.t.Mod
	}
	if r.t.Kind == value.Record {
		return (ct.Kind == value.Record || ct.Kind == value.ArrayOf(value.Record)) && ct.Mod == r.t.Mod
	}
	return ct.Enum() != nil && ct.Mod == r.t.Mod
}

// rangesOver are the user range types, other than the type r renames,
// over it, by name.
func (e *Engine) rangesOver(r enumRename) []string {
	var out []string
	for _, un := range sortedKeys(e.userTypes) {
		ut := e.userTypes[un]
		if ut.Kind == value.UserRange && ut.Mod != r.t.Mod && rangeUsesType(ut, r.t) {
			out = append(out, un)
		}
	}
	return out
}

// stringsName reports whether the expression text has a string constant
// that is the label r renames (or cannot be read to tell).
func stringsName(text string, r enumRename) bool {
	if text == "" {
		return false
	}
	_, n, err := sql.RenameStringInText(text, true, r.from, r.to)
	return err != nil || n > 0
}

// tableUsesEnum reports whether a column of t is of the type uses tells.
func tableUsesEnum(t *table, uses func(value.Type) bool) bool {
	return slices.ContainsFunc(t.def.Cols, func(c sql.ColumnDef) bool { return uses(c.Type) })
}

// enumLabelViews picks, in each view's statement, the string constants
// that read as the label RENAME VALUE renames, with the type as it is
// before the rename: a constant is the label's when, written as a text
// that is no label, binding fails for the type. Nil for RENAME TO.
func (e *Engine) enumLabelViews(r enumRename) (map[string][]bool, error) {
	if !r.value() {
		return nil, nil
	}
	out := map[string][]bool{}
	d := r.t.Enum()
	probe := r.from + "\x01"
	// Formatted as the binder's error is (pgerr quotes as PostgreSQL).
	want := pgerr.New(pgerr.InvalidTextRep, "invalid input value for enum %s: %q", d.Name, probe).Message
	for _, v := range e.enumViewNames() {
		m, ok := e.rewrittenReader(v, func(st *sql.Stmt) (*sql.Stmt, error) { return st, nil })
		if !ok {
			continue
		}
		_, n := sql.RenameStringConsts(m.stmt, r.from, r.to, nil)
		if n == 0 {
			continue
		}
		picked := make([]bool, n)
		materialized := e.named[v] == nil
		for i := range n {
			probed, _ := sql.RenameStringConsts(m.stmt, r.from, probe, func(j int) bool { return j == i })
			_, err := bindMoved(e, &movedReader{stmt: probed, text: m.text}, materialized)
			if pgerr.Code(err) == pgerr.InvalidTextRep {
				if pgerr.Wrap(err).Message == want {
					picked[i] = true
				}
			}
		}
		if slices.Contains(picked, true) {
			out[v] = picked
		}
	}
	return out, nil
}

// enumViewNames are the plain views, then the materialized views.
func (e *Engine) enumViewNames() []string {
	var out []string
	for _, n := range sortedKeys(e.named) {
		out = append(out, n)
	}
	for _, n := range sortedKeys(e.viewStmts) {
		if e.named[n] == nil {
			out = append(out, n)
		}
	}
	return out
}

// enumRenameEdits writes again, with the type renamed, what names it or
// the renamed label.
func (e *Engine) enumRenameEdits(r enumRename, labels map[string][]bool) (*enumRenameEdits, error) {
	ed := &enumRenameEdits{tables: map[string]*sql.CreateTable{}, domains: map[*expr.Domain]*expr.DomainDef{}, views: map[string]*movedReader{}}
	uses := r.uses
	var err error
	// rewrite rewrites x's text in place in the caller's copy; it
	// reports whether the text changed.
	rewrite := func(x expr.Expr, text *string, what string) bool {
		if err != nil || x == nil && r.value() || *text == "" {
			return false
		}
		var out string
		var n int
		var rerr error
		if r.value() {
			out, n, rerr = sql.RenameStringInText(*text, true, r.from, r.to)
			if rerr == nil && n > 0 {
				if k := countLabelConsts(x, r.t, r.to); k == 0 {
					out, n = *text, 0 // the constants are texts
				} else if k != n {
					rerr = errLabelText
				}
			}
			if k := countLabelArrays(x, r.t, r.to); rerr == nil && k > 0 {
				// The arrays of the type ('{a,b}') that hold the label.
				var m int
				out, m, rerr = sql.RenameArrayLabelInText(out, true, r.from, r.to)
				if rerr == nil && m != k {
					rerr = errLabelText
				}
				n += m
			}
		} else {
			out, n, rerr = sql.RenameTypeInText(*text, true, r.key, r.newKey)
		}
		if rerr != nil {
			err = pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … RENAME of type %s is not supported: %s names it in a way its text does not show", r.key, what).
				WithHint("drop the default or the constraint, rename the type, and set it again")
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
		d := *t.def
		d.Checks, d.Cols = slices.Clone(d.Checks), slices.Clone(d.Cols)
		changed := false
		for i := range d.Checks {
			ch := &d.Checks[i]
			changed = rewrite(ch.Expr, &ch.SQL, tableCall{table: name, con: ch.Name}.describe()) || changed
		}
		for i := range d.Cols {
			c := &d.Cols[i]
			changed = rewrite(c.Default, &c.DefaultSQL, tableCall{table: name, col: c.Name}.describe()) || changed
			changed = rewrite(c.Generated, &c.GeneratedSQL, tableCall{table: name, gen: c.Name}.describe()) || changed
		}
		if !r.value() && d.OfType == r.key { // a typed table of the composite type
			d.OfType, changed = r.newKey, true
		}
		used := tableUsesEnum(t, uses)
		// The rows of a column of a composite or range type over the
		// enum hold its labels too.
		holds := r.value() && tableUsesEnum(t, r.holds)
		if changed || used || holds {
			ed.tables[name] = &d
		}
		if holds && !t.temp {
			ed.rows = append(ed.rows, name)
		}
	}
	for _, name := range sortedKeys(e.domains.byName) {
		dom := e.domains.byName[name]
		def := *dom.Def()
		def.Checks = slices.Clone(def.Checks)
		changed := false
		for i := range def.Checks {
			ch := &def.Checks[i]
			changed = rewrite(ch.Expr, &ch.SQL, tableCall{domain: name, con: ch.Name}.describe()) || changed
		}
		changed = rewrite(def.Default, &def.DefaultSQL, tableCall{domain: name}.describe()) || changed
		if changed || uses(def.Base) {
			ed.domains[dom] = &def
		}
	}
	if !r.value() && err == nil {
		err = e.typeRenameTexts(r, ed, rewrite)
	}
	if r.value() && err == nil {
		// rewrite records its own error in err.
		if terr := e.labelRenameTriggers(r, ed, rewrite); terr != nil {
			err = terr
		}
	}
	if err != nil {
		return nil, err
	}
	for _, v := range e.enumViewNames() {
		m, ok, err := e.enumRenamedView(v, r, labels[v])
		if err != nil {
			return nil, err
		}
		if ok {
			ed.views[v] = m
		}
	}
	return ed, nil
}

var errLabelText = pgerr.New(pgerr.FeatureNotSupported, "the label's constants are not all the type's")

// countLabelConsts counts the constants of x that are the label l of the
// enum type t.
func countLabelConsts(x expr.Expr, t value.Type, l string) int {
	n := 0
	expr.Walk(x, func(c expr.Expr) bool {
		if k, ok := c.(*expr.Const); ok && !k.V.IsNull() && k.V.Kind() == value.Enum && k.V.EnumType() == t && k.V.EnumLabel() == l {
			n++
		}
		return true
	})
	return n
}

// countLabelArrays counts the constants of x that are arrays of the
// enum type t holding its label l.
func countLabelArrays(x expr.Expr, t value.Type, l string) int {
	n := 0
	expr.Walk(x, func(c expr.Expr) bool {
		k, ok := c.(*expr.Const)
		if !ok || k.V.IsNull() || k.V.Kind() != value.ArrayOf(value.Enum) {
			return true
		}
		if slices.ContainsFunc(k.V.Elems(), func(e value.Value) bool {
			return !e.IsNull() && e.EnumType() == t && e.EnumLabel() == l
		}) {
			n++
		}
		return true
	})
	return n
}

// enumRenamedView is the statement of the view v with the type's names,
// or the label's constants picked, renamed and bound again over the
// renamed type; ok false when the view names neither.
func (e *Engine) enumRenamedView(v string, r enumRename, picked []bool) (*movedReader, bool, error) {
	n := 0
	m, ok := e.rewrittenReader(v, func(st *sql.Stmt) (*sql.Stmt, error) {
		if r.value() {
			if !slices.Contains(picked, true) {
				return st, nil
			}
			out, _ := sql.RenameStringConsts(st, r.from, r.to, func(i int) bool { return i < len(picked) && picked[i] })
			n = 1
			return out, nil
		}
		out, k := sql.RenameTypeNames(st, r.key, r.newKey)
		n = k
		return out, nil
	})
	if !ok || n == 0 {
		if r.value() && !ok && picked != nil {
			return nil, false, e.refuseView(v, r, "its statement cannot be written again")
		}
		return nil, false, nil
	}
	cols, _, _, _ := e.readerText(v)
	materialized := e.named[v] == nil
	bound, err := bindMoved(e, m, materialized)
	if err != nil {
		return nil, false, e.refuseView(v, r, "it would not bind once renamed: "+err.Error())
	}
	if !sameColumns(bound.Plan.Columns(), cols, materialized) {
		return nil, false, e.refuseView(v, r, "it would have other columns once renamed")
	}
	return m, true, nil
}

func (e *Engine) refuseView(v string, r enumRename, why string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s: %s %s uses it, and %s", r.key, e.kindName(v), v, why).
		WithHint("drop the view, rename the type, and create the view again")
}

// applyEnumRename keeps the edits, in the catalog and the store.
func (e *Engine) applyEnumRename(ed *enumRenameEdits) error {
	if err := e.applyTypeRenameTexts(ed); err != nil {
		return err
	}
	for name, def := range ed.tables {
		e.tables[name].def = def
	}
	for dom, def := range ed.domains {
		dom.Set(*def)
	}
	for name, m := range ed.views {
		if nv := e.named[name]; nv != nil {
			// A copy: a transaction block's image keeps the view it had.
			cp := *nv
			cp.query, cp.text = m.stmt, m.text
			e.named[name] = &cp
			continue
		}
		vs := e.viewStmts[name]
		vs.text, vs.path = m.text, nil
		e.viewStmts[name] = vs
		e.setDefinition(name, m.stmt) // as the catalogs show it
	}
	if e.store == nil {
		return nil
	}
	for _, name := range sortedKeys(ed.tables) {
		t := e.tables[name]
		if t.temp {
			continue
		}
		if slices.Contains(ed.rows, name) {
			r := &StoredRelation{Name: name, Kind: KindTable, SQL: t.def.SQL(), Cols: t.cols}
			if err := e.store.Alter(name, r, t.putAll); err != nil {
				return err
			}
			continue
		}
		if ss, ok := e.store.(StatementStore); ok {
			if err := ss.SetStatement(name, t.def.SQL()); err != nil {
				return err
			}
		}
	}
	for dom := range ed.domains {
		if err := e.saveDomain(dom.Name(), dom, nil); err != nil {
			return err
		}
	}
	for _, name := range sortedKeys(ed.views) {
		if nv := e.named[name]; nv != nil {
			text := nv.text
			if len(nv.alters) > 0 {
				text += "\n;\n" + strings.Join(nv.alters, "\n;\n")
			}
			if ss, ok := e.store.(StatementStore); ok {
				if err := ss.SetStatement(name, text); err != nil {
					return err
				}
			}
			continue
		}
		if err := e.restate(name, e.views[name] != nil); err != nil {
			return err
		}
	}
	return nil
}
