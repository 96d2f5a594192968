package plan

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// jsonString is a json aggregate's call as written (json_agg(v),
// jsonb_object_agg(k, v)), which the binder keeps as array_agg of each
// value's json under a function SQL cannot name: EXPLAIN and the
// NOTICEs show the user's call. ok is false for any other call.
func (f *WinFunc) jsonString() (string, bool) {
	perValue, _, ok := expr.JSONAggFuncs(f.Name)
	c := f.Call
	if !ok || c == nil || c.Distinct || len(c.OrderBy) > 0 {
		return "", false
	}
	wrap, ok := c.Arg.(*expr.Func)
	if !ok || wrap.Def == nil || wrap.Def.Name != perValue {
		return "", false
	}
	args := make([]string, len(wrap.Args))
	for i, a := range wrap.Args {
		args[i] = a.String()
	}
	out := f.Name + "(" + strings.Join(args, ", ") + ")"
	if c.Filter != nil {
		out += " FILTER (WHERE " + c.Filter.String() + ")"
	}
	return out, true
}
