package sql

import (
	"errors"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Stmt is one parsed statement and the text it came from. Positions in
// errors about it are offsets into SQL.
type Stmt struct {
	SQL  string
	Node *pg_query.Node
	// starNames are the bound first columns of the statement's scalar
	// subqueries, by location, for the names of select-list items that
	// are subqueries selecting `*` (figure_name.go).
	starNames starNames
	// Explain is set, with ExplainFormat, for EXPLAIN [(FORMAT f)]
	// MATERIALIZED VIEW name, which is not PostgreSQL grammar either.
	Explain       string
	ExplainFormat string
	// Subscribe is set for SUBSCRIBE [TO] name, which is not PostgreSQL
	// grammar and so has no Node.
	Subscribe string
	// Declared are the parameter types of PREPARE name (types) AS Node,
	// TypeName nodes: BindPrepared gives $1, $2, … these types. A nil
	// entry declares none: DeclaredTypes' type, if any, is $n's.
	Declared []*pg_query.Node
	// DeclaredTypes are the parameter types the protocol's Parse message
	// declared by oid, as resolved; Kind Unknown where it declared none
	// (oid 0), and the type is deduced from the parameter's uses.
	DeclaredTypes []value.Type
	// Void marks the parameters the Parse message declared void: the
	// OUT parameters JDBC sends for {? = call f(?)} and {call p(?)},
	// which a function call's arguments leave out (dropVoidParams).
	Void []bool
	// Assign is set for a PL/pgSQL assignment to an element, a slice or
	// a field of a variable (a[i] := v): Node is SELECT v, Assign the
	// target as UPDATE's SET writes it, and the variable's value is
	// parameter $AssignBase. BindWithParams binds the variable's new value.
	Assign     *pg_query.ResTarget
	AssignBase int32
	// Vars are the names of the column references that a PL/pgSQL body's
	// variables replaced by parameters, by location; VarConflict says
	// what a column of the same name in scope makes of them (bind_plvar.go).
	Vars        map[int32][]string
	VarConflict VarConflict
	// SystemColumns gives the tables of the statement their system
	// columns though its text names none (a cursor's scan, CursorScan).
	SystemColumns bool
	// Refs, when set, records how binding resolves the statement's column
	// references (rename_column.go).
	Refs *RefLog
	// MemberTable is the table of DROP POLICY, TRIGGER or RULE as the
	// statement wrote it, which QualifyNames replaces by its key: the
	// notice of IF EXISTS names it so, as PostgreSQL's.
	MemberTable string
}

// errf returns an error positioned at the 0-based byte offset loc of the
// statement (unpositioned when loc < 0).
func (s *Stmt) errf(loc int32, code, format string, args ...any) *pgerr.Error {
	return pgerr.New(code, format, args...).At(s.SQL, int(loc))
}

// parseSubscribe recognises SUBSCRIBE [TO] name, which PostgreSQL's
// grammar lacks: ok reports whether text starts with SUBSCRIBE.
func parseSubscribe(text string) (name string, ok bool, err error) {
	if !strings.EqualFold(firstWord(text), "subscribe") {
		return "", false, nil
	}
	res, err := pg_query.Scan(text)
	if err != nil {
		return "", false, nil
	}
	var toks []*pg_query.ScanToken
	for _, t := range res.Tokens {
		if t.Token != pg_query.Token_SQL_COMMENT && t.Token != pg_query.Token_C_COMMENT {
			toks = append(toks, t)
		}
	}
	if len(toks) == 0 {
		return "", false, nil
	}
	word := func(t *pg_query.ScanToken) string { return text[t.Start:t.End] }
	if !strings.EqualFold(word(toks[0]), "subscribe") {
		return "", false, nil
	}
	toks = toks[1:]
	if len(toks) > 1 && strings.EqualFold(word(toks[0]), "to") {
		toks = toks[1:]
	}
	if len(toks) != 1 || (toks[0].Token != pg_query.Token_IDENT && toks[0].KeywordKind == pg_query.KeywordKind_NO_KEYWORD) {
		pos := len(text)
		if len(toks) > 0 {
			pos = int(toks[0].Start)
			if len(toks) > 1 {
				pos = int(toks[1].Start)
			}
		}
		return "", true, pgerr.New(pgerr.SyntaxError, "syntax error in SUBSCRIBE: expected SUBSCRIBE [TO] view_name").At(text, pos)
	}
	return identName(word(toks[0])), true, nil
}

// Split splits a script into statements at top-level semicolons, without
// parsing them, so that a syntax error in one statement does not stop the
// ones before it: an unterminated string or comment ends the last
// statement, for Parse to report. Each statement keeps its leading
// comments; pieces that hold only whitespace are dropped. A script that is
// not valid text (invalid UTF-8, a NUL byte) fails as a whole, with 22021
// positioned in the script.
func Split(script string) ([]string, error) {
	if err := value.ValidText(script); err != nil {
		return nil, err
	}
	var out []string
	start := 0
	add := func(end int) {
		if p := strings.TrimSpace(script[start:end]); p != "" {
			out = append(out, p)
		}
	}
	l := lexer{s: script}
	var d blockDepth
	for {
		kind, s, e := l.next()
		if kind == tkEOF {
			break
		}
		switch kind {
		case tkWord:
			d.word(script[s:e])
		case tkPunct:
			d.punct(script[s])
		}
		if kind == tkPunct && script[s] == ';' && d.ends() {
			add(s)
			start = e
		}
	}
	add(len(script))
	return out, nil
}

// Parse parses the text of one statement. It returns nil, nil for text that
// holds only comments.
//
// Text the parser must not see is refused first: a NUL byte or invalid
// UTF-8 (22021), more than MaxStatementBytes (54000), or expressions
// nested deeper than MaxNestingDepth (54001).
func Parse(text string) (*Stmt, error) {
	if err := checkText(text, "statement"); err != nil {
		return nil, err
	}
	if err := checkDepth(text); err != nil {
		return nil, err
	}
	if name, format, ok, err := parseExplainView(text); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return &Stmt{SQL: text, Explain: name, ExplainFormat: format}, nil
	}
	if name, ok, err := parseSubscribe(text); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return &Stmt{SQL: text, Subscribe: name}, nil
	}
	tree, err := parseTree(text)
	if err != nil {
		return nil, err
	}
	switch len(tree.Stmts) {
	case 0:
		return nil, nil
	case 1:
		return &Stmt{SQL: text, Node: tree.Stmts[0].Stmt}, nil
	}
	return nil, pgerr.New(pgerr.SyntaxError, "cannot parse several statements at once")
}

