package sql

import (
	"errors"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// functionCast is PostgreSQL's function-style cast: a call of one
// argument that names a type and no function (int4(x), float8(1),
// timestamptz('…')) is the explicit cast x::type, when the cast exists.
// err is the failed resolution, which stands unless it is 42883 and the
// cast applies.
func functionCast(name string, es, pre []expr.Expr, err error) (expr.Expr, bool) {
	var pe *pgerr.Error
	if len(es) != 1 || len(pre) != 0 || !errors.As(err, &pe) || pe.Code != pgerr.UndefinedFunction {
		return nil, false
	}
	t, terr := value.TypeFromName(name, nil)
	if terr != nil {
		return nil, false
	}
	out, cerr := expr.Coerce(es[0], t, true)
	if cerr != nil {
		return nil, false
	}
	return out, true
}
