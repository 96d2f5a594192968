package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// namedParams are the parameter names of the functions that accept
// arguments by name; an argument not given takes the parameter's
// default: 0, or namedDefault's.
var namedParams = map[string][]string{"make_interval": expr.MakeIntervalParams}

func init() {
	for _, f := range []string{"exists", "match", "query", "query_array", "query_first"} {
		namedParams["jsonb_path_"+f] = jsonPathParams
		namedParams["jsonb_path_"+f+"_tz"] = jsonPathParams
	}
	for _, p := range []string{"json", "jsonb"} {
		for _, f := range []string{"_each", "_each_text", "_array_elements", "_array_elements_text"} {
			namedParams[p+f] = []string{"from_json"}
		}
	}
	namedParams["json_populate_record"] = jsonPopulateParams
	namedParams["json_populate_recordset"] = jsonPopulateParams
}

// jsonPopulateParams are the parameters of json_populate_record(set);
// use_json_as_text defaults to false (the jsonb variants have no names).
var jsonPopulateParams = []string{"base", "from_json", "use_json_as_text"}

// jsonPathParams are the parameters of the jsonb_path_ functions; vars
// defaults to '{}', silent to false.
var jsonPathParams = []string{"target", "path", "vars", "silent"}

// namedDefault is the default of a parameter not given by name.
func namedDefault(param string, loc int32) *pg_query.Node {
	switch param {
	case "vars":
		return pg_query.MakeAConstStrNode("{}", loc)
	case "silent", "use_json_as_text":
		return &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: false}}, Location: loc}}}
	}
	return pg_query.MakeAConstIntNode(0, loc)
}

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
	if !ok && (expr.IsSRF(name) || expr.IsJSONRecordFunc(name)) {
		// Functions whose parameters PostgreSQL does not name.
		return nil, b.stmt.errf(loc, pgerr.UndefinedFunction, "function %s(…) with named arguments does not exist", name).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
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
			out[i] = namedDefault(params[i], loc)
		}
	}
	return out, nil
}

// refuseTZJSONPath refuses a _tz jsonpath function in a view: its
// comparisons of datetimes with and without a time zone depend on the
// session's time zone.
func (b *binder) refuseTZJSONPath(name string, loc int32) error {
	return b.refuse(loc, "%s() depends on the session's time zone and cannot be maintained in a view", name).
		WithHint("call %s(), which does not compare datetimes with and without a time zone", strings.TrimSuffix(name, "_tz"))
}