// parseTree runs PostgreSQL's parser. Its tree crosses from C as a
// protocol buffer, whose decoder by default refuses trees deeper than
// 10,000 messages, which checkDepth's limit allows; the decoder recurses
// on a Go stack, which grows as needed.
func parseTree(text string) (*pg_query.ParseResult, error) {
	tree, err := parseTreePG17(text)
	if err == nil {
		fixEscapeV(text, tree)
	}
	if err != nil && !errors.Is(err, errTooComplex) || err == nil && hasSQLJSON(tree) {
		if tree15, err15 := parseSQLJSON15(text); tree15 != nil || err15 != nil {
			return tree15, err15
		}
	}
	return tree, err
}

var errTooComplex = pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")

// parseTreePG17 runs the parser on text as it is: PostgreSQL 17's
// grammar (parseTree reads SQL/JSON syntax as PostgreSQL 15 does).
func parseTreePG17(text string) (*pg_query.ParseResult, error) {
	buf, err := pgparser.ParseToProtobuf(text)
	if err != nil {
		return nil, translateParseError(err, text)
	}
	var tree pg_query.ParseResult
	if err := (proto.UnmarshalOptions{RecursionLimit: 1 << 20}).Unmarshal(buf, &tree); err != nil {
		return nil, errTooComplex
	}
	return &tree, nil
}

// firstWord returns the first word of text, past comments.
func firstWord(text string) string {
	l := lexer{s: text}
	for {
		kind, s, e := l.next()
		switch kind {
		case tkComment:
			continue
		case tkWord:
			return text[s:e]
		}
		return ""
	}
}

