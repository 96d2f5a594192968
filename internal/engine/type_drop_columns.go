package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// DROP TYPE … CASCADE of a type that table columns use drops the columns,
// as PostgreSQL's cascade does (each column depends on its type in
// pg_depend): each table is altered as by ALTER TABLE … DROP COLUMN …
// CASCADE, which drops the views that read the columns and builds the
// others again; the views whose statements name the type go too. The
// columns of an array of the type are named first, as PostgreSQL reaches
// them through the array type, made with the type. What else uses the
// type goes as type_drop_cascade.go says.

// typeColumnDrops are the columns and views DROP TYPE … CASCADE drops
// beside the typed tables, gathered over the types it names.
type typeColumnDrops struct {
	cols  map[string][]string // by table, in the order they are named
	order []string            // the tables, in that order
	lines []string            // the notice's lines of the columns
	views []string
	// skip are the typed tables whose columns go with their types'
	// attributes (typeCascade).
	skip map[string]bool
}

// typeUser reports whether a column type holds the user type t, called
// name (an array of it, a range type's multirange). A range type over an
// enum is a type of its own, which depends on the enum: its columns
// depend on it.
func typeUser(name string, t value.Type) func(value.Type) bool {
	return func(ct value.Type) bool {
		if t.Kind == value.Record {
			return sql.HoldsRowType(ct, name)
		}
		return ct.Enum() != nil && t.Enum() != nil && ct.Mod == t.Mod || t.UserRange() != nil && rangeUsesType(ct, t)
	}
}

// columnTypeName is the type a column of type ct depends on, of the
// user type t called name: its array type or, of a range type, its
// multirange type, as PostgreSQL names them.
func columnTypeName(ct value.Type, name string, t value.Type) string {
	if r := t.UserRange(); r != nil && ct.Kind == value.UserMultirange {
		return r.MultiName
	}
	return typeDisplayName(ct, name)
}

// addType adds the columns and views that use the type t, called name,
// whose dependents deps are; ok false when another object uses it.
func (c *typeColumnDrops) addType(e *Engine, name string, t value.Type, deps []string) bool {
	uses := typeUser(name, t)
	typed := e.typedTables(name)
	covered := e.typedTableLines(name)
	type col struct{ table, name, line string }
	var arrays, plain []col
	for _, tn := range sortedKeys(e.tables) {
		if slices.Contains(typed, tn) || c.skip[tn] {
			continue
		}
		for _, cd := range e.tables[tn].def.Cols {
			if cd.Domain != nil || !uses(cd.Type) {
				continue
			}
			if e.tables[tn].temp || len(e.parentsOf(tn)) > 0 || len(e.childrenOf(tn)) > 0 {
				return false
			}
			covered = append(covered, fmt.Sprintf("column %s of table %s depends on type %s", cd.Name, tn, columnTypeName(cd.Type, name, t)))
			cl := col{table: tn, name: cd.Name, line: fmt.Sprintf("drop cascades to column %s of table %s", cd.Name, tn)}
			if cd.Type.Kind.IsArray() {
				arrays = append(arrays, cl)
			} else {
				plain = append(plain, cl)
			}
		}
	}
	var views []string
	for _, rel := range sortedKeys(e.typeUses) {
		if !slices.Contains(e.typeUses[rel], name) {
			continue
		}
		switch k, _ := e.kindOf(rel); k {
		case sql.DropView:
			covered = append(covered, fmt.Sprintf("view %s depends on type %s", rel, name))
		case sql.DropMatView:
			covered = append(covered, fmt.Sprintf("materialized view %s depends on type %s", rel, name))
		default:
			continue
		}
		views = append(views, rel)
	}
	if slices.ContainsFunc(deps, func(d string) bool { return !slices.Contains(covered, d) }) {
		return false
	}
	if c.cols == nil {
		c.cols = map[string][]string{}
	}
	for _, cl := range slices.Concat(arrays, plain) {
		if slices.Contains(c.cols[cl.table], cl.name) {
			continue // of another type named, holding this one
		}
		if !slices.Contains(c.order, cl.table) {
			c.order = append(c.order, cl.table)
		}
		c.cols[cl.table] = append(c.cols[cl.table], cl.name)
		c.lines = append(c.lines, cl.line)
	}
	c.views = append(c.views, views...)
	return true
}

// bind binds the ALTER TABLE of each table, before anything changes, and
// checks what each does to the views over its table.
func (c *typeColumnDrops) bind(e *Engine) ([]*sql.AlterTable, error) {
	var out []*sql.AlterTable
	for _, tn := range c.order {
		a, err := e.bindDescendantAlter(e.alterDropSQL("TABLE", tn, "DROP COLUMN %s CASCADE", c.cols[tn]))
		if err != nil {
			return nil, err
		}
		if _, err := e.alteredReaders(e.tables[tn], a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// apply drops the columns, then the views still there that name the
// types; it returns the lines of the notice: the columns' (with what
// their drops took) and the views'.
func (c *typeColumnDrops) apply(e *Engine, alters []*sql.AlterTable) ([]string, []string, error) {
	var lines, viewLines []string
	next := 0
	for _, a := range alters {
		// The columns' lines, each table's before what its drop takes.
		for ; next < len(c.lines) && strings.HasSuffix(c.lines[next], " of table "+a.Table); next++ {
			lines = append(lines, c.lines[next])
		}
		res, err := e.alterTable(a)
		if err != nil {
			return nil, nil, err
		}
		lines = append(lines, cascadedLines(res.Notices)...)
	}
	var views []string
	for _, v := range c.views {
		if _, ok := e.kindOf(v); ok && !slices.Contains(views, v) {
			views = append(views, v)
		}
	}
	for _, v := range views {
		if _, ok := e.kindOf(v); !ok {
			continue // gone with one before it
		}
		k, _ := e.kindOf(v)
		viewLines = append(viewLines, fmt.Sprintf("drop cascades to %s %s", map[sql.DropKind]string{sql.DropView: "view", sql.DropMatView: "materialized view"}[k], v))
		res, err := e.drop(&sql.Drop{Kind: k, Names: []string{v}, Cascade: true})
		if err != nil {
			return nil, nil, err
		}
		viewLines = append(viewLines, cascadedLines(res.Notices)...)
	}
	return lines, viewLines, nil
}

// cascadedLines are the "drop cascades to" lines of a drop's notices.
func cascadedLines(notices []string) []string {
	var out []string
	for _, n := range notices {
		for _, l := range strings.Split(strings.TrimPrefix(n, "DETAIL: "), "\n") {
			l = strings.TrimPrefix(l, "DETAIL: ")
			if strings.HasPrefix(l, "drop cascades to ") && !strings.HasSuffix(l, " other objects") {
				out = append(out, l)
			}
		}
	}
	return out
}

// alterDropSQL is ALTER what of the object keyed key with the action
// (a format of one quoted name) for each of names, comma-separated.
func (e *Engine) alterDropSQL(what, key, action string, names []string) string {
	schema, bare := e.splitKey(key)
	var sb strings.Builder
	fmt.Fprintf(&sb, "ALTER %s %s.%s ", what, expr.QuoteIdent(schema), expr.QuoteIdent(bare))
	for i, n := range names {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, action, expr.QuoteIdent(n))
	}
	return sb.String()
}
