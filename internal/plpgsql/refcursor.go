package plpgsql

import (
	"regexp"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"github.com/pganalyze/pg_query_go/v6/parser"

	"github.com/deltaview/deltaview/internal/value"
)

// Parameters of type refcursor. The grammar's library does not know the
// parameters' types, and refuses OPEN, FETCH, MOVE and CLOSE of a
// parameter ("must be of type cursor or refcursor"). For a refcursor
// parameter so refused, parse declares a variable of its name and type
// first in the body's outermost block, which the cursor statements then
// name; Compile makes it stand for the parameter (paramVars), declared
// by no block, so that every use of the name is the parameter's.

// mustBeCursor is the grammar's error for a cursor statement of a
// variable not known as a cursor.
var mustBeCursor = regexp.MustCompile(`^variable "(.+)" must be of type cursor or refcursor$`)

// refcursorParam returns the name of the variable a parse error of src
// refuses as a cursor, when it is a parameter of type refcursor.
func refcursorParam(err error, src string, sig Signature) (string, bool) {
	pe, ok := err.(*parser.Error)
	if !ok {
		return "", false
	}
	m := mustBeCursor.FindStringSubmatch(pe.Message)
	if m == nil {
		return "", false
	}
	tree, perr := pg_query.Parse(src)
	if perr != nil || len(tree.Stmts) != 1 {
		return "", false
	}
	cf := tree.Stmts[0].Stmt.GetCreateFunctionStmt()
	if cf == nil {
		return "", false
	}
	for i, p := range cf.Parameters {
		fp := p.GetFunctionParameter()
		if fp != nil && fp.Name == m[1] && i < len(sig.Types) && sig.Types[i].Kind == value.RefCursor {
			return m[1], true
		}
	}
	return "", false
}

// outerDecl is the head of a body up to where its outermost block's
// declarations begin: its directives and comments, a label, and DECLARE
// when there is one.
var outerDecl = regexp.MustCompile(`(?is)^(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/|#[a-z_]+[ \t]+[a-z_]+)*(?:<<\s*[a-z_][a-z0-9_$]*\s*>>\s*)?(declare\b)?`)

// declareFirst declares a variable name of type typ first in the
// outermost block of the body at bodyAt in src, on the line it begins on.
func declareFirst(src string, bodyAt int, name, typ string) string {
	m := outerDecl.FindStringSubmatchIndex(src[bodyAt:])
	decl := ` "` + strings.ReplaceAll(name, `"`, `""`) + `" ` + typ + `; `
	if m[2] < 0 {
		decl = " DECLARE" + decl
	}
	at := bodyAt + m[1]
	return src[:at] + decl + src[at:]
}

// cursorParams makes the variables parse declared for the refcursor
// parameters names stand for the parameters: each the first variable of
// its name after the parameters. It returns PostgreSQL's error when a
// name is not a refcursor parameter's.
func (f *Func) cursorParams(names []string) error {
	for _, name := range names {
		p := slices.IndexFunc(f.datums[:f.nparams], func(d *datum) bool { return d.name == name })
		if p < 0 || p >= len(f.sig.Types) || f.sig.Types[p].Kind != value.RefCursor {
			return compileError("variable \"" + name + "\" must be of type cursor or refcursor")
		}
		f.standFor(p, name)
	}
	return nil
}

// standFor makes the first variable named name after the parameters
// stand for parameter p, declared by no block.
func (f *Func) standFor(p int, name string) {
	for i := f.found + 1; i < len(f.datums); i++ {
		if d := f.datums[i]; d.name == name {
			if f.paramVars == nil {
				f.paramVars = map[int]int{}
			}
			d.implicit = true
			f.paramVars[i] = p
			return
		}
	}
}
