package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// sessionFuncCall binds a call of a function that reads or sets the
// session's settings (pg_trgm's threshold operators, set_limit): ad hoc
// it runs with the statement's session; a view, which no session runs,
// refuses it (0A000), as does a column's default.
func (b *binder) sessionFuncCall(def *expr.FuncDef, args []expr.Expr, loc int32) (expr.Expr, error) {
	if b.forView {
		return nil, b.refuse(loc, "%s() depends on the session's settings and cannot be maintained in a view", def.Name).
			WithHint("compare the similarity itself with a constant: similarity(a, b) >= 0.3")
	}
	if b.stmtClock == nil {
		return nil, b.refuse(loc, "%s() is supported in queries and data changes only", def.Name)
	}
	return &expr.SessionFuncCall{C: b.stmtClock, Def: def, Args: args}, nil
}

// extensionType resolves a type of an installed extension.
func (b *binder) extensionType(names []string) (value.Type, bool) {
	ec, ok := b.cat.(ExtensionTypeCatalog)
	if !ok || len(names) != 1 && !(len(names) == 2 && names[0] == "public") {
		return value.Type{}, false
	}
	return ec.ExtensionType(names[len(names)-1])
}
