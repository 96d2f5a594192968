package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// seqFuncs are the functions whose first argument names a sequence.
var seqFuncs = map[string]bool{"nextval": true, "currval": true, "setval": true}

// RenameSequenceArgs returns st with each constant that names a sequence
// (the first argument of nextval, currval and setval, a string cast to
// regclass) written to instead when names says it names the sequence
// renamed; changed is false when none does. PostgreSQL's view holds the
// sequence by oid, so that a view calling nextval('s') shows and calls
// it under its new name. st itself is left as it is.
func RenameSequenceArgs(st *Stmt, names func(lit string) bool, to string) (_ *Stmt, changed bool) {
	if st.Node == nil {
		return st, false
	}
	out := *st
	out.Node = proto.Clone(st.Node).(*pg_query.Node)
	rewrite := func(n *pg_query.Node) {
		if tc := n.GetTypeCast(); tc != nil && isRegclass(tc.TypeName) {
			n = tc.Arg
		}
		if c := n.GetAConst(); c != nil && c.GetSval() != nil && names(c.GetSval().Sval) {
			c.GetSval().Sval = to
			changed = true
		}
	}
	walkNodes(out.Node.ProtoReflect(), func(n *pg_query.Node) {
		if fc := n.GetFuncCall(); fc != nil && len(fc.Args) > 0 {
			if name := fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval(); seqFuncs[name] {
				rewrite(fc.Args[0])
			}
		}
		if tc := n.GetTypeCast(); tc != nil && isRegclass(tc.TypeName) {
			rewrite(n)
		}
	})
	return &out, changed
}

// isRegclass reports whether t names regclass.
func isRegclass(t *pg_query.TypeName) bool {
	if t == nil || len(t.Names) == 0 || len(t.ArrayBounds) > 0 {
		return false
	}
	return strings.EqualFold(t.Names[len(t.Names)-1].GetString_().GetSval(), "regclass")
}
