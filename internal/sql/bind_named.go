package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// namedParams are the parameter names of the functions that accept
// arguments by name; an argument not given takes the parameter's
// default, 0.
var namedParams = map[string][]string{"make_interval": expr.MakeIntervalParams}

// namedArgs puts the arguments of a call that names some of them
// (make_interval(1, days => 3)) in the order of the function's
// parameters, the ones not given as 0. A call without names is returned
// as it is.
func (b *binder) namedArgs(name string, args []*pg_query.Node, loc int32) ([]*pg_query.Node, error) {
	named := false
	for _, a := range args {
		named = named || a.GetNamedArgExpr() != nil
	}
	if !named {
		return args, nil
	}
	params, ok := namedParams[name]
	if !ok {
		return nil, b.refuse(loc, "named arguments are not supported for %s", name).
			WithHint("pass the arguments by position")
	}
	out := make([]*pg_query.Node, len(params))
	for i, a := range args {
		na := a.GetNamedArgExpr()
		if na == nil {
			if i >= len(out) {
				break
			}
			out[i] = a
			continue
		}
		j := -1
		for k, p := range params {
			if strings.EqualFold(p, na.Name) {
				j = k
			}
		}
		if j < 0 || out[j] != nil {
			return nil, b.stmt.errf(loc, pgerr.UndefinedFunction, "function %s(…, %s => …) does not exist", name, na.Name).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		out[j] = na.Arg
	}
	for i := range out {
		if out[i] == nil {
			out[i] = pg_query.MakeAConstIntNode(0, loc)
		}
	}
	return out, nil
}
