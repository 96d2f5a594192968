package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// CheckFunctionBody binds every statement of f's body against cat as a
// call with arguments of its parameters' types binds it, and checks that
// the last returns f's columns (by assignment casts): CREATE FUNCTION's
// errors, with positions in the statement, as PostgreSQL reports them
// while check_function_bodies is on.
func CheckFunctionBody(cat Catalog, f *Function) error {
	_, err := checkBody(cat, f, nil)
	return err
}

// FunctionBodyRefs binds f's body as CheckFunctionBody does, recording
// in log the table and view column each of its column references
// resolves to (information_schema.routine_column_usage).
func FunctionBodyRefs(cat Catalog, f *Function, log *RefLog) error {
	_, err := checkBody(cat, f, log)
	return err
}

// bodyColumns returns the columns of the last statement of f's body.
func bodyColumns(cat Catalog, f *Function) ([]plan.Column, error) {
	return checkBody(cat, f, nil)
}

// checkBody is CheckFunctionBody, which returns the last statement's
// columns.
func checkBody(cat Catalog, f *Function, refs *RefLog) ([]plan.Column, error) {
	// A clock of its own, so that the body's session values (current_user,
	// current_setting) bind as a call's would.
	b := &binder{cat: cat, stmt: &Stmt{SQL: f.SQL, Refs: refs}, stmtClock: &expr.StmtClock{}}
	c := &userCall{fn: f, args: make([]*pg_query.Node, len(f.Params)), volatile: make([]bool, len(f.Params)), loc: -1, cat: cat}
	for i := range f.Params {
		c.args[i] = &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true, Location: -1}}}
	}
	body, want := f.Body, f.Cols
	if f.RowOfFields {
		// The statement written returns the fields of the type.
		body, want = f.Body.FromClause[0].GetRangeSubselect().Subquery.GetSelectStmt(), f.RowFields()
	}
	stmts := append(append([]*pg_query.Node(nil), f.Earlier...), selectNode(body))
	var last []plan.Column
	for i, st := range stmts {
		body := proto.Clone(st.GetSelectStmt()).(*pg_query.SelectStmt)
		if len(body.TargetList) == 0 && len(body.ValuesLists) == 0 && body.Op <= pg_query.SetOperation_SETOP_NONE {
			if i < len(stmts)-1 {
				continue
			}
			// SELECT without columns, which bodyRel.* cannot read.
			if len(want) == 1 {
				return nil, f.mismatch("Final statement must return exactly one column.")
			}
			return nil, f.mismatch("Final statement returns too few columns.")
		}
		q := &pg_query.SelectStmt{
			TargetList: []*pg_query.Node{resTarget(&pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
				Fields: []*pg_query.Node{pg_query.MakeStrNode(bodyRel), {Node: &pg_query.Node_AStar{AStar: &pg_query.A_Star{}}}}, Location: -1}}}, "")},
			FromClause: c.bodyFrom(body, nil),
			Op:         pg_query.SetOperation_SETOP_NONE,
		}
		p, err := b.bindSelect(q)
		if err != nil {
			return nil, err
		}
		if i < len(stmts)-1 {
			continue
		}
		got := p.Columns()
		last = got
		if err := f.checkResult(want, got); err != nil {
			return nil, err
		}
	}
	return last, nil
}

// mismatch is the error of a body whose final statement does not return
// f's result.
func (f *Function) mismatch(detail string, args ...any) error {
	return pgerr.New(CodeInvalidFunctionDef, "return type mismatch in function declared to return %s", f.Result()).
		WithDetail(detail, args...)
}

// checkResult checks that a body's final statement's columns got give
// f's columns want by assignment casts.
func (f *Function) checkResult(want, got []plan.Column) error {
	if f.AnyRecord {
		return nil // any row is a record; a call's list checks it
	}
	if len(want) == 1 && !f.RowOfFields && !f.recordList {
		switch {
		case len(got) != 1:
			return f.mismatch("Final statement must return exactly one column.")
		case !assignable(got[0].Type.Kind, want[0].Type.Kind):
			return f.mismatch("Actual return type is %s.", got[0].Type)
		}
		return nil
	}
	for j, col := range want {
		switch {
		case j >= len(got):
			return f.mismatch("Final statement returns too few columns.")
		case !assignable(got[j].Type.Kind, col.Type.Kind):
			return f.mismatch("Final statement returns %s instead of %s at column %d.", got[j].Type, col.Type, j+1)
		}
	}
	if len(got) > len(want) {
		return f.mismatch("Final statement returns too many columns.")
	}
	return nil
}

// CallsItself reports whether f's body calls f, directly or through the
// SQL functions of cat it calls: inlining it would never end. Calls are
// followed by name, every overload of a name, so that the answer does not
// depend on argument types.
func CallsItself(cat Catalog, f *Function) bool {
	fc, _ := cat.(FunctionCatalog)
	seen := map[string]bool{}
	var calls func(g *Function) bool
	calls = func(g *Function) bool {
		found := false
		visit := func(n *pg_query.Node) {
			call := n.GetFuncCall()
			if call == nil || found || len(call.Funcname) == 0 {
				return
			}
			name := call.Funcname[len(call.Funcname)-1].GetString_().GetSval()
			if name == f.Name {
				found = true
				return
			}
			if seen[name] || fc == nil {
				return
			}
			seen[name] = true
			for _, h := range fc.Functions(name) {
				if calls(h) {
					found = true
					return
				}
			}
		}
		walkNodes(g.Body.ProtoReflect(), visit)
		for _, st := range g.Earlier {
			walkNodes(st.ProtoReflect(), visit)
		}
		for _, p := range g.Params {
			if p.Default != nil {
				walkNodes(p.Default.ProtoReflect(), visit)
			}
		}
		return found
	}
	return calls(f)
}
