package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The jsonpath functions and operators: jsonb_path_exists, _match,
// _query (set-returning), _query_array and _query_first, each with
// optional vars and silent arguments and a _tz form, and the operators @?
// and @@ (silent). The _tz forms may convert between datetimes with and
// without a time zone (in the session's zone, UTC), so they are stable,
// not immutable.

var jsonpathT = value.JSONPath

// jpArgs are a call's evaluated arguments: the document, the path, vars
// (nil for none) and silent.
type jpArgs struct {
	doc    *value.JSONNode
	path   *value.JSONPathExpr
	vars   *value.JSONNode
	silent bool
}

func jpArgsOf(a []value.Value) jpArgs {
	r := jpArgs{doc: a[0].JSONB(), path: a[1].JSONPathOf()}
	if len(a) > 2 {
		r.vars = a[2].JSONB()
	}
	if len(a) > 3 {
		r.silent = a[3].Bool()
	}
	return r
}

// jpRun evaluates a call's path; found is nil when only existence counts.
func (a jpArgs) run(tz bool, found *[]jpItem) (jpStatus, error) {
	return runJSONPath(a.path, a.vars, a.doc, !a.silent, tz, found)
}

// jpParams are the parameter lists with 2, 3 and 4 arguments.
var jpParams = [][]value.Kind{
	kinds(jsonbT, jsonpathT),
	kinds(jsonbT, jsonpathT, jsonbT),
	kinds(jsonbT, jsonpathT, jsonbT, value.Bool),
}

func init() {
	for _, tz := range []bool{false, true} {
		suffix := ""
		if tz {
			suffix = "_tz"
		}
		for _, ps := range jpParams {
			register(&FuncDef{Name: "jsonb_path_exists" + suffix, Volatile: false, Strict: true, Params: ps, Result: value.BoolType,
				Eval: func(a []value.Value) (value.Value, error) { return jpExists(jpArgsOf(a), tz) }})
			register(&FuncDef{Name: "jsonb_path_match" + suffix, Strict: true, Params: ps, Result: value.BoolType,
				Eval: func(a []value.Value) (value.Value, error) { return jpMatch(jpArgsOf(a), tz) }})
			register(&FuncDef{Name: "jsonb_path_query_array" + suffix, Strict: true, Params: ps, Result: value.JSONBType,
				Eval: func(a []value.Value) (value.Value, error) {
					var found []jpItem
					if _, err := jpArgsOf(a).run(tz, &found); err != nil {
						return value.Null, err
					}
					arr := &value.JSONNode{Type: value.JSONArray, Elems: make([]value.JSONNode, len(found))}
					for i, it := range found {
						arr.Elems[i] = *jpJSONB(it)
					}
					return value.NewJSONB(arr), nil
				}})
			register(&FuncDef{Name: "jsonb_path_query_first" + suffix, Strict: true, Params: ps, Result: value.JSONBType,
				Eval: func(a []value.Value) (value.Value, error) {
					var found []jpItem
					if _, err := jpArgsOf(a).run(tz, &found); err != nil || len(found) == 0 {
						return value.Null, err
					}
					return value.NewJSONB(jpJSONB(found[0])), nil
				}})
		}
	}
	op := func(name string, eval func([]value.Value) (value.Value, error)) {
		register(&FuncDef{Name: name, Strict: true, Params: kinds(jsonbT, jsonpathT), Result: value.BoolType, Eval: eval,
			Print: func(args []Expr) string { return operand(args[0]) + " " + name + " " + operand(args[1]) }})
	}
	op("@?", func(a []value.Value) (value.Value, error) {
		args := jpArgsOf(a)
		args.silent = true
		return jpExists(args, false)
	})
	op("@@", func(a []value.Value) (value.Value, error) {
		args := jpArgsOf(a)
		args.silent = true
		return jpMatch(args, false)
	})
}

// IsTZJSONPathFunc reports whether name is one of the _tz jsonpath
// functions, which depend on the session's time zone.
func IsTZJSONPathFunc(name string) bool {
	switch name {
	case "jsonb_path_exists_tz", "jsonb_path_match_tz", "jsonb_path_query_tz", "jsonb_path_query_array_tz", "jsonb_path_query_first_tz":
		return true
	}
	return false
}

func jpExists(a jpArgs, tz bool) (value.Value, error) {
	st, err := a.run(tz, nil)
	if err != nil {
		return value.Null, err
	}
	if st == jpError {
		return value.Null, nil
	}
	return value.NewBool(st == jpOK), nil
}

func jpMatch(a jpArgs, tz bool) (value.Value, error) {
	var found []jpItem
	if _, err := a.run(tz, &found); err != nil {
		return value.Null, err
	}
	if len(found) == 1 {
		switch found[0].kind() {
		case value.JSONBool:
			return value.NewBool(found[0].n.Bool), nil
		case value.JSONNull:
			return value.Null, nil
		}
	}
	if !a.silent {
		return value.Null, pgerr.New(codeSingletonRequired, "single boolean result is expected")
	}
	return value.Null, nil
}

// jpJSONB is an item as a jsonb document: a datetime becomes its ISO
// text.
func jpJSONB(it jpItem) *value.JSONNode {
	if it.n != nil {
		return it.n
	}
	return &value.JSONNode{Type: value.JSONString, Str: jpDatetimeText(it)}
}

// resolveJSONPathSRF types jsonb_path_query(_tz)(target, path [, vars
// [, silent]]): one column of jsonb.
func resolveJSONPathSRF(name string, args []Expr, missing func() error) (*SRF, error) {
	if len(args) < 2 || len(args) > 4 {
		return nil, missing()
	}
	ps := jpParams[len(args)-2]
	cargs := make([]Expr, len(args))
	for i, a := range args {
		if k := a.Type().Kind; k != ps[i] && k != value.Unknown {
			return nil, missing()
		}
		c, err := Coerce(a, plain(ps[i]), false)
		if err != nil {
			return nil, err
		}
		cargs[i] = c
	}
	tz := name == "jsonb_path_query_tz"
	srf := &SRF{Name: name, Args: cargs, Cols: []value.Type{value.JSONBType}}
	srf.Gen = func(a []value.Value, emit func(value.Row) error) error {
		for _, v := range a {
			if v.IsNull() {
				return nil
			}
		}
		var found []jpItem
		if _, err := jpArgsOf(a).run(tz, &found); err != nil {
			return err
		}
		for _, it := range found {
			if err := emit(value.Row{value.NewJSONB(jpJSONB(it))}); err != nil {
				return err
			}
		}
		return nil
	}
	return srf, nil
}

func isJSONPathSRF(name string) bool {
	return name == "jsonb_path_query" || name == "jsonb_path_query_tz"
}
