package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
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
// how many it rewrote. A constant written as an escape string (E'…') or
// dollar-quoted ($$…$$, $t$…$t$) is written again as a plain quoted
// string; one in Unicode escapes (U&'…') is not rewritten: the error
// says so.
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
		end, ok := literalEnd(out, locs[i])
		if !ok {
			return "", 0, errNoLiteral
		}
		out = out[:locs[i]] + lit + out[end:]
	}
	return out[off:], len(locs), nil
}

// RenameArrayLabelInText returns text, an expression (expression true)
// or statements, with the one-dimensional array literals ('{a,b}') that
// hold an element from holding to instead, and how many it rewrote.
func RenameArrayLabelInText(text string, expression bool, from, to string) (string, int, error) {
	rewrite := func(lit string) (string, bool) {
		if !strings.HasPrefix(strings.TrimSpace(lit), "{") || strings.Count(lit, "{") != 1 {
			return "", false
		}
		v, err := value.Parse(lit, value.ArrayType(value.Text))
		if err != nil {
			return "", false
		}
		elems, found := slices.Clone(v.Elems()), false
		for i, e := range elems {
			if !e.IsNull() && e.Str() == from {
				elems[i], found = value.NewText(value.Text, to), true
			}
		}
		return value.NewArray(value.ArrayOf(value.Text), elems).String(), found
	}
	src, off, locs, err := renameLocations(text, expression, func(m protoreflect.Message) int32 {
		if c, ok := m.Interface().(*pg_query.A_Const); ok && c.GetSval() != nil {
			if _, ok := rewrite(c.GetSval().Sval); ok {
				return c.Location
			}
		}
		return -1
	})
	if err != nil {
		return "", 0, err
	}
	out := src
	for i := len(locs) - 1; i >= 0; i-- {
		end, ok := literalEnd(out, locs[i])
		if !ok {
			return "", 0, errNoLiteral
		}
		body, err := unquoteLiteral(out[locs[i]:end])
		if err != nil {
			return "", 0, err
		}
		lit, _ := rewrite(body)
		out = out[:locs[i]] + "'" + strings.ReplaceAll(lit, "'", "''") + "'" + out[end:]
	}
	return out[off:], len(locs), nil
}

// unquoteLiteral is the value of a string constant's text, as the
// parser reads it.
func unquoteLiteral(lit string) (string, error) {
	tree, err := pg_query.Parse("SELECT " + lit)
	if err != nil {
		return "", err
	}
	if len(tree.Stmts) == 1 {
		if sel := tree.Stmts[0].Stmt.GetSelectStmt(); sel != nil && len(sel.TargetList) == 1 {
			if c := sel.TargetList[0].GetResTarget().GetVal().GetAConst(); c != nil && c.GetSval() != nil {
				return c.GetSval().Sval, nil
			}
		}
	}
	return "", errNoLiteral
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

// literalEnd returns the offset just past the string constant that
// starts at offset at of text: plain quoted, an escape string (E'…',
// where a backslash escapes the next byte) or dollar-quoted.
func literalEnd(text string, at int) (int, bool) {
	switch {
	case at+1 < len(text) && (text[at] == 'E' || text[at] == 'e') && text[at+1] == '\'':
		for i := at + 2; i < len(text); i++ {
			switch {
			case text[i] == '\\':
				i++
			case text[i] != '\'':
			case i+1 < len(text) && text[i+1] == '\'':
				i++
			default:
				return i + 1, true
			}
		}
		return 0, false
	case at < len(text) && text[at] == '$':
		n := strings.IndexByte(text[at+1:], '$')
		if n < 0 {
			return 0, false
		}
		tag := text[at : at+n+2]
		end := strings.Index(text[at+len(tag):], tag)
		if end < 0 {
			return 0, false
		}
		return at + len(tag) + end + len(tag), true
	}
	return quotedEnd(text, at)
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
	errNoLiteral  = pgerr.New(pgerr.FeatureNotSupported, "an enum label is written in Unicode escapes (U&'…')")
)
