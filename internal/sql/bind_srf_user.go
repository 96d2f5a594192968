package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// A call of a user set-returning function (SQL or PL/pgSQL, RETURNS SETOF
// of a scalar type) in a select list runs as a built-in one does there
// (bind_srf_select.go): a LATERAL call in FROM, several in lockstep. The
// rewrite of the select list knows set-returning functions by name, before
// binding; a user function's calls are marked for it by naming them in
// the schema userSRFMark, which lookupFunctions reads as public. A name
// with an overload that returns no set, or a record, is left alone: its
// calls stay where they are, and a set-returning one is refused there.

// userSRFMark is the schema of the marked calls; no schema has its name.
const userSRFMark = "$srf"

// markUserSRFs marks the calls under n of user set-returning functions;
// it reports whether there were any.
func markUserSRFs(cat Catalog, n *pg_query.Node) bool {
	fc, ok := cat.(FunctionCatalog)
	if !ok {
		return false
	}
	found := false
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		f := n.GetFuncCall()
		if f == nil || f.Over != nil || len(f.Funcname) == 0 || len(f.Funcname) > 2 ||
			len(f.Funcname) == 2 && f.Funcname[0].GetString_().GetSval() != "public" {
			return
		}
		name := f.Funcname[len(f.Funcname)-1].GetString_().GetSval()
		fns := fc.Functions(name)
		if len(fns) == 0 {
			return
		}
		for _, fn := range fns {
			if !fn.Set || len(fn.Cols) != 1 || fn.RowFields() != nil {
				return
			}
		}
		f.Funcname = []*pg_query.Node{pg_query.MakeStrNode(userSRFMark), pg_query.MakeStrNode(name)}
		found = true
	})
	return found
}

// isUserSRF reports whether a call's name is one markUserSRFs marked.
func isUserSRF(f *pg_query.FuncCall) bool {
	return len(f.Funcname) == 2 && f.Funcname[0].GetString_().GetSval() == userSRFMark
}
