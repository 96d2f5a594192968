package engine

import (
	"hash/fnv"
	"strconv"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// exprTexts prints a table's kept expressions (defaults, checks) as
// PostgreSQL's deparser prints its stored trees; it keeps the column
// types those texts are read over. A text the deparser cannot print is
// shown as kept.
type exprTexts struct {
	types map[string]value.Type
	sig   string // the types', for printedTexts' keys
	// user resolves the calls of user functions (routine_table_text.go).
	user sql.UserFuncTypes
	// enums resolves the names of enum types.
	enums sql.EnumTypes
}

func newExprTexts(cols []sql.ColumnDef, e *Engine) *exprTexts {
	x := &exprTexts{types: make(map[string]value.Type, len(cols)), user: e.userFuncTypes, enums: e.enumByName}
	h := fnv.New64a()
	for _, c := range cols {
		if c.Domain == nil { // a domain's value reaches operators through a cast not written here
			x.types[c.Name] = c.Type
			h.Write([]byte(c.Name + "\x00" + c.Type.String() + "\x00"))
		}
	}
	x.sig = strconv.FormatUint(h.Sum64(), 16)
	return x
}

// printedTexts keeps the texts printed, by what they are printed from
// (the text, the types it reads, the form), so that reading a catalog
// parses each expression once while the schema holds it: a parse costs
// about a millisecond. It is emptied when it grows past printedMax.
var printedTexts = struct {
	sync.Mutex
	m map[string]printedText
}{m: map[string]printedText{}}

const printedMax = 1 << 14

type printedText struct {
	text string
	ok   bool
}

// printed is f's result, kept under key.
func printed(key string, f func() (string, bool)) (string, bool) {
	printedTexts.Lock()
	p, hit := printedTexts.m[key]
	printedTexts.Unlock()
	if hit {
		return p.text, p.ok
	}
	text, ok := f()
	printedTexts.Lock()
	if len(printedTexts.m) >= printedMax {
		clear(printedTexts.m)
	}
	printedTexts.m[key] = printedText{text, ok}
	printedTexts.Unlock()
	return text, ok
}

// exprText is sql.ExprTextPG over x's columns, kept.
func (x *exprTexts) exprText(src string, target value.Type, pretty bool) (string, bool) {
	key := "e\x00" + x.sig + "\x00" + target.String() + "\x00" + strconv.FormatBool(pretty) + "\x00" + src
	// An enum's name prints as it is now, so that the text kept under
	// the key stays right while the names the text holds name the same
	// types (a rename writes the texts again).
	text, ok := printed(key, func() (string, bool) { return sql.ExprTextPGTypes(src, x.types, target, pretty, nil, x.enums) })
	if !ok && x.user != nil {
		// A call of a user function, which may change: not kept.
		return sql.ExprTextPGTypes(src, x.types, target, pretty, x.user, x.enums)
	}
	return text, ok
}

// printed is exprText of an expression of no assigned type; ok false
// on a nil x.
func (x *exprTexts) printed(src string, pretty bool) (string, bool) {
	if x == nil {
		return "", false
	}
	return x.exprText(src, value.UnknownType, pretty)
}

// columnDefault is pg_get_expr(adbin) of c's default src; "" when
// PostgreSQL keeps none (a bare NULL on a column not of a domain). A
// domain column's default is printed as of its base type, which is what
// PostgreSQL prints of the value coerced to the domain; a text that casts
// to a domain is shown as kept.
func (x *exprTexts) columnDefault(c sql.ColumnDef, src string) string {
	if src == "" {
		return ""
	}
	t, ok := x.exprText(src, c.Type, false)
	switch {
	case !ok:
		return src
	case c.Domain == nil && (t == "NULL" || strings.HasPrefix(t, "NULL::")):
		return "" // PostgreSQL keeps no bare NULL default
	}
	return t
}

// check is a check constraint's expression in pg_get_constraintdef's
// plain and pretty forms.
func (x *exprTexts) check(src string) (plain, pretty string) {
	t, ok := x.exprText(src, value.UnknownType, false)
	if !ok {
		return src, ""
	}
	p, _ := x.exprText(src, value.UnknownType, true)
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
		if r.key != "" && r.schema == "public" && strings.IndexByte("rpvm", r.kind) >= 0 && byName[r.name] == nil {
			byName[r.name] = r
		}
		if r.key != "" && o.own != "" && r.schema == o.own && strings.IndexByte("rpv", r.kind) >= 0 {
			byName[r.name] = r // the reading session's temporary relation, which its name finds first
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
	// Every relation's columns make the key, as a view may read any.
	h := fnv.New64a()
	for _, name := range sortedKeys(byName) {
		cols, types, _ := rels(name)
		h.Write([]byte(name + "\x00"))
		for i, c := range cols {
			h.Write([]byte(c + "\x00" + types[i].String() + "\x00"))
		}
	}
	sig := strconv.FormatUint(h.Sum64(), 16)
	for _, r := range o.rels {
		if r.kind != 'v' && r.kind != 'm' || r.def == "" || r.schema != "public" && (o.own == "" || r.schema != o.own) || r.key == "" {
			continue
		}
		names := make([]string, len(r.cols))
		for i, c := range r.cols {
			names[i] = c.name
		}
		key := "v\x00" + sig + "\x00" + strings.Join(names, "\x00") + "\x00" + r.def
		if text, ok := printed(key, func() (string, bool) { return sql.ViewDefPGTypes(r.def, names, rels, o.e.enumByName, false) }); ok {
			r.pgDef = text
			r.pgDefPretty, _ = printed("p"+key, func() (string, bool) { return sql.ViewDefPGTypes(r.def, names, rels, o.e.enumByName, true) })
		}
	}
}

// enumByName resolves an enum type's name as a kept text writes it: bare
// (schema public) or qualified by its schema.
func (e *Engine) enumByName(names []string) (value.Type, bool) {
	key := strings.Join(names, ".")
	if len(names) == 2 && names[0] == "public" {
		key = names[1]
	}
	t, ok := e.userTypes[key]
	return t, ok && t.Kind == value.Enum
}
