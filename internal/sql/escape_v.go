package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// The parser is PostgreSQL 17's, whose escape strings read \v as a
// vertical tab; PostgreSQL 15's take the v literally, as any other
// character after a backslash that is not an escape (E'\v' is 'v').
// fixEscapeV gives the constants of such strings PostgreSQL 15's value.

// fixEscapeV sets, in tree (parsed from text), the value of each string
// constant written as an escape string holding \v to PostgreSQL 15's.
func fixEscapeV(text string, tree *pg_query.ParseResult) {
	if tree == nil || !strings.Contains(text, `\v`) {
		return
	}
	fixes := map[int32]string{} // by the constant's offset
	l := lexer{s: text}
	for {
		kind, s, e := l.next()
		if kind == tkEOF {
			break
		}
		if kind != tkString || text[s] != 'e' && text[s] != 'E' {
			continue
		}
		if lit, ok := escapeVAsV(text[s:e]); ok {
			if v, ok := stringConst(lit); ok {
				fixes[int32(s)] = v
			}
		}
	}
	if len(fixes) == 0 {
		return
	}
	for _, st := range tree.Stmts {
		walkNodesPruned(st.ProtoReflect(), func(n *pg_query.Node) bool {
			if c := n.GetAConst(); c != nil && c.GetSval() != nil {
				if v, ok := fixes[c.Location]; ok {
					c.GetSval().Sval = v
				}
			}
			return true
		})
	}
}

// escapeVAsV rewrites the escape string literal lit with each \v as v;
// ok is false when it holds none.
func escapeVAsV(lit string) (string, bool) {
	var b strings.Builder
	changed := false
	for i := 0; i < len(lit); i++ {
		if lit[i] == '\\' && i+1 < len(lit) {
			if lit[i+1] == 'v' {
				b.WriteByte('v')
				changed = true
			} else {
				b.WriteString(lit[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(lit[i])
	}
	return b.String(), changed
}

// stringConst is the value of the string literal lit, as the parser
// reads it.
func stringConst(lit string) (string, bool) {
	tree, err := parseTreePG17("SELECT " + lit)
	if err != nil || len(tree.Stmts) != 1 {
		return "", false
	}
	tl := tree.Stmts[0].Stmt.GetSelectStmt().GetTargetList()
	if len(tl) != 1 {
		return "", false
	}
	c := tl[0].GetResTarget().GetVal().GetAConst()
	if c == nil || c.GetSval() == nil {
		return "", false
	}
	return c.GetSval().Sval, true
}