// ParseScript splits and parses a whole script.
func ParseScript(script string) ([]*Stmt, error) {
	parts, err := Split(script)
	if err != nil {
		return nil, err
	}
	var out []*Stmt
	for _, p := range parts {
		s, err := Parse(p)
		if err != nil {
			return nil, err
		}
		if s != nil {
			out = append(out, s)
		}
	}
	return out, nil
}

// identName folds an identifier as PostgreSQL does: quoted names keep their
// case, others are lowered.
func identName(s string) string {
	if strings.HasPrefix(s, `"`) {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return strings.ToLower(s)
}

func translateParseError(err error, text string) error {
	var pe *pgparser.Error
	if errors.As(err, &pe) {
		e := &pgerr.Error{Code: pgerr.SyntaxError, Message: pe.Message, Position: pe.Cursorpos}
		if strings.Contains(pe.Message, "unterminated") {
			e.Position = 0
		}
		if pe.Message == "CREATE SCHEMA IF NOT EXISTS cannot include schema elements" ||
			strings.HasSuffix(pe.Message, "constraints cannot be marked NOT VALID") {
			e.Code = pgerr.FeatureNotSupported // the grammar's own refusal, as in PostgreSQL
		}
		return e
	}
	return &pgerr.Error{Code: pgerr.SyntaxError, Message: err.Error()}
}

// parseExplainView recognises EXPLAIN [(FORMAT TEXT|JSON)] MATERIALIZED
// VIEW name: ok reports whether text is of that form up to VIEW.
func parseExplainView(text string) (name, format string, ok bool, err error) {
	if !strings.EqualFold(firstWord(text), "explain") {
		return "", "", false, nil
	}
	res, err := pg_query.Scan(text)
	if err != nil {
		return "", "", false, nil
	}
	var toks []string
	var starts []int
	for _, t := range res.Tokens {
		if t.Token != pg_query.Token_SQL_COMMENT && t.Token != pg_query.Token_C_COMMENT {
			toks = append(toks, text[t.Start:t.End])
			starts = append(starts, int(t.Start))
		}
	}
	is := func(i int, w string) bool { return i < len(toks) && strings.EqualFold(toks[i], w) }
	if !is(0, "explain") {
		return "", "", false, nil
	}
	i, format := 1, "text"
	if is(1, "(") && is(2, "format") && is(4, ")") {
		format, i = strings.ToLower(toks[3]), 5
	}
	if !is(i, "materialized") || !is(i+1, "view") {
		return "", "", false, nil
	}
	i += 2
	if i >= len(toks) || len(toks) > i+1 {
		pos := len(text)
		if i+1 < len(toks) {
			pos = starts[i+1]
		}
		return "", "", true, pgerr.New(pgerr.SyntaxError, "syntax error in EXPLAIN: expected EXPLAIN [(FORMAT TEXT|JSON)] MATERIALIZED VIEW view_name").At(text, pos)
	}
	if format != "text" && format != "json" {
		return "", "", true, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN format %s is not supported", format).At(text, starts[3])
	}
	return identName(toks[i]), format, true, nil
}

// TypeNameNode parses text, a type's name as format_type prints it
// (`integer[]`, `public.mood`), into a TypeName node.
func TypeNameNode(text string) (*pg_query.Node, error) {
	if err := checkText(text, "type name"); err != nil {
		return nil, err
	}
	tree, err := parseTree("SELECT NULL::" + text)
	if err == nil && len(tree.Stmts) == 1 {
		if sel := tree.Stmts[0].Stmt.GetSelectStmt(); sel != nil && len(sel.TargetList) == 1 {
			if tc := sel.TargetList[0].GetResTarget().GetVal().GetTypeCast(); tc != nil && tc.TypeName != nil {
				tc.TypeName.Location = -1 // not in the statement's text
				return &pg_query.Node{Node: &pg_query.Node_TypeName{TypeName: tc.TypeName}}, nil
			}
		}
	}
	return nil, pgerr.New(pgerr.SyntaxError, "invalid type name %q", text)
}
