package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// pprinter writes a pexpr as PostgreSQL 15's ruleutils does with
// PRETTYFLAG_INDENT, and with PRETTYFLAG_PAREN when pretty: the printer
// state is the text so far and the CASE indentation.
type pprinter struct {
	b      strings.Builder
	pretty bool
	indent int
}

// ExprTextPG is src, an expression's text as kept (a column default or a
// check), as PostgreSQL's pg_get_expr prints its stored tree over columns
// of the types cols gives; target, when not Unknown, is the type the
// expression is assigned to (a default's column). ok is false for a form
// this printer does not know: the caller keeps src.
func ExprTextPG(src string, cols map[string]value.Type, target value.Type, pretty bool) (string, bool) {
	return ExprTextPGUser(src, cols, target, pretty, nil)
}

// UserFuncTypes resolves a call of a user function by its name and
// argument types to its parameters' types and its result's; ok is false
// when no function, or more than one, takes them.
type UserFuncTypes func(name string, args []value.Type) (params []value.Type, result value.Type, ok bool)

// ExprTextPGUser is ExprTextPG for a text that may call user functions,
// which user resolves.
func ExprTextPGUser(src string, cols map[string]value.Type, target value.Type, pretty bool, user UserFuncTypes) (string, bool) {
	return ExprTextPGTypes(src, cols, target, pretty, user, nil)
}

// ExprTextPGTypes is ExprTextPGUser for a text that may also name user
// enum types, which types resolves.
func ExprTextPGTypes(src string, cols map[string]value.Type, target value.Type, pretty bool, user UserFuncTypes, types EnumTypes) (string, bool) {
	n, err := parseExprText(src)
	if err != nil {
		return "", false
	}
	p := &ptyper{cols: cols, user: user, types: types}
	x, err := p.build(n)
	if err != nil {
		return "", false
	}
	if target.Kind != value.Unknown {
		if x, err = p.coerce(x, target, false); err != nil {
			return "", false
		}
	} else if x.t.Kind == value.Unknown {
		return "", false
	}
	pp := &pprinter{pretty: pretty}
	pp.expr(x, false, nil)
	return pp.b.String(), true
}

// ExprTextPretty is the pretty form (pg_get_expr(…, true)) of text, an
// expression as ExprTextPG printed it; ok is false when it cannot say.
func ExprTextPretty(text string) (string, bool) {
	n, err := parseExprText(text)
	if err != nil {
		return "", false
	}
	x, err := (&ptyper{syntactic: true}).build(n)
	if err != nil {
		return "", false
	}
	pp := &pprinter{pretty: true}
	pp.expr(x, false, nil)
	return pp.b.String(), true
}

