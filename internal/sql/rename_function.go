package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ALTER FUNCTION … RENAME TO renames the calls of the function in the
// statements and expressions the engine keeps as text: a view's, a
// default's, a check's. PostgreSQL's follow the function by its oid;
// here each call that names the function is given its new name, and the
// engine binds the result again to check that it calls what it called.
// A function is named by its key: "f" in public, "s.f" in schema s.

// callNamesKey reports whether names, a call's function name as written
// or as QualifyNames leaves it, may name the function keyed key.
func callNamesKey(names []*pg_query.Node, key string) bool {
	bare := key[strings.IndexByte(key, '.')+1:]
	switch len(names) {
	case 1:
		n := names[0].GetString_().GetSval()
		return n == key || n == bare
	case 2:
		s, n := names[0].GetString_().GetSval(), names[1].GetString_().GetSval()
		return n == bare && (s+"."+n == key || s == "public" && n == key)
	}
	return false
}

// RenameFunctionCalls returns st with the calls that may name the
// function keyed old named new (its new key) instead, and how many such
// calls there are; st itself is left as it is. pick, when not nil, says
// which of them, by their order in st, to rename.
func RenameFunctionCalls(st *Stmt, old, new string, pick func(i int) bool) (*Stmt, int) {
	if st.Node == nil {
		return st, 0
	}
	node := proto.Clone(st.Node).(*pg_query.Node)
	bareNew := new[strings.IndexByte(new, '.')+1:]
	n := 0
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		fc, ok := m.Interface().(*pg_query.FuncCall)
		if !ok || !callNamesKey(fc.Funcname, old) {
			return
		}
		n++
		if pick != nil && !pick(n-1) {
			return
		}
		last := fc.Funcname[len(fc.Funcname)-1].GetString_()
		if len(fc.Funcname) == 1 && last.Sval == old {
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

// RenameFunctionInText returns text, an expression (expression true) or
// statements, with the calls that may name the function keyed old
// renamed to its new key (qualified when it is another schema's than
// public's), and how many it renamed. The rest of the text is kept as
// written.
func RenameFunctionInText(text string, expression bool, old, new string) (string, int, error) {
	src, off, locs, err := renameLocations(text, expression, func(m protoreflect.Message) int32 {
		if fc, ok := m.Interface().(*pg_query.FuncCall); ok && callNamesKey(fc.Funcname, old) {
			return fc.Location
		}
		return -1
	})
	if err != nil {
		return "", 0, err
	}
	// The whole name is written anew: SET SCHEMA changes its schema.
	name := quoteQualified(new)
	out := src
	for i := len(locs) - 1; i >= 0; i-- {
		_, to, ok := lastNamePart(out, locs[i])
		if !ok {
			return "", 0, errNoName
		}
		from := locs[i]
		for from < to && isSpace(out[from]) {
			from++
		}
		out = out[:from] + name + out[to:]
	}
	return out[off:], len(locs), nil
}

// errNoName is the error for a call whose name the text does not hold
// where the parser put it.
var errNoName = pgerr.New(pgerr.FeatureNotSupported, "a function call's name could not be found in its text")

// lastNamePart returns the span of the last part of the dotted name that
// starts at offset at of text.
func lastNamePart(text string, at int) (from, to int, ok bool) {
	i := at
	for {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		start := i
		switch {
		case i < len(text) && text[i] == '"':
			i++
			for i < len(text) {
				if text[i] == '"' {
					if i+1 < len(text) && text[i+1] == '"' {
						i += 2
						continue
					}
					break
				}
				i++
			}
			if i >= len(text) {
				return 0, 0, false
			}
			i++
		case i < len(text) && isIdentStart(text[i]):
			for i < len(text) && isIdentCont(text[i]) {
				i++
			}
		default:
			return 0, 0, false
		}
		end := i
		j := i
		for j < len(text) && isSpace(text[j]) {
			j++
		}
		if j < len(text) && text[j] == '.' {
			i = j + 1
			continue
		}
		return start, end, true
	}
}
