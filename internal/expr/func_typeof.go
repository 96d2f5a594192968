package expr

import "github.com/deltaview/deltaview/internal/value"

// Typeof is pg_typeof(x) as the binder builds it: a call with x and the
// name of x's type, known when the call is bound, returning the name. It
// keeps x as an argument so that a grouped query refuses an ungrouped
// column in it, as PostgreSQL does. Not in the catalog: the binder makes
// the call.
var Typeof = &FuncDef{Name: "pg_typeof", Params: []value.Kind{value.Unknown, value.Text}, Result: value.TextType,
	Eval: func(a []value.Value) (value.Value, error) { return a[1], nil }}