func parseExprText(src string) (*pg_query.Node, error) {
	tree, err := pg_query.Parse("SELECT " + src)
	if err != nil || len(tree.Stmts) != 1 {
		return nil, errNoDeparse
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 || sel.FromClause != nil || sel.WhereClause != nil {
		return nil, errNoDeparse
	}
	rt := sel.TargetList[0].GetResTarget()
	if rt == nil || rt.Name != "" {
		return nil, errNoDeparse
	}
	return rt.Val, nil
}

// paren is get_rule_expr_paren: parentheses in pretty mode where the
// node is not simple under parent.
func (pp *pprinter) paren(x *pexpr, showImplicit bool, parent *pexpr) {
	if pp.pretty && !simpleUnder(x, parent) {
		pp.b.WriteByte('(')
		pp.expr(x, showImplicit, parent)
		pp.b.WriteByte(')')
		return
	}
	pp.expr(x, showImplicit, parent)
}

func (pp *pprinter) open() {
	if !pp.pretty {
		pp.b.WriteByte('(')
	}
}

func (pp *pprinter) close() {
	if !pp.pretty {
		pp.b.WriteByte(')')
	}
}

func (pp *pprinter) expr(x *pexpr, showImplicit bool, parent *pexpr) {
	b := &pp.b
	switch x.k {
	case pConst:
		pp.constant(x, 0)
	case pCol:
		if x.lit != "" {
			b.WriteString(expr.QuoteIdent(x.lit) + ".") // a view's column, by its relation's name
		}
		b.WriteString(expr.QuoteIdent(x.name))
	case pKeyword:
		b.WriteString(x.name)
	case pCast:
		if x.flag && !showImplicit {
			pp.paren(x.args[0], false, x)
			return
		}
		a := x.args[0]
		if a.k == pConst && !a.null && a.t.Kind == x.t.Kind && a.t.Mod < 0 && a.t.Kind != value.Unknown {
			pp.constant(a, -1)
		} else {
			pp.open()
			pp.paren(a, false, x)
			pp.close()
		}
		b.WriteString("::")
		b.WriteString(formatTypePG(x.t))
	case pOp:
		pp.open()
		if x.flag {
			b.WriteString(x.name + " ")
			pp.paren(x.args[0], true, x)
		} else {
			pp.paren(x.args[0], true, x)
			b.WriteString(" " + x.name + " ")
			pp.paren(x.args[1], true, x)
		}
		pp.close()
	case pDistinct:
		pp.open()
		pp.paren(x.args[0], true, x)
		b.WriteString(" IS DISTINCT FROM ")
		pp.paren(x.args[1], true, x)
		pp.close()
	case pAnd, pOr:
		pp.open()
		sep := " AND "
		if x.k == pOr {
			sep = " OR "
		}
		for i, a := range x.args {
			if i > 0 {
				b.WriteString(sep)
			}
			pp.paren(a, false, x)
		}
		pp.close()
	case pNot:
		pp.open()
		b.WriteString("NOT ")
		pp.paren(x.args[0], false, x)
		pp.close()
	case pNullTest:
		pp.open()
		pp.paren(x.args[0], true, x)
		if x.flag {
			b.WriteString(" IS NOT NULL")
		} else {
			b.WriteString(" IS NULL")
		}
		pp.close()
	case pBoolTest:
		pp.open()
		pp.paren(x.args[0], false, x)
		b.WriteString(x.name)
		pp.close()
	case pAnyAll:
		pp.open()
		pp.paren(x.args[0], true, x)
		b.WriteString(" " + x.name + " ")
		if x.flag {
			b.WriteString("ALL (")
		} else {
			b.WriteString("ANY (")
		}
		pp.paren(x.args[1], true, x)
		b.WriteByte(')')
		pp.close()
	case pFunc:
		b.WriteString(expr.QuoteIdent(x.name))
		b.WriteByte('(')
		b.WriteString(x.lit) // an aggregate's * or DISTINCT
		pp.list(x.args)
		if len(x.order) > 0 {
			b.WriteString(" ORDER BY ")
			pp.orderBy(x.order)
		}
		b.WriteByte(')')
		if x.filter != nil {
			b.WriteString(" FILTER (WHERE ")
			pp.expr(x.filter, false, nil)
			b.WriteByte(')')
		}
		if x.win != nil {
			b.WriteString(" OVER ")
			if x.win.name != "" {
				b.WriteString(expr.QuoteIdent(x.win.name))
			} else {
				pp.windowSpec(x.win)
			}
		}
	case pSubLink:
		pp.subLink(x)
	case pSQLCall:
		pp.sqlCall(x)
	case pSubscript:
		pp.subscript(x)
	case pCollate:
		pp.open()
		pp.paren(x.args[0], showImplicit, x)
		b.WriteString(" COLLATE " + x.name)
		pp.close()
	case pCall:
		b.WriteString(x.name)
		b.WriteByte('(')
		pp.list(x.args)
		b.WriteByte(')')
	case pArray:
		b.WriteString("ARRAY[")
		pp.list(x.args)
		b.WriteByte(']')
		if len(x.args) == 0 && x.t.Kind != value.Unknown {
			b.WriteString("::" + formatTypePG(x.t))
		}
	case pCase:
		pp.keyword("CASE", 0, 4)
		if x.caseArg != nil {
			b.WriteByte(' ')
			pp.expr(x.caseArg, true, x)
		}
		for _, w := range x.whens {
			pp.keyword("WHEN ", 0, 0)
			pp.expr(w[0], false, x)
			b.WriteString(" THEN ")
			pp.expr(w[1], true, x)
		}
		pp.keyword("ELSE ", 0, 0)
		pp.expr(x.els, true, x)
		pp.keyword("END", -4, 0)
	}
}

func (pp *pprinter) list(xs []*pexpr) {
	for i, a := range xs {
		if i > 0 {
			pp.b.WriteString(", ")
		}
		pp.expr(a, true, nil)
	}
}

// indentLimit is PRETTYINDENT_LIMIT.
const indentLimit = 40

// keyword is appendContextKeyword with PRETTYFLAG_INDENT: a new line,
// indented, with the trailing spaces before it removed.
func (pp *pprinter) keyword(s string, before, after int) { pp.keywordPlus(s, before, after, 0) }

func (pp *pprinter) keywordPlus(s string, before, after, plus int) {
	pp.indent += before
	pp.trimSpaces()
	pp.b.WriteByte('\n')
	n := max(pp.indent, 0)
	if pp.indent >= indentLimit {
		// past the limit PostgreSQL indents by half steps, wrapping
		n = (indentLimit + (pp.indent-indentLimit)/4) % indentLimit
	}
	pp.b.WriteString(strings.Repeat(" ", n+plus))
	pp.b.WriteString(s)
	pp.indent = max(pp.indent+after, 0)
}

// trimSpaces is removeStringInfoSpaces.
func (pp *pprinter) trimSpaces() {
	t := strings.TrimRight(pp.b.String(), " ")
	pp.b.Reset()
	pp.b.WriteString(t)
}

// constant is get_const_expr: showType 0 labels a constant whose type
// its text would not give back, -1 never labels.
func (pp *pprinter) constant(x *pexpr, showType int) {
	b := &pp.b
	t := x.t
	if x.null {
		b.WriteString("NULL")
		if showType >= 0 && t.Kind != value.Unknown {
			b.WriteString("::" + formatTypePG(t))
		}
		return
	}
	label := true
	switch t.Kind {
	case value.Int4:
		if !strings.HasPrefix(x.lit, "-") {
			b.WriteString(x.lit)
			label = false
		} else {
			b.WriteString(quoteLiteral(x.lit))
		}
	case value.Numeric:
		if x.lit != "" && x.lit[0] >= '0' && x.lit[0] <= '9' && strings.ContainsAny(x.lit, "eE.") {
			b.WriteString(x.lit)
			label = t.Mod >= 0
		} else {
			b.WriteString(quoteLiteral(x.lit))
		}
	case value.Bool:
		if x.lit == "t" {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		label = false
	case value.Unknown:
		b.WriteString(quoteLiteral(x.lit))
		label = false
	default:
		b.WriteString(quoteLiteral(x.lit))
	}
	if label && showType >= 0 {
		b.WriteString("::" + formatTypePG(t))
	}
}

// quoteLiteral is simple_quote_literal: E” is never needed with
// standard_conforming_strings on.
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// formatTypePG is format_type_with_typemod.
func formatTypePG(t value.Type) string {
	if d := t.Enum(); d != nil {
		// An enum's name is quoted as an identifier, its schema's with
		// it when the name carries one.
		if t.Kind.IsArray() {
			return quoteQualified(d.Name) + "[]"
		}
		return quoteQualified(d.Name)
	}
	if t.Kind == value.Char && t.Mod < 0 {
		return "bpchar"
	}
	if t.Kind == value.ArrayOf(value.Char) && t.Mod < 0 {
		return "bpchar[]"
	}
	return t.String()
}

// simpleUnder is ruleutils' isSimpleNode with PRETTYFLAG_PAREN.
func simpleUnder(x, parent *pexpr) bool {
	if parent == nil {
		return true
	}
	castParent := parent.k == pCast
	ownParens := func() bool {
		switch parent.k {
		case pFunc:
			return true
		case pAnd, pOr, pNot, pArray, pCall, pCase:
			return true
		}
		return false
	}
	switch x.k {
	case pConst, pCol, pKeyword, pFunc, pCall, pArray, pCase, pSQLCall, pSubscript:
		return true
	case pCast:
		if x.relabel {
			return simpleUnder(x.args[0], x)
		}
		return true // a cast function is function-like
	case pOp:
		if parent.k == pOp {
			op, pop := x.name, parent.name
			if x.flag || parent.flag || len(op) != 1 || len(pop) != 1 {
				return false
			}
			lo, hi := strings.Contains("+-", op), strings.Contains("*/%", op)
			plo, phi := strings.Contains("+-", pop), strings.Contains("*/%", pop)
			if !(lo || hi) || !(plo || phi) {
				return false
			}
			if hi && plo {
				return true
			}
			if lo && phi {
				return false
			}
			return parent.args[0] == x
		}
		return !castParent && ownParens()
	case pNullTest, pBoolTest, pDistinct, pSubLink:
		return !castParent && ownParens()
	case pAnd, pOr, pNot:
		if parent.k == pAnd || parent.k == pOr || parent.k == pNot {
			switch x.k {
			case pNot, pAnd:
				return parent.k == pAnd || parent.k == pOr
			case pOr:
				return parent.k == pOr
			}
			return false
		}
		return !castParent && ownParens()
	}
	return false
}
