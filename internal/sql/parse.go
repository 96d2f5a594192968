package sql

import (
	"errors"
	"regexp"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Stmt is one parsed statement and the text it came from. Positions in
// errors about it are offsets into SQL.
type Stmt struct {
	SQL  string
	Node *pg_query.Node
	// Subscribe is set for SUBSCRIBE [TO] name, which is not PostgreSQL
	// grammar and so has no Node.
	Subscribe string
}

// errf returns an error positioned at the 0-based byte offset loc of the
// statement (unpositioned when loc < 0).
func (s *Stmt) errf(loc int32, code, format string, args ...any) *pgerr.Error {
	return pgerr.New(code, format, args...).At(s.SQL, int(loc))
}

var subscribeRE = regexp.MustCompile(`(?is)^\s*subscribe\s+(?:to\s+)?("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)\s*;?\s*$`)

// Split splits a script into statements at top-level semicolons, without
// parsing them, so that a syntax error in one statement does not stop the
// ones before it. Each statement keeps its leading comments; pieces that
// hold only whitespace are dropped.
func Split(script string) ([]string, error) {
	res, err := pg_query.Scan(script)
	if err != nil {
		return nil, translateParseError(err, script)
	}
	var out []string
	start := 0
	add := func(end int) {
		if p := strings.TrimSpace(script[start:end]); p != "" {
			out = append(out, p)
		}
	}
	for _, t := range res.Tokens {
		if t.Token == pg_query.Token_ASCII_59 {
			add(int(t.Start))
			start = int(t.End)
		}
	}
	add(len(script))
	return out, nil
}

// Parse parses the text of one statement. It returns nil, nil for text that
// holds only comments.
func Parse(text string) (*Stmt, error) {
	if m := subscribeRE.FindStringSubmatch(text); m != nil {
		return &Stmt{SQL: text, Subscribe: identName(m[1])}, nil
	}
	tree, err := pg_query.Parse(text)
	if err != nil {
		return nil, translateParseError(err, text)
	}
	switch len(tree.Stmts) {
	case 0:
		return nil, nil
	case 1:
		return &Stmt{SQL: text, Node: tree.Stmts[0].Stmt}, nil
	}
	return nil, pgerr.New(pgerr.SyntaxError, "cannot parse several statements at once")
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
		return e
	}
	return &pgerr.Error{Code: pgerr.SyntaxError, Message: err.Error()}
}
