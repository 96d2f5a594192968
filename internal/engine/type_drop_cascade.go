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

// DROP TYPE … CASCADE drops, beside the columns, views and typed tables
// of the type (type_drop_columns.go, typed_table_drop.go), what else
// depends on it in PostgreSQL's pg_depend: the routines whose arguments
// or results are of it (a routine whose body alone names it is kept), the
// attributes of other composite types of it (with the columns of their
// typed tables), the domains over it (with what uses them), the range
// types over it (the statement drops them as if named, multirange and
// all), and the column defaults and check constraints whose expressions
// hold it. Everything is found, and each change bound, before anything
// changes.

// typeCascade is what DROP TYPE … CASCADE drops beside the columns, views
// and typed tables, gathered over the types it drops.
type typeCascade struct {
	routines []*sql.Function
	attrs    map[string][]string // of composite types, by type
	attrOrd  []string            // those types, in the order met
	domains  []string
	exprs    []typeExprUse
	// typedOf are the typed tables whose columns go with their types'
	// attributes, not as columns of their own.
	typedOf map[string]bool
	lines   []string // the notice's lines, but the ranges' and domains'
	ranges  []string // the range types over those named, dropped with them
	// routineUsers are, by a routine's line, the lines of what its drop
	// took (apply sets them).
	routineUsers map[string][]string
}

// linesWithUsers are c.lines, each routine's followed by what its drop
// took.
func (c *typeCascade) linesWithUsers() []string {
	var out []string
	for _, l := range c.lines {
		out = append(out, l)
		out = append(out, c.routineUsers[l]...)
	}
	return out
}

// typeExprUse is a column default or a check constraint of a table whose
// expression holds a type dropped.
type typeExprUse struct {
	table, column, check string
}

// dependsOn is the DETAIL line of a default or check on the type name.
func (u typeExprUse) dependsOn(name string) string {
	if u.check != "" {
		return fmt.Sprintf("constraint %s on table %s depends on type %s", u.check, u.table, name)
	}
	return fmt.Sprintf("default value for column %s of table %s depends on type %s", u.column, u.table, name)
}

// exprHolds reports whether x or an expression within it is of a type
// uses accepts.
func exprHolds(x expr.Expr, uses func(value.Type) bool) bool {
	found := false
	expr.Walk(x, func(n expr.Expr) bool {
		if uses(n.Type()) {
			found = true
		}
		return !found
	})
	return found
}

// typeExprUses are the defaults and checks of the tables that hold the
// user type name, which uses accepts, or whose texts name it (a cast of
// a constant to it folds to the constant).
func (e *Engine) typeExprUses(name string, uses func(value.Type) bool) []typeExprUse {
	holds := func(x expr.Expr, text string) bool {
		if x == nil {
			return false
		}
		if exprHolds(x, uses) {
			return true
		}
		_, n, err := sql.RenameTypeInText(text, true, name, name)
		return err == nil && n > 0
	}
	var out []typeExprUse
	for _, tn := range sortedKeys(e.tables) {
		def := e.tables[tn].def
		for _, c := range def.Cols {
			// A column of the type goes, its default with it.
			if c.Generated == nil && (c.Domain != nil || !uses(c.Type)) && holds(c.Default, c.DefaultSQL) {
				out = append(out, typeExprUse{table: tn, column: c.Name})
			}
		}
		for _, ck := range def.Checks {
			if holds(ck.Expr, ck.SQL) {
				out = append(out, typeExprUse{table: tn, check: ck.Name})
			}
		}
	}
	return out
}

// typeRoutines are the routines with an argument or result of the type
// uses accepts (not of a domain over it: those depend on the domain).
func (e *Engine) typeRoutines(uses func(value.Type) bool) []*sql.Function {
	var out []*sql.Function
	for _, n := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[n] {
			if slices.ContainsFunc(f.Params, func(p sql.FuncParam) bool { return p.Domain == nil && uses(p.Type) }) ||
				slices.ContainsFunc(f.Cols, func(c plan.Column) bool { return uses(c.Type) }) {
				out = append(out, f)
			}
		}
	}
	return out
}

// routineTypeName is the type the routine f depends on, of the user type
// name and its array type: name[] when f's arguments and results are of
// the array alone.
func routineTypeName(f *sql.Function, name string, uses func(value.Type) bool) string {
	plain := slices.ContainsFunc(f.Params, func(p sql.FuncParam) bool { return p.Domain == nil && uses(p.Type) && !p.Type.Kind.IsArray() }) ||
		slices.ContainsFunc(f.Cols, func(c plan.Column) bool { return uses(c.Type) && !c.Type.Kind.IsArray() })
	if plain {
		return name
	}
	return name + "[]"
}

