package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// query prints q as get_query_def does, starting at the printer's
// indentation, which it leaves as it found it; visible is
// colNamesVisible: whether an output's name matters to the reader.
func (pp *pprinter) query(q *pquery, visible bool) {
	save := pp.indent
	pp.with(q)
	if q.set != nil {
		pp.setop(q.set, visible)
	} else if q.values != nil {
		pp.values(q)
	} else {
		pp.basicSelect(q, visible)
	}
	if len(q.sort) > 0 {
		pp.keywordPlus(" ORDER BY ", -8, 8, 1)
		pp.orderBy(q.sort)
	}
	if q.offset != nil {
		pp.keywordPlus(" OFFSET ", -8, 8, 0)
		pp.expr(q.offset, false, nil)
	}
	if q.limitAll {
		pp.keywordPlus(" LIMIT ALL", -8, 8, 0)
	} else if q.limit != nil {
		pp.keywordPlus(" LIMIT ", -8, 8, 0)
		pp.expr(q.limit, false, nil)
	}
	pp.indent = save
}

// with is get_with_clause.
func (pp *pprinter) with(q *pquery) {
	if len(q.with) == 0 {
		return
	}
	b := &pp.b
	pp.indent += 8
	b.WriteByte(' ')
	sep := "WITH "
	if q.recursive {
		sep = "WITH RECURSIVE "
	}
	for _, c := range q.with {
		b.WriteString(sep)
		b.WriteString(expr.QuoteIdent(c.name))
		if len(c.cols) > 0 {
			b.WriteByte('(')
			for i, col := range c.cols {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(expr.QuoteIdent(col))
			}
			b.WriteByte(')')
		}
		b.WriteString(" AS " + c.mat + "(")
		pp.keyword("", 0, 0)
		pp.query(c.q, true)
		pp.keyword("", 0, 0)
		b.WriteByte(')')
		sep = ", "
	}
	pp.indent -= 8
	pp.keyword("", 0, 0)
}

// setop is get_setop_query: parentheses where the operator changes on
// the left and always around a set operation on the right.
func (pp *pprinter) setop(s *psetop, visible bool) {
	b := &pp.b
	node := func(q *pquery) *psetop {
		if q.set != nil && len(q.with) == 0 && len(q.sort) == 0 && q.limit == nil && q.offset == nil && !q.limitAll {
			return q.set
		}
		return nil
	}
	leaf := func(q *pquery, visible bool) {
		paren := len(q.with) > 0 || len(q.sort) > 0 || q.limit != nil || q.offset != nil || q.limitAll
		if paren {
			b.WriteByte('(')
		}
		pp.query(q, visible)
		if paren {
			b.WriteByte(')')
		}
	}
	sub := 0
	if l := node(s.l); l != nil {
		paren := l.op != s.op || l.all != s.all
		if paren {
			b.WriteByte('(')
			sub = 8
			pp.keyword("", sub, 0)
		}
		pp.setop(l, visible)
		if paren {
			pp.keyword(") ", -sub, 0)
		} else {
			pp.keyword("", -sub, 0)
		}
	} else {
		leaf(s.l, visible)
		pp.keyword("", 0, 0)
	}
	b.WriteString(s.op + " ")
	if s.all {
		b.WriteString("ALL ")
	}
	r := node(s.r)
	sub = 0
	if r != nil {
		b.WriteByte('(')
		sub = 8
	}
	pp.keyword("", sub, 0)
	if r != nil {
		pp.setop(r, false)
	} else {
		leaf(s.r, false)
	}
	pp.indent -= sub
	if r != nil {
		pp.keyword(")", 0, 0)
	}
}

