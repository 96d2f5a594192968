package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// columnProjection binds f(x), a call of no function of that name, as the
// field f of the composite x, PostgreSQL's functional notation for a
// column: name(t) is t.name, price(item) is (item).price. As in
// PostgreSQL, a function of the name wins, and the call must be plain:
// one unnamed argument of a composite type, an unqualified name, no
// aggregate decoration (those went elsewhere before the lookup failed).
// ok is false when f is not such a projection; the caller then reports
// the missing function.
func (b *binder) columnProjection(s *scope, f *pg_query.FuncCall) (expr.Expr, bool) {
	if len(f.Funcname) != 1 || len(f.Args) != 1 || f.Args[0].GetNamedArgExpr() != nil {
		return nil, false
	}
	name := f.Funcname[0].GetString_()
	if name == nil {
		return nil, false
	}
	arg, err := b.bindExpr(s, f.Args[0])
	if err != nil || arg.Type().Kind != value.Record || unregisteredFields(arg.Type()) {
		return nil, false
	}
	e, err := b.bindFieldSelect(arg, name.Sval, f.Location)
	if err != nil {
		return nil, false
	}
	return e, true
}