// typeDomains are the domains directly over the type uses accepts (or
// over an array of it), by name.
func (e *Engine) typeDomains(uses func(value.Type) bool) []string {
	var out []string
	for _, n := range sortedKeys(e.domains.byName) {
		if def := e.domains.byName[n].Def(); def.Parent == nil && uses(def.Base) {
			out = append(out, n)
		}
	}
	return out
}

// add gathers what depends on the user type t, called name, beside its
// columns, views and typed tables; dropping are the types the statement
// drops so far (named, or range types over them), to which it adds the
// range types over t. It returns the DETAIL lines it covers.
func (c *typeCascade) add(e *Engine, name string, t value.Type, dropping []string) ([]string, error) {
	uses := typeUser(name, t)
	var covered []string
	for _, f := range e.typeRoutines(uses) {
		if slices.Contains(c.routines, f) {
			continue
		}
		c.routines = append(c.routines, f)
		covered = append(covered, fmt.Sprintf("function %s depends on type %s", f.Signature(), routineTypeName(f, name, uses)))
		c.lines = append(c.lines, "drop cascades to function "+f.Signature())
	}
	for _, cn := range sortedKeys(e.composites) {
		if slices.Contains(dropping, cn) {
			continue
		}
		for _, a := range e.composites[cn].Attrs {
			if a.Domain != nil || !uses(a.Type) {
				continue
			}
			if c.attrs == nil {
				c.attrs, c.typedOf = map[string][]string{}, map[string]bool{}
			}
			if !slices.Contains(c.attrOrd, cn) {
				c.attrOrd = append(c.attrOrd, cn)
			}
			if slices.Contains(c.attrs[cn], a.Name) {
				continue
			}
			c.attrs[cn] = append(c.attrs[cn], a.Name)
			covered = append(covered, fmt.Sprintf("column %s of composite type %s depends on type %s", a.Name, cn, typeDisplayName(a.Type, name)))
			c.lines = append(c.lines, fmt.Sprintf("drop cascades to column %s of composite type %s", a.Name, cn))
			for _, tt := range e.typedTables(cn) {
				c.typedOf[tt] = true
				covered = append(covered, fmt.Sprintf("column %s of table %s depends on type %s", a.Name, tt, typeDisplayName(a.Type, name)))
				c.lines = append(c.lines, fmt.Sprintf("drop cascades to column %s of table %s", a.Name, tt))
			}
		}
	}
	for _, un := range sortedKeys(e.userTypes) {
		ut := e.userTypes[un]
		if ut.Kind != value.UserRange || un == name || !rangeUsesType(ut, t) || slices.Contains(dropping, un) {
			continue
		}
		covered = append(covered, fmt.Sprintf("type %s depends on type %s", un, name))
		if !slices.Contains(c.ranges, un) {
			c.ranges = append(c.ranges, un)
		}
	}
	for _, dn := range e.typeDomains(uses) {
		if slices.Contains(dropping, dn) {
			continue // a domain the statement names goes as named
		}
		covered = append(covered, fmt.Sprintf("type %s depends on type %s", dn, typeDisplayName(e.domains.byName[dn].Def().Base, name)))
		if slices.Contains(c.domains, dn) {
			continue
		}
		// What uses the domain goes with it: checked now, dropped by
		// DROP DOMAIN … CASCADE once the rest is done.
		var dd domainDrops
		if err := dd.add(e, e.domains.byName[dn], nil); err != nil {
			return nil, err
		}
		if _, err := dd.cols.bind(e); err != nil {
			return nil, err
		}
		if _, err := dd.attrs.check(e); err != nil {
			return nil, err
		}
		c.domains = append(c.domains, dn)
	}
	for _, u := range e.typeExprUses(name, uses) {
		covered = append(covered, u.dependsOn(name))
		if slices.Contains(c.exprs, u) {
			continue
		}
		if _, err := e.bindDescendantAlter(u.alterSQL(e)); err != nil {
			return nil, err
		}
		c.exprs = append(c.exprs, u)
	}
	return covered, nil
}

// alterSQL is the ALTER TABLE that drops the default or the check.
func (u typeExprUse) alterSQL(e *Engine) string {
	schema, bare := e.splitKey(u.table)
	rel := expr.QuoteIdent(schema) + "." + expr.QuoteIdent(bare)
	if u.check != "" {
		return fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %s", rel, expr.QuoteIdent(u.check))
	}
	return fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s DROP DEFAULT", rel, expr.QuoteIdent(u.column))
}