// basicSelect is get_basic_select_query.
func (pp *pprinter) basicSelect(q *pquery, visible bool) {
	b := &pp.b
	pp.indent += 8
	b.WriteString(" SELECT")
	if len(q.distinctOn) > 0 {
		b.WriteString(" DISTINCT ON (")
		for i, x := range q.distinctOn {
			if i > 0 {
				b.WriteString(", ")
			}
			pp.sortGroup(x)
		}
		b.WriteByte(')')
	} else if q.distinct {
		b.WriteString(" DISTINCT")
	}
	sep := " "
	for i, t := range q.targets {
		b.WriteString(sep)
		sep = ", "
		field := pp.target(t, visible)
		if strings.HasPrefix(field, "\n") {
			pp.trimSpaces()
		} else if i > 0 {
			pp.keywordPlus("", -8, 8, 4)
		}
		b.WriteString(field)
	}
	for i, f := range q.from {
		if i == 0 {
			pp.keywordPlus(" FROM ", -8, 8, 2)
		} else {
			b.WriteString(", ")
			pp.keywordPlus("", -8, 8, 4)
		}
		pp.fromItem(f)
	}
	if q.where != nil {
		pp.keywordPlus(" WHERE ", -8, 8, 1)
		pp.expr(q.where, false, nil)
	}
	if len(q.group) > 0 {
		pp.keywordPlus(" GROUP BY ", -8, 8, 1)
		for i, g := range q.group {
			if i > 0 {
				b.WriteString(", ")
			}
			pp.groupItem(g, true)
		}
	}
	if q.having != nil {
		pp.keywordPlus(" HAVING ", -8, 8, 0)
		pp.expr(q.having, false, nil)
	}
	first := true
	for _, w := range q.windows {
		if w.name == "" {
			continue
		}
		if first {
			pp.keywordPlus(" WINDOW ", -8, 8, 1)
			first = false
		} else {
			b.WriteString(", ")
		}
		b.WriteString(expr.QuoteIdent(w.name) + " AS ")
		pp.windowSpec(w)
	}
}

// target prints one output column as get_target_list does.
func (pp *pprinter) target(t vtarget, visible bool) string {
	sub := &pprinter{pretty: pp.pretty, indent: pp.indent}
	sub.expr(t.x, true, nil)
	switch {
	case t.x.k == pCol:
		if t.x.name != t.name {
			sub.b.WriteString(" AS " + expr.QuoteIdent(t.name))
		}
	case visible || t.name != "?column?":
		sub.b.WriteString(" AS " + expr.QuoteIdent(t.name))
	}
	return sub.b.String()
}

// groupItem is get_rule_groupingset (omit: its omit_parens).
func (pp *pprinter) groupItem(g *pgroup, omit bool) {
	b := &pp.b
	switch g.kind {
	case "":
		if !omit {
			b.WriteByte('(')
		}
		pp.sortGroup(g.x)
		if !omit {
			b.WriteByte(')')
		}
		return
	case "()":
		b.WriteString("()")
		return
	case "(":
		b.WriteByte('(')
		for i, s := range g.sets {
			if i > 0 {
				b.WriteString(", ")
			}
			pp.sortGroup(s.x)
		}
		b.WriteByte(')')
		return
	case "GROUPING SETS":
		b.WriteString("GROUPING SETS (")
	default:
		b.WriteString(g.kind + "(")
	}
	for i, s := range g.sets {
		if i > 0 {
			b.WriteString(", ")
		}
		pp.groupItem(s, g.kind != "GROUPING SETS")
	}
	b.WriteByte(')')
}

// orderBy is get_rule_orderby.
func (pp *pprinter) orderBy(list []psort) {
	for i, s := range list {
		if i > 0 {
			pp.b.WriteString(", ")
		}
		pp.sortGroup(s.x)
		if s.desc {
			pp.b.WriteString(" DESC")
		}
		pp.b.WriteString(s.nulls)
	}
}

