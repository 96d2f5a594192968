package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// SQL/JSON syntax read as PostgreSQL 15 reads it. The parser has
// PostgreSQL 17's grammar, in which JSON(…), JSON_OBJECT(…),
// JSON_ARRAY(…), JSON_SCALAR(…), JSON_SERIALIZE(…), JSON_EXISTS(…),
// JSON_QUERY(…), JSON_VALUE(…), their aggregates, JSON_TABLE(…) and
// x IS [NOT] JSON are constructs of their own. PostgreSQL 15 has none of
// them: there these words are ordinary names, so json(x) is a cast to
// json written as a function, json_array(1, 2) a call of a function that
// does not exist (42883), and JSON_OBJECT('a': 1) or x IS JSON a syntax
// error at the first token its grammar cannot take.
//
// A statement whose tree holds such a construct, or that the parser
// rejects, is parsed again with each
// of these words, where it opens a call or follows IS [NOT], renamed to a
// name of the same length that no grammar reserves (json → j$on). What
// the parser then rejects is a syntax error at PostgreSQL 15's position;
// what it accepts is an ordinary call, whose name is put back.

// sqlJSONWords are the words PostgreSQL 16 and 17 made SQL/JSON
// constructs of.
var sqlJSONWords = map[string]bool{
	"json": true, "json_array": true, "json_arrayagg": true, "json_object": true, "json_objectagg": true,
	"json_scalar": true, "json_serialize": true, "json_exists": true, "json_query": true, "json_value": true,
	"json_table": true,
}

// json15Prefix replaces the first four characters (json) of a renamed
// word.
const json15Prefix = "j$on"

// hasSQLJSON reports whether the tree holds a construct of PostgreSQL
// 16's or 17's SQL/JSON syntax.
func hasSQLJSON(tree *pg_query.ParseResult) bool {
	found := false
	for _, st := range tree.Stmts {
		walkNodesPruned(st.ProtoReflect(), func(n *pg_query.Node) bool {
			switch n.Node.(type) {
			case *pg_query.Node_JsonParseExpr, *pg_query.Node_JsonScalarExpr, *pg_query.Node_JsonSerializeExpr,
				*pg_query.Node_JsonObjectConstructor, *pg_query.Node_JsonArrayConstructor,
				*pg_query.Node_JsonArrayQueryConstructor, *pg_query.Node_JsonObjectAgg, *pg_query.Node_JsonArrayAgg,
				*pg_query.Node_JsonIsPredicate, *pg_query.Node_JsonFuncExpr, *pg_query.Node_JsonTable:
				found = true
			}
			return !found
		})
	}
	return found
}

// renameSQLJSON returns text with each SQL/JSON word that opens a call or
// follows IS [NOT] renamed, and whether it renamed any.
func renameSQLJSON(text string) (string, bool) {
	var b []byte
	l := lexer{s: text}
	var prev [2]string // the two words before, lowered; "" for other tokens
	for {
		kind, s, e := l.next()
		if kind == tkEOF {
			break
		}
		if kind == tkComment {
			continue
		}
		word := ""
		if kind == tkWord {
			word = strings.ToLower(text[s:e])
		}
		if sqlJSONWords[word] {
			afterIs := word == "json" && (prev[1] == "is" || prev[1] == "not" && prev[0] == "is")
			if afterIs || opensCall(text, e) {
				if b == nil {
					b = []byte(text)
				}
				copy(b[s:], json15Prefix)
			}
		}
		prev[0], prev[1] = prev[1], word
	}
	if b == nil {
		return text, false
	}
	return string(b), true
}

// opensCall reports whether the next token after offset i is "(".
func opensCall(text string, i int) bool {
	l := lexer{s: text, i: i}
	for {
		kind, s, _ := l.next()
		if kind == tkComment {
			continue
		}
		return kind == tkPunct && text[s] == '('
	}
}

// parseSQLJSON15 parses text, whose tree under PostgreSQL 17's grammar
// holds SQL/JSON syntax, as PostgreSQL 15 would.
func parseSQLJSON15(text string) (*pg_query.ParseResult, error) {
	renamed, ok := renameSQLJSON(text)
	if !ok {
		return nil, nil
	}
	tree, err := parseTreePG17(renamed)
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok && pe.Position > 0 {
			// The token the message quotes is the text's own.
			if i := charOffset(text, pe.Position-1); i >= 0 && strings.HasPrefix(renamed[i:], json15Prefix) {
				pe.Message = strings.Replace(pe.Message, `"`+json15Prefix, `"`+text[i:i+len(json15Prefix)], 1)
			}
		}
		return nil, err
	}
	for _, st := range tree.Stmts {
		restoreSQLJSONNames(st.ProtoReflect())
	}
	return tree, nil
}

// charOffset returns the byte offset of the n-th character (0-based) of
// text, or -1 past its end.
func charOffset(text string, n int) int {
	for i := range text {
		if n == 0 {
			return i
		}
		n--
	}
	return -1
}

// restoreSQLJSONNames puts back the names of the calls renameSQLJSON
// renamed, lowered as PostgreSQL lowers an unquoted name.
func restoreSQLJSONNames(m protoreflect.Message) {
	walkNodes(m, func(n *pg_query.Node) {
		fc := n.GetFuncCall()
		if fc == nil {
			return
		}
		for _, part := range fc.Funcname {
			if s := part.GetString_(); s != nil && strings.HasPrefix(s.Sval, json15Prefix) {
				s.Sval = "json" + s.Sval[len(json15Prefix):]
			}
		}
	})
}
