package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The texts the catalog functions print of statistics objects, as
// PostgreSQL 15's ruleutils prints them: pg_get_statisticsobjdef (the
// statement, columns in their table's order then the expressions,
// pretty), pg_get_statisticsobjdef_columns (its ON list) and
// pg_get_statisticsobjdef_expressions (the expressions, not pretty).

// statsTexts are the three texts of every statistics object, by oid, as
// a session of the search path sees them.
func (e *Engine) statsTexts(path []string) (defs, cols map[uint32]string, exprs map[uint32][]string) {
	defs, cols, exprs = map[uint32]string{}, map[uint32]string{}, map[uint32][]string{}
	for name, st := range e.stats {
		oid := objectOID("statistic_ext", name)
		x := e.statsExprTexts(st.table)
		var on []string
		order, _ := e.columnsOf(st.table)
		for _, c := range order {
			if slices.Contains(st.cols, c) {
				on = append(on, expr.QuoteIdent(c))
			}
		}
		var plain []string
		for _, src := range st.exprs {
			pretty, ok := x.printed(src, true)
			if !ok {
				pretty = src
			}
			if !looksLikeFunction(pretty) {
				pretty = "(" + pretty + ")"
			}
			on = append(on, pretty)
			text, ok := x.printed(src, false)
			if !ok && !looksLikeFunction(src) && strings.ContainsRune(src, ' ') {
				text = "(" + src + ")" // an operator's, as PostgreSQL prints it
			} else if !ok {
				text = src
			}
			plain = append(plain, text)
		}
		cols[oid] = strings.Join(on, ", ")
		if len(plain) > 0 {
			exprs[oid] = plain
		}
		def := "CREATE STATISTICS " + e.statsQualified(name)
		if kinds := strings.TrimSuffix(st.kinds, "e"); len(kinds) < 3 && len(st.cols)+len(st.exprs) > 1 {
			var names []string
			for _, k := range kinds {
				names = append(names, map[rune]string{'d': "ndistinct", 'f': "dependencies", 'm': "mcv"}[k])
			}
			def += " (" + strings.Join(names, ", ") + ")"
		}
		defs[oid] = def + " ON " + cols[oid] + " FROM " + e.relNameIn(path, st.table)
	}
	return defs, cols, exprs
}

// statsExprTexts prints expressions over the columns of the relation
// keyed table; nil when it has none the printer knows.
func (e *Engine) statsExprTexts(table string) *exprTexts {
	if t := e.tables[table]; t != nil {
		return newExprTexts(t.def.Cols, e)
	}
	if v := e.views[table]; v != nil {
		var cols []sql.ColumnDef
		for _, c := range v.meta().cols {
			cols = append(cols, sql.ColumnDef{Name: c.Name, Type: c.Type})
		}
		return newExprTexts(cols, e)
	}
	return nil
}

// looksLikeFunction reports whether an expression's text is a bare
// function call, which PostgreSQL prints without parentheses of its own.
func looksLikeFunction(text string) bool {
	open := strings.IndexByte(text, '(')
	if open <= 0 || !strings.HasSuffix(text, ")") {
		return false
	}
	for _, r := range text[:open] {
		if !(r == '_' || r == '.' || r == '"' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	// The parenthesis that opens the arguments closes at the end.
	depth := 0
	for i, r := range text[open:] {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && open+i != len(text)-1 {
				return false
			}
		}
	}
	return true
}

// relNameIn is the relation keyed key as PostgreSQL's
// generate_relation_name prints it for a session of the search path:
// bare when its schema is public or on the path, else qualified.
func (e *Engine) relNameIn(path []string, key string) string {
	schema, name := e.splitKey(key)
	if schema == "public" || slices.Contains(path, schema) {
		return expr.QuoteIdent(name)
	}
	return expr.QuoteIdent(schema) + "." + expr.QuoteIdent(name)
}
