package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// windowCountType checks the type of the integer argument of ntile,
// nth_value, lag and lead (count), which PostgreSQL declares integer:
// smallint and an untyped literal convert to it implicitly, any other
// type finds no function, 42883 naming the call's argument types.
func (b *binder) windowCountType(s *scope, f *pg_query.FuncCall, count expr.Expr) error {
	switch count.Type().Kind {
	case value.Int2, value.Int4, value.Unknown:
		return nil
	}
	ts := make([]value.Type, len(f.Args))
	for i, a := range f.Args {
		// Only for the message: an argument that does not bind shows as
		// unknown, the count's own type is known.
		ts[i] = value.UnknownType
		if e, err := b.bindExpr(s, a); err == nil {
			ts[i] = e.Type()
		}
	}
	return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s does not exist", CallSignature(opName(f.Funcname), ts)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}
