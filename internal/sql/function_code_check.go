package sql

// The CREATE-time check of a SQL function that runs as code (one that
// changes data or returns void): PostgreSQL's SQL validator parses and
// analyses every statement of the body, so an unknown table or column is
// CREATE FUNCTION's error, positioned in its text, unless
// check_function_bodies is off.

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// CheckCodeBody binds each statement of f's body, when f is a SQL
// function that runs as code, as PostgreSQL analyses it at CREATE: its
// parameters are $n, their names or the function's name qualifying them,
// a column of the same name in scope first. A body whose statements are
// not located in f's text, that reads a field of a parameter or calls a
// function of f's name, is not checked; nor is one of a polymorphic
// function (PostgreSQL checks its syntax only).
func CheckCodeBody(cat Catalog, f *Function) error {
	if f.code == nil || f.code.stmts == nil || f.Polymorphic() || f.callsByName() {
		return nil
	}
	types := make([]value.Type, len(f.Params))
	for i, p := range f.Params {
		types[i] = p.Type
	}
	for i, st := range f.code.stmts {
		switch {
		case st.GetSelectStmt() != nil, st.GetInsertStmt() != nil, st.GetUpdateStmt() != nil,
			st.GetDeleteStmt() != nil, st.GetMergeStmt() != nil:
		default:
			if i == len(f.code.stmts)-1 && len(f.Cols) > 0 {
				return f.mismatch(finalStatement)
			}
			continue // utility statements are analysed when they run
		}
		n, err := bodyTempNames(cat, proto.Clone(st).(*pg_query.Node))
		if err != nil {
			return err
		}
		vars, ok, err := f.paramRefs(n)
		if err != nil || !ok {
			return err
		}
		s := &Stmt{SQL: f.SQL, Node: n, DeclaredTypes: types, Vars: vars, VarConflict: VarConflictUseColumn}
		bd, _, err := BindPrepared(cat, s)
		if err != nil {
			return err
		}
		if i < len(f.code.stmts)-1 || len(f.Cols) == 0 {
			continue
		}
		got, ok := boundColumns(bd)
		switch {
		case !ok:
			return f.mismatch(finalStatement)
		case len(f.Cols) > 1 || !isRowType(f.Cols[0].Type):
			// A row type's result may be the row's fields or the row: a
			// call reads it as either.
			return f.checkResult(f.Cols, got)
		}
	}
	return nil
}

// finalStatement is the detail of a function with a result whose final
// statement returns no rows.
const finalStatement = "Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING."

// boundColumns are the columns a query or RETURNING gives; ok is false
// for a statement without RETURNING.
func boundColumns(bd Bound) (cols []plan.Column, ok bool) {
	switch bd := bd.(type) {
	case *Select:
		return bd.Plan.Columns(), true
	case *Insert:
		return bd.RetCols, bd.Returning != nil
	case *Update:
		return bd.RetCols, bd.Returning != nil
	case *Delete:
		return bd.RetCols, bd.Returning != nil
	}
	return nil, false
}

// callsByName reports whether f's statements call a function of f's
// name: PostgreSQL checks them once f exists, and so its call of itself
// binds, where here f does not exist yet.
func (f *Function) callsByName() bool {
	fname := f.Name[strings.LastIndexByte(f.Name, '.')+1:]
	found := false
	for _, st := range f.code.stmts {
		walkNodes(st.ProtoReflect(), func(n *pg_query.Node) {
			if c := n.GetFuncCall(); c != nil && len(c.Funcname) > 0 && c.Funcname[len(c.Funcname)-1].GetString_().GetSval() == fname {
				found = true
			}
		})
	}
	return found
}

// bodyTempNames is a body's statement n with the names of the session's
// temporary relations as their keys, as the session's own statements
// are bound: a body finds them first, as PostgreSQL searches pg_temp
// first.
func bodyTempNames(cat Catalog, n *pg_query.Node) (*pg_query.Node, error) {
	tc, ok := cat.(TempCatalog)
	if !ok {
		return n, nil
	}
	st, err := RenameRelations(&Stmt{Node: n}, func(schema, name string) (string, bool, error) {
		if schema != "" && schema != "pg_temp" {
			return "", false, nil
		}
		k, ok := tc.TempRelation(schema, name)
		return k, ok, nil
	})
	if err != nil {
		return nil, err
	}
	return st.Node, nil
}

// paramRefs makes the names of f's parameters in n parameters $n,
// keeping each name by location for the binder; ok is false when n
// reads a parameter's field, which this form cannot keep. A $n beyond
// f's parameters is PostgreSQL's 42P02.
func (f *Function) paramRefs(n *pg_query.Node) (vars map[int32][]string, ok bool, err error) {
	fname := f.Name[strings.LastIndexByte(f.Name, '.')+1:]
	param := func(name string) int32 {
		for i, p := range f.Params {
			if p.Name != "" && p.Name == name {
				return int32(i + 1)
			}
		}
		return 0
	}
	ok = true
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		if pr := n.GetParamRef(); pr != nil && int(pr.Number) > len(f.Params) && err == nil {
			err = pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", pr.Number).At(f.SQL, int(pr.Location))
		}
		cr := n.GetColumnRef()
		if cr == nil || !ok {
			return
		}
		names := make([]string, len(cr.Fields))
		for i, fd := range cr.Fields {
			s := fd.GetString_()
			if s == nil {
				return // t.*
			}
			names[i] = s.Sval
		}
		num := int32(0)
		switch {
		case len(names) == 1:
			num = param(names[0])
		case len(names) == 2 && names[0] == fname && param(names[1]) > 0:
			num = param(names[1])
		case param(names[0]) > 0, len(names) == 3 && names[0] == fname && param(names[1]) > 0:
			ok = false // a parameter's field
			return
		}
		if num == 0 {
			return
		}
		if vars == nil {
			vars = map[int32][]string{}
		}
		vars[cr.Location] = names
		n.Node = &pg_query.Node_ParamRef{ParamRef: &pg_query.ParamRef{Number: num, Location: cr.Location}}
	})
	return vars, ok, err
}
