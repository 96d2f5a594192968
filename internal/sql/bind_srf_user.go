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
// with an overload that returns no set is left alone: its calls stay
// where they are, and a set-returning one is refused there. A function
// returning rows of several columns (RETURNS TABLE, OUT parameters,
// SETOF a composite type) is marked when it is the name's only function:
// its call becomes ROW(…) of its columns, as json_each's does.

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
			found = markExtSRF(cat, f, name) || found
			return
		}
		for _, fn := range fns {
			if !fn.Set || len(fn.Cols) == 0 || fn.ColPoly != nil || fn.AnyRecord ||
				(len(fn.Cols) > 1 || fn.RowFields() != nil) && len(fns) > 1 {
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

// userSRFRecord returns, for a marked call of a function returning rows
// of several columns, their names and, for SETOF a composite type, the
// type's name (the record the call gives is of that type); nil names for
// another call.
func userSRFRecord(cat Catalog, f *pg_query.FuncCall) ([]string, *pg_query.TypeName) {
	fc, ok := cat.(FunctionCatalog)
	if !ok || !isUserSRF(f) {
		return nil, nil
	}
	fns := fc.Functions(f.Funcname[1].GetString_().GetSval())
	if len(fns) != 1 {
		return nil, nil
	}
	fn := fns[0]
	var typ *pg_query.TypeName
	cols := fn.Cols
	if rf := fn.RowFields(); rf != nil {
		cols = rf
		if len(fn.ColTypes) == 1 {
			typ = fn.ColTypes[0]
		}
	} else if len(cols) < 2 {
		return nil, nil
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names, typ
}
