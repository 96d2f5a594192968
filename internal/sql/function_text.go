package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
)

// ArgumentsText is pg_get_function_arguments of f (identity: without the
// defaults, pg_get_function_identity_arguments): its parameters with their
// modes (IN spelled out for a procedure, as PostgreSQL 15 does), names,
// types and defaults; RETURNS TABLE's columns are not arguments.
func (f *Function) ArgumentsText(identity bool) string {
	modes := f.ArgModes
	if cf := f.createStmt(); modes == "" && cf != nil {
		for _, n := range cf.Parameters {
			modes += paramMode(n.GetFunctionParameter().Mode)
		}
	}
	var out []string
	in, col := 0, 0
	for _, m := range []byte(modes) {
		var name, typ, dflt, prefix string
		switch {
		case f.Procedure || m == 'i' || m == 'b':
			if in >= len(f.Params) {
				return strings.Join(out, ", ")
			}
			p := f.Params[in]
			in++
			name, typ = p.Name, p.TypeString()
			if p.Default != nil && !identity {
				dflt = " DEFAULT " + defaultText(p.Default, typ)
			}
			if p.Variadic {
				prefix = "VARIADIC "
			}
			if !f.Procedure && m == 'b' {
				col++ // an INOUT parameter is a result column too
			}
		default: // OUT, or a column of RETURNS TABLE
			if col >= len(f.Cols) {
				return strings.Join(out, ", ")
			}
			name, typ = f.Cols[col].Name, f.ColTypeString(col)
			col++
			if m == 't' {
				continue
			}
		}
		switch m {
		case 'i':
			if f.Procedure {
				prefix = "IN " + prefix
			}
		case 'o':
			prefix = "OUT "
		case 'b':
			prefix = "INOUT "
		}
		arg := typ
		if name != "" {
			arg = expr.QuoteIdent(name) + " " + typ
		}
		out = append(out, prefix+arg+dflt)
	}
	return strings.Join(out, ", ")
}

// DefaultCount is pg_proc.pronargdefaults: how many input parameters
// have a default.
func (f *Function) DefaultCount() int {
	n := 0
	for _, p := range f.Params {
		if p.Default != nil {
			n++
		}
	}
	return n
}

// LanguageName is pg_language.lanname of f's language: sql for a
// LANGUAGE sql routine the engine runs as PL/pgSQL.
func (f *Function) LanguageName() string {
	if f.Language == "" || f.PLSQL != "" || f.SQLCode {
		return "sql"
	}
	return f.Language
}

// BodyText is pg_proc.prosrc of f: the text of its AS clause ("" for a
// body of RETURN or BEGIN ATOMIC, which PostgreSQL keeps parsed).
func (f *Function) BodyText() string {
	if f.LanguageName() != "sql" {
		return f.Source
	}
	cf := f.createStmt()
	if cf == nil {
		return ""
	}
	for _, o := range cf.Options {
		if d := o.GetDefElem(); d != nil && d.Defname == "as" {
			if l := d.Arg.GetList(); l != nil && len(l.Items) > 0 {
				return l.Items[0].GetString_().GetSval()
			}
		}
	}
	return ""
}

// createStmt is f's CREATE statement parsed again, nil if it is not one.
func (f *Function) createStmt() *pg_query.CreateFunctionStmt {
	tree, err := pg_query.Parse(f.SQL)
	if err != nil || len(tree.Stmts) == 0 {
		return nil
	}
	return tree.Stmts[0].Stmt.GetCreateFunctionStmt()
}

// defaultText is a parameter's DEFAULT as PostgreSQL prints it, n cast to
// the parameter's type typ: a number or a boolean bare (an implicit cast
// is not shown), a string as a constant of typ, bare for an integer, a
// numeric or a boolean and else labelled ('x'::text).
func defaultText(n *pg_query.Node, typ string) string {
	c := n.GetAConst()
	if c == nil || c.GetSval() == nil && !c.Isnull {
		if d, err := deparseExpr(n); err == nil {
			return d
		}
		return ""
	}
	if c.Isnull {
		return "NULL::" + typ
	}
	lit := c.GetSval().Sval
	switch typ {
	case "integer":
		if _, err := strconv.ParseInt(lit, 10, 32); err == nil {
			return lit
		}
	case "numeric":
		if _, err := strconv.ParseFloat(lit, 64); err == nil && !strings.ContainsAny(lit, "eEnN") {
			return lit
		}
	case "boolean":
		if b, err := strconv.ParseBool(lit); err == nil {
			return strconv.FormatBool(b)
		}
	}
	return "'" + strings.ReplaceAll(lit, "'", "''") + "'::" + typ
}

// Modes are the modes of all the routine's parameters, in declared order,
// a letter each as ArgModes: RETURNS TABLE's columns too ('t'), which
// information_schema.parameters lists.
func (f *Function) Modes() string {
	if cf := f.createStmt(); cf != nil {
		modes := ""
		for _, n := range cf.Parameters {
			modes += paramMode(n.GetFunctionParameter().Mode)
		}
		return modes
	}
	return f.ArgModes
}
