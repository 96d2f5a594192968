package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// exprTexts prints a table's kept expressions (defaults, checks) as
// PostgreSQL's deparser prints its stored trees; it keeps the column
// types those texts are read over. A text the deparser cannot print is
// shown as kept.
type exprTexts struct {
	types map[string]value.Type
}

func newExprTexts(cols []sql.ColumnDef) *exprTexts {
	x := &exprTexts{types: make(map[string]value.Type, len(cols))}
	for _, c := range cols {
		if c.Domain == nil { // a domain's value reaches operators through a cast not written here
			x.types[c.Name] = c.Type
		}
	}
	return x
}

// columnDefault is pg_get_expr(adbin) of c's default src; "" when
// PostgreSQL keeps none (a bare NULL on a column not of a domain).
func (x *exprTexts) columnDefault(c sql.ColumnDef, src string) string {
	if src == "" {
		return ""
	}
	if c.Domain == nil && sql.IsNullExpr(src) {
		return ""
	}
	if c.Domain != nil {
		return src
	}
	if t, ok := sql.ExprTextPG(src, x.types, c.Type, false); ok {
		return t
	}
	return src
}

// check is a check constraint's expression in pg_get_constraintdef's
// plain and pretty forms.
func (x *exprTexts) check(src string) (plain, pretty string) {
	t, ok := sql.ExprTextPG(src, x.types, value.UnknownType, false)
	if !ok {
		return src, ""
	}
	p, _ := sql.ExprTextPG(src, x.types, value.UnknownType, true)
	return t, p
}

// viewDefinition is pg_get_viewdef(view) of a view or materialized view.
func (r *catRel) viewDefinition() string {
	if r.pgDef != "" {
		return r.pgDef
	}
	return viewDef(r.def)
}

// printViews prints the queries of the views of schema public as
// pg_get_viewdef does, over the relations of that schema.
func (o *catalogObjects) printViews() {
	byName := map[string]*catRel{}
	for _, r := range o.rels {
		if r.key != "" && r.schema == "public" && strings.IndexByte("rpvm", r.kind) >= 0 {
			byName[r.name] = r
		}
	}
	rels := func(name string) ([]string, []value.Type, bool) {
		r := byName[name]
		if r == nil {
			return nil, nil, false
		}
		names, types := make([]string, len(r.cols)), make([]value.Type, len(r.cols))
		for i, c := range r.cols {
			names[i], types[i] = c.name, c.typ
			if r.t != nil && i < len(r.t.def.Cols) && r.t.def.Cols[i].Domain != nil {
				types[i] = value.UnknownType // read through a cast not written
			}
		}
		return names, types, true
	}
	for _, r := range o.rels {
		if r.kind != 'v' && r.kind != 'm' || r.def == "" || r.schema != "public" || r.key == "" {
			continue
		}
		names := make([]string, len(r.cols))
		for i, c := range r.cols {
			names[i] = c.name
		}
		if text, ok := sql.ViewDefPG(r.def, names, rels, false); ok {
			r.pgDef = text
			r.pgDefPretty, _ = sql.ViewDefPG(r.def, names, rels, true)
		}
	}
}
