package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bindPLAssign binds a PL/pgSQL assignment to a subscript or a field of
// a variable (Stmt.Assign), as PostgreSQL binds it: like UPDATE's SET
// a[i] = v, over the variable's value before. The result is one column,
// the variable's new value, computed from each row of SELECT v.
func (b *binder) bindPLAssign() (Bound, error) {
	s := b.stmt
	if sel := s.Node.GetSelectStmt(); sel != nil {
		// A literal is read as the type of what it is assigned to, as
		// INSERT … SELECT reads it.
		b.insertSelectList = sel.TargetList
	}
	bd, err := b.bindStmt(s.Node)
	b.insertSelectList = nil
	if err != nil {
		return nil, err
	}
	sel, ok := bd.(*Select)
	if !ok {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in assignment")
	}
	cols := sel.Plan.Columns()
	if len(cols) != 1 {
		return nil, pgerr.New(pgerr.SyntaxError, "assignment source returned %d columns", len(cols))
	}
	base, err := b.bindParam(&pg_query.ParamRef{Number: s.AssignBase, Location: s.Assign.Location})
	if err != nil {
		return nil, err
	}
	t := base.Type()
	assign, err := b.bindAssignSubscripts(&scope{}, s.Assign.Name, t, s.Assign.Indirection, s.Assign.Location)
	if err != nil {
		return nil, err
	}
	var rhs expr.Expr = &expr.Col{Idx: 0, T: cols[0].Type, Name: cols[0].Name}
	if rhs, err = throughText(rhs, assignedType(t, s.Assign.Indirection)); err != nil {
		return nil, err
	}
	v, err := assign(base, rhs, nodeLoc(s.Node, 0))
	if err != nil {
		return nil, err
	}
	return &Select{Plan: &plan.Project{Input: sel.Plan, Exprs: []expr.Expr{v}, Cols: []plan.Column{{Name: s.Assign.Name, Type: t}}}}, nil
}

// Assignable reports whether PostgreSQL converts a value of kind from to
// kind to by an assignment cast. PL/pgSQL converts the others through
// text: the value's output read as the type's input.
func Assignable(from, to value.Kind) bool { return assignable(from, to) }

// assignedType is the type of what an assignment to subscripts ind of a
// value of type t assigns: an element of an array, or the array for a
// slice; t itself otherwise (the assignment checks the rest).
func assignedType(t value.Type, ind []*pg_query.Node) value.Type {
	if !t.Kind.IsArray() {
		return t
	}
	for _, n := range ind {
		if n.GetAIndices().GetIsSlice() {
			return t
		}
	}
	return value.Type{Kind: t.Kind.Elem(), Mod: -1}
}

// throughText converts e to t through text when no assignment cast
// does, as PL/pgSQL's assignment does; e as it is otherwise.
func throughText(e expr.Expr, t value.Type) (expr.Expr, error) {
	from := e.Type().Kind
	if from == value.Unknown || assignable(from, t.Kind) || t.Kind == value.Record || t.Kind == value.JSONB {
		return e, nil
	}
	text, err := expr.Coerce(e, value.TextType, true)
	if err != nil {
		return nil, err
	}
	return expr.Coerce(text, value.Type{Kind: t.Kind, Mod: -1}, true)
}