// sortGroup is get_rule_sortgroupclause: a set operation's column by
// number, a column bare, other expressions in parentheses when pretty
// or function-like.
func (pp *pprinter) sortGroup(x *pexpr) {
	if x.colno > 0 {
		pp.b.WriteString(itoa(x.colno))
		return
	}
	if x.k == pCol {
		pp.expr(x, true, nil)
		return
	}
	paren := pp.pretty || x.k == pFunc || x.k == pSQLCall || x.k == pCast && !x.relabel
	if paren {
		pp.b.WriteByte('(')
	}
	pp.expr(x, true, nil)
	if paren {
		pp.b.WriteByte(')')
	}
}

// windowSpec is get_rule_windowspec.
func (pp *pprinter) windowSpec(w *pwindow) {
	b := &pp.b
	b.WriteByte('(')
	space := false
	if len(w.part) > 0 {
		b.WriteString("PARTITION BY ")
		for i, x := range w.part {
			if i > 0 {
				b.WriteString(", ")
			}
			pp.sortGroup(x)
		}
		space = true
	}
	if len(w.order) > 0 {
		if space {
			b.WriteByte(' ')
		}
		b.WriteString("ORDER BY ")
		pp.orderBy(w.order)
		space = true
	}
	if w.frame != nil {
		if space {
			b.WriteByte(' ')
		}
		for _, f := range w.frame {
			if f.x != nil {
				pp.expr(f.x, false, nil)
			} else {
				b.WriteString(f.text)
			}
		}
		pp.trimSpaces() // the last word's space
	}
	b.WriteByte(')')
}

// fromItem is get_from_clause_item.
func (pp *pprinter) fromItem(f *pfrom) {
	b := &pp.b
	if f.lateral {
		b.WriteString("LATERAL ")
	}
	switch {
	case f.sub != nil || f.fn != nil:
		if f.fn != nil {
			pp.expr(f.fn, true, nil)
			if f.ordinality {
				b.WriteString(" WITH ORDINALITY")
			}
		} else {
			b.WriteByte('(')
			pp.query(f.sub, true)
			b.WriteByte(')')
		}
		b.WriteString(" " + expr.QuoteIdent(f.rel.out))
		if len(f.aliasCols) > 0 {
			b.WriteByte('(')
			for i, c := range f.aliasCols {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(expr.QuoteIdent(c))
			}
			b.WriteByte(')')
		}
		return
	case f.rel != nil:
		b.WriteString(expr.QuoteIdent(f.relname))
		if f.alias {
			b.WriteString(" " + expr.QuoteIdent(f.rel.out))
		}
		return
	}
	if !pp.pretty {
		b.WriteByte('(')
	}
	pp.fromItem(f.l)
	pp.keywordPlus(f.kind, -8, 8, 4)
	rparen := pp.pretty && f.r.rel == nil
	if rparen {
		b.WriteByte('(')
	}
	pp.fromItem(f.r)
	if rparen {
		b.WriteByte(')')
	}
	switch {
	case len(f.using) > 0:
		b.WriteString(" USING (")
		for i, u := range f.using {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(expr.QuoteIdent(u))
		}
		b.WriteByte(')')
	case f.on != nil:
		b.WriteString(" ON ")
		pp.open()
		pp.expr(f.on, false, nil)
		pp.close()
	case f.kind != " JOIN " && f.kind != " CROSS JOIN ":
		b.WriteString(" ON TRUE")
	}
	if !pp.pretty {
		b.WriteByte(')')
	}
}

// subLink is get_sublink_expr.
func (pp *pprinter) subLink(x *pexpr) {
	b := &pp.b
	switch x.name {
	case "ARRAY":
		b.WriteString("ARRAY(")
	default:
		b.WriteByte('(')
	}
	paren := true
	switch x.name {
	case "EXISTS":
		b.WriteString("EXISTS ")
	case "EXPR", "ARRAY":
		paren = false
	default:
		pp.expr(x.args[0], true, nil)
		b.WriteString(x.name)
	}
	if paren {
		b.WriteByte('(')
	}
	pp.query(x.sub, false)
	if paren {
		b.WriteString("))")
	} else {
		b.WriteByte(')')
	}
}
