// Collation names of statements and texts written again for ALTER COLLATION … RENAME TO and SET SCHEMA.
package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
)

// PostgreSQL's columns, indexes, constraints and views hold a collation
// by oid, so they follow its new name or schema; the statements and
// texts deltaview keeps name it, and are written again. A collation is
// named after COLLATE: in an expression, a column's definition or an
// index's element. match tells whether a name, as written (one or two
// parts), is the collation renamed; to is its name from now on.

// RenameCollations returns st with the collation names that match picks
// naming to instead, and how many there are; st itself is left as it is.
func RenameCollations(st *Stmt, match func(names []string) bool, to []string) (*Stmt, int) {
	if st.Node == nil {
		return st, 0
	}
	node := proto.Clone(st.Node).(*pg_query.Node)
	n := 0
	rename := func(names []*pg_query.Node) []*pg_query.Node {
		if len(names) == 0 || !match(nodeStrings(names)) {
			return names
		}
		n++
		out := make([]*pg_query.Node, len(to))
		for i, s := range to {
			out[i] = pg_query.MakeStrNode(s)
		}
		return out
	}
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg_query.CollateClause:
			x.Collname = rename(x.Collname)
		case *pg_query.IndexElem:
			x.Collation = rename(x.Collation)
		}
	})
	if n == 0 {
		return st, 0
	}
	out := *st
	out.Node, out.Refs = node, nil
	return &out, n
}

// nodeStrings are the strings of a name's nodes.
func nodeStrings(names []*pg_query.Node) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n.GetString_().GetSval()
	}
	return out
}

// RenameCollationInText returns text, statements or an expression (or
// what follows an index's element: " COLLATE c DESC"), with the names
// after COLLATE that match picks written as to, and how many it rewrote.
// The rest of the text is kept as written.
func RenameCollationInText(text string, match func(names []string) bool, to []string) (string, int, error) {
	res, err := pg_query.Scan(text)
	if err != nil {
		return "", 0, err
	}
	type span struct{ from, to int }
	var spans []span
	toks := res.Tokens
	for i := 0; i < len(toks); i++ {
		if toks[i].Token != pg_query.Token_COLLATE {
			continue
		}
		var names []string
		j := i + 1
		for j < len(toks) {
			name, ok := scannedName(text, toks[j])
			if !ok {
				break
			}
			names = append(names, name)
			if j+1 < len(toks) && toks[j+1].Token == pg_query.Token_ASCII_46 {
				j += 2
				continue
			}
			j++
			break
		}
		if len(names) > 0 && match(names) {
			spans = append(spans, span{int(toks[i+1].Start), int(toks[j-1].End)})
		}
		i = j - 1
	}
	quoted := make([]string, len(to))
	for i, s := range to {
		quoted[i] = expr.QuoteIdent(s)
	}
	name := strings.Join(quoted, ".")
	out := text
	for i := len(spans) - 1; i >= 0; i-- {
		out = out[:spans[i].from] + name + out[spans[i].to:]
	}
	return out, len(spans), nil
}

// scannedName is the name a token writes: an identifier, quoted or not,
// or a keyword that is not reserved; ok false for another token.
func scannedName(text string, t *pg_query.ScanToken) (string, bool) {
	s := text[t.Start:t.End]
	switch {
	case t.Token == pg_query.Token_IDENT && strings.HasPrefix(s, `"`):
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`), true
	case t.Token == pg_query.Token_IDENT,
		t.KeywordKind != pg_query.KeywordKind_NO_KEYWORD && t.KeywordKind != pg_query.KeywordKind_RESERVED_KEYWORD:
		return strings.ToLower(s), true
	}
	return "", false
}
