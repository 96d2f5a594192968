package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// backendFunc binds pg_backend_pid() and the advisory lock functions: ad
// hoc they act on the session that runs the statement; a view refuses
// them (0A000), as does a column's default. The key is a bigint or two
// integers, as PostgreSQL's overloads take; another type is 42883. ok is
// false for other functions.
func (b *binder) backendFunc(name string, es []expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	arity, ok := expr.BackendFuncs[name]
	if !ok {
		return nil, false, nil
	}
	want := value.Int4Type
	if len(es) == 1 {
		want = value.Int8Type
	}
	if t, ok := expr.BackendParam[name]; ok {
		want = t
	}
	fits := false
	for _, n := range arity {
		fits = fits || n == len(es)
	}
	for _, a := range es {
		switch k := a.Type().Kind; {
		case k == want.Kind && want.Kind == value.Xid8:
		case want.Kind == value.Xid8:
			fits = k == value.Unknown && fits
		case k == value.Unknown, k == value.Int2, k == value.Int4, k == value.Int8 && want.Kind == value.Int8:
		default:
			fits = false
		}
	}
	if !fits {
		ts := make([]string, len(es))
		for i, a := range es {
			ts[i] = a.Type().String()
			if a.Type().Kind == value.Unknown {
				ts[i] = "unknown"
			}
		}
		return nil, true, b.stmt.errf(loc, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if b.forView {
		return nil, true, b.refuse(loc, "%s() acts on the session and cannot be maintained in a view", name).
			WithHint("call it in a statement of its own")
	}
	if b.stmtClock == nil {
		return nil, true, b.refuse(loc, "%s() is supported in queries and data changes only", name)
	}
	args := make([]expr.Expr, len(es))
	for i, a := range es {
		if args[i], err = b.coerce(a, want, loc); err != nil {
			return nil, true, err
		}
	}
	return &expr.BackendCall{C: b.stmtClock, Fn: name, Args: args}, true, nil
}