// check binds the ALTER TYPE of each composite type whose attributes go
// and checks it, as alterComposite would, before anything changes.
func (c *typeCascade) check(e *Engine) ([]*sql.AlterComposite, error) {
	var out []*sql.AlterComposite
	for _, cn := range c.attrOrd {
		text := e.alterDropSQL("TYPE", cn, "DROP ATTRIBUTE %s", c.attrs[cn]) + " CASCADE"
		st, err := sql.Parse(text)
		if err != nil {
			return nil, err
		}
		b, err := sql.Bind(e, st)
		if err != nil {
			return nil, err
		}
		a, ok := b.(*sql.AlterComposite)
		if !ok {
			return nil, pgerr.New(pgerr.Internal, "%s binds to %T", text, b)
		}
		lines := e.typedTableLines(cn)
		if deps := slices.DeleteFunc(e.typeDependents(cn, e.composites[cn].Type), func(d string) bool { return slices.Contains(lines, d) }); len(deps) > 0 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP TYPE … CASCADE of an attribute of composite type %s, which other objects use, is not supported", cn).
				WithDetail("%s", strings.Join(deps, "\n")).
				WithHint("drop or alter the objects that use it first")
		}
		if typed := e.typedTables(cn); len(typed) > 0 {
			if _, err := e.typedTableAlters(a, typed); err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// apply drops the routines, the attributes, the domains, the defaults
// and the checks gathered; it returns the notice's lines of what their
// drops took besides.
func (c *typeCascade) apply(e *Engine, alters []*sql.AlterComposite) ([]string, error) {
	var more []string
	// The operators and aggregates built on a routine (with their views)
	// follow the routine's line, as PostgreSQL lists an object's
	// dependents after it; the views calling the routines come last.
	c.routineUsers = map[string][]string{}
	for _, f := range c.routines {
		notices, err := e.dropRoutineUsers([]*sql.Function{f}, nil)
		if err != nil {
			return nil, err
		}
		c.routineUsers["drop cascades to function "+f.Signature()] = cascadedLines(notices)
	}
	if len(c.routines) > 0 {
		notices, err := e.dropRoutines(c.routines, true, nil)
		if err != nil {
			return nil, err
		}
		more = append(more, cascadedLines(notices)...)
	}
	for _, a := range alters {
		res, err := e.alterComposite(a)
		if err != nil {
			return nil, err
		}
		more = append(more, cascadedLines(res.Notices)...)
	}
	for _, dn := range c.domains {
		if e.domains.byName[dn] == nil {
			continue
		}
		res, err := e.dropDomain(&sql.DropDomain{Names: []string{dn}, Cascade: true})
		if err != nil {
			return nil, err
		}
		more = append(more, "drop cascades to type "+dn)
		more = append(more, cascadedLines(res.Notices)...)
	}
	for _, u := range c.exprs {
		t := e.tables[u.table]
		if t == nil || u.check == "" && !slices.ContainsFunc(t.def.Cols, func(cd sql.ColumnDef) bool { return cd.Name == u.column }) ||
			u.check != "" && !slices.ContainsFunc(t.def.Checks, func(ck sql.Check) bool { return ck.Name == u.check }) {
			continue // gone with a column dropped
		}
		a, err := e.bindDescendantAlter(u.alterSQL(e))
		if err != nil {
			return nil, err
		}
		if _, err := e.alterTable(a); err != nil {
			return nil, err
		}
	}
	return more, nil
}

// exprLines are the notice's lines of the defaults and checks.
func (c *typeCascade) exprLines() []string {
	var out []string
	for _, u := range c.exprs {
		if u.check != "" {
			out = append(out, fmt.Sprintf("drop cascades to constraint %s on table %s", u.check, u.table))
		} else {
			out = append(out, fmt.Sprintf("drop cascades to default value for column %s of table %s", u.column, u.table))
		}
	}
	return out
}

// rangeLines are the notice's lines of the range types over the types
// dropped, each followed by those of what depends on it, as PostgreSQL
// lists them; taken before anything changes.
func (c *typeCascade) rangeLines(e *Engine) []string {
	var out []string
	for _, r := range c.ranges {
		out = append(out, "drop cascades to type "+r)
		deps := e.typeDependents(r, e.userTypes[r])
		slices.SortStableFunc(deps, func(a, b string) int { return dependentRank(a, r, false) - dependentRank(b, r, false) })
		for _, d := range deps {
			if obj, _, ok := strings.Cut(d, " depends on "); ok && !strings.HasPrefix(d, "type ") {
				out = append(out, "drop cascades to "+obj)
			}
		}
	}
	return out
}
