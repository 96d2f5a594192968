package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// A PL/pgSQL body's statements name its variables as columns are named;
// the interpreter makes each such name a parameter and keeps the name
// (Stmt.Vars). A name that a column in scope answers too is, as in
// PostgreSQL, ambiguous (42702) under #variable_conflict error, the
// default, and the column under use_column; use_variable keeps no names.

// VarConflict is a body's #variable_conflict.
type VarConflict int

const (
	VarConflictError VarConflict = iota
	VarConflictUseVariable
	VarConflictUseColumn
)

// plVar binds the parameter at loc that replaced the variable names when
// a column answers names too: the column, or the ambiguity's error; ok is
// false when no column does.
func (b *binder) plVar(s *scope, names []string, loc int32) (e expr.Expr, ok bool, err error) {
	if !b.columnInScope(s, names) {
		return nil, false, nil
	}
	if b.stmt.VarConflict == VarConflictUseColumn {
		e, err := b.bindColumnRef(s, columnRef(loc, names...).GetColumnRef())
		return e, true, err
	}
	return nil, true, b.stmt.errf(loc, pgerr.AmbiguousColumn, "column reference %q is ambiguous", strings.Join(names, ".")).
		WithDetail("It could refer to either a PL/pgSQL variable or a table column.")
}

// columnInScope reports whether name or qual.name is a column of s or of
// a query around it.
func (b *binder) columnInScope(s *scope, names []string) bool {
	var qual, name string
	switch len(names) {
	case 1:
		name = names[0]
	case 2:
		qual, name = names[0], names[1]
	default:
		return false
	}
	levels := []*scope{s}
	levels = append(levels, b.outers...)
	for i, l := range levels {
		if l == nil {
			continue
		}
		for _, outer := range []bool{false, true} {
			if outer && i > 0 {
				break
			}
			if e, err := b.resolveLevel(l, qual, name, -1, outer); e != nil || err != nil {
				return true
			}
		}
	}
	return false
}
