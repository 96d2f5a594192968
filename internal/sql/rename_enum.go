package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// ALTER TYPE … RENAME TO and RENAME VALUE of an enum keep the statements
// and expressions that name it as text: PostgreSQL's follow the type and
// its labels by oid, these are written again. A type's references are
// its type names (casts, columns' types); a label's are the string
// constants the binder reads as that label, which only binding can tell
// from other strings: the engine picks them (pick) and checks the result
// by binding it again.

// typeNamesKey reports whether names, a type name as written or as
// QualifyNames leaves it, may name the type keyed key.
func typeNamesKey(names []*pg_query.Node, key string) bool {
	return callNamesKey(names, key)
}

// RenameTypeNames returns st with the type names that may name the type
// keyed old naming new (its new key) instead, and how many there are;
// st itself is left as it is.
func RenameTypeNames(st *Stmt, old, new string) (*Stmt, int) {
	if st.Node == nil {
		return st, 0
	}
	node := proto.Clone(st.Node).(*pg_query.Node)
	bareNew := new[strings.IndexByte(new, '.')+1:]
	n := 0
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		tn, ok := m.Interface().(*pg_query.TypeName)
		if !ok || !typeNamesKey(tn.Names, old) {
			return
		}
		n++
		last := tn.Names[len(tn.Names)-1].GetString_()
		if len(tn.Names) == 1 && last.Sval == old {
			last.Sval = new
		} else {
			last.Sval = bareNew
		}
	})
	if n == 0 {
		return st, 0
	}
	out := *st
	out.Node, out.Refs = node, nil
	return &out, n
}

// RenameStringConsts returns st with the string constants equal to from
// that pick chooses, by their order in st, made to; and how many
// constants equal from (pick nil chooses none). st itself is left as it
// is.
func RenameStringConsts(st *Stmt, from, to string, pick func(i int) bool) (*Stmt, int) {
	if st.Node == nil {
		return st, 0
	}
	node := proto.Clone(st.Node).(*pg_query.Node)
	n, changed := 0, false
	for _, c := range stringConsts(node.ProtoReflect(), from) {
		if pick != nil && pick(n) {
			c.Sval = to
			changed = true
		}
		n++
	}
	if !changed {
		return st, n
	}
	out := *st
	out.Node, out.Refs = node, nil
	return &out, n
}

// stringConsts are the string constants equal to s within m, in the
// order of their places in the text.
func stringConsts(m protoreflect.Message, s string) []*pg_query.String {
	type found struct {
		loc int32
		c   *pg_query.String
	}
	var out []found
	walk(m, func(m protoreflect.Message) {
		if c, ok := m.Interface().(*pg_query.A_Const); ok && c.GetSval() != nil && c.GetSval().Sval == s {
			out = append(out, found{c.Location, c.GetSval()})
		}
	})
	slices.SortStableFunc(out, func(a, b found) int { return int(a.loc - b.loc) })
	cs := make([]*pg_query.String, len(out))
	for i, f := range out {
		cs[i] = f.c
	}
	return cs
}

// RenameTypeInText returns text, an expression (expression true) or
// statements, with the type names that may name the type keyed old
// renamed to its new key, and how many it renamed. The rest of the text
// is kept as written.
func RenameTypeInText(text string, expression bool, old, new string) (string, int, error) {
	src, off, locs, err := renameLocations(text, expression, func(m protoreflect.Message) int32 {
		if tn, ok := m.Interface().(*pg_query.TypeName); ok && typeNamesKey(tn.Names, old) {
			return tn.Location
		}
		return -1
	})
	if err != nil {
		return "", 0, err
	}
	name := quoteQualified(new)
	out := src
	for i := len(locs) - 1; i >= 0; i-- {
		from, to, ok := wholeName(out, locs[i])
		if !ok {
			return "", 0, errNoTypeName
		}
		out = out[:from] + name + out[to:]
	}
	return out[off:], len(locs), nil
}

// RenameStringInText returns text, an expression (expression true) or
// statements, with its string constants equal to from written as to, and
// how many it rewrote. A constant written other than as a plain quoted
// string (E'…', $$…$$, U&'…') is not rewritten: the error says so.
func RenameStringInText(text string, expression bool, from, to string) (string, int, error) {
	src, off, locs, err := renameLocations(text, expression, func(m protoreflect.Message) int32 {
		if c, ok := m.Interface().(*pg_query.A_Const); ok && c.GetSval() != nil && c.GetSval().Sval == from {
			return c.Location
		}
		return -1
	})
	if err != nil {
		return "", 0, err
	}
	slices.Sort(locs)
	lit := "'" + strings.ReplaceAll(to, "'", "''") + "'"
	out := src
	for i := len(locs) - 1; i >= 0; i-- {
		end, ok := quotedEnd(out, locs[i])
		if !ok {
			return "", 0, errNoLiteral
		}
		out = out[:locs[i]] + lit + out[end:]
	}
	return out[off:], len(locs), nil
}

// renameLocations parses text, an expression (expression true) or
// statements, and returns the text parsed (src, the expression at off),
// and the sorted offsets at that loc reports (-1 for a node it skips).
func renameLocations(text string, expression bool, loc func(protoreflect.Message) int32) (src string, off int, locs []int, err error) {
	src = text
	if expression {
		src, off = "SELECT "+text, len("SELECT ")
	}
	tree, err := pg_query.Parse(src)
	if err != nil {
		return "", 0, nil, err
	}
	for _, rs := range tree.Stmts {
		walk(rs.ProtoReflect(), func(m protoreflect.Message) {
			if at := loc(m); at >= 0 {
				locs = append(locs, int(at))
			}
		})
	}
	slices.Sort(locs)
	return src, off, locs, nil
}

// quoteQualified quotes a name that may carry its schema ("s.t").
func quoteQualified(name string) string {
	if schema, bare, ok := strings.Cut(name, "."); ok {
		return expr.QuoteIdent(schema) + "." + expr.QuoteIdent(bare)
	}
	return expr.QuoteIdent(name)
}

// wholeName returns the span of the dotted name that starts at offset at
// of text, its schema included.
func wholeName(text string, at int) (from, to int, ok bool) {
	from = at
	for from < len(text) && isSpace(text[from]) {
		from++
	}
	_, to, ok = lastNamePart(text, at)
	return from, to, ok && from < to
}

// quotedEnd returns the offset just past the plain quoted string ('…',
// with ” for a quote) that starts at offset at of text.
func quotedEnd(text string, at int) (int, bool) {
	if at >= len(text) || text[at] != '\'' {
		return 0, false
	}
	for i := at + 1; i < len(text); i++ {
		if text[i] != '\'' {
			continue
		}
		if i+1 < len(text) && text[i+1] == '\'' {
			i++
			continue
		}
		return i + 1, true
	}
	return 0, false
}

var (
	errNoTypeName = pgerr.New(pgerr.FeatureNotSupported, "a type's name could not be found in its text")
	errNoLiteral  = pgerr.New(pgerr.FeatureNotSupported, "an enum label is written other than as a plain quoted string")
)
