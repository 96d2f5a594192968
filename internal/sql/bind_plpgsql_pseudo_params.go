package sql

// The pseudo-types PL/pgSQL's validator refuses as parameters.

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// plpgsqlPseudoParams refuses a parameter, of any mode, of a pseudo-type
// other than record and the polymorphic ones (0A000), as PostgreSQL's
// PL/pgSQL validator does, check_function_bodies on or off. It runs
// before the parameters are read so that a trigger function's own
// parameter of type trigger gets this error, not the one of a trigger
// function with arguments, as in PostgreSQL; a VARIADIC one is left to
// their reading, which refuses a non-array first.
func (b *binder) plpgsqlPseudoParams(cf *pg_query.CreateFunctionStmt) error {
	for _, n := range cf.Parameters {
		p := n.GetFunctionParameter()
		if p == nil || p.ArgType == nil || p.Mode == pg_query.FunctionParameterMode_FUNC_PARAM_VARIADIC {
			continue
		}
		_, t, poly, err := b.paramType(p.ArgType)
		if err != nil {
			return err
		}
		if poly == PolyNone && (t.Kind == value.Void || t.Kind == value.Cstring || t.Kind.IsValueless()) {
			return pgerr.New(pgerr.FeatureNotSupported, "PL/pgSQL functions cannot accept type %s", t)
		}
	}
	return nil
}
