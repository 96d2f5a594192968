package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// sysInfoFunc binds the system information functions that read the
// session: getpgusername() (current_user), current_query(), and age and
// mxid_age of an xid. Ad hoc they read the session that runs the
// statement; a view refuses them (0A000). ok is false for other
// functions, and for age of another type than xid.
func (b *binder) sysInfoFunc(name string, es []expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	f, known := expr.SysInfoFuncs[name]
	switch {
	case name == "getpgusername" && len(es) == 0:
	case !known:
		return nil, false, nil
	case name == "age" && len(es) == 1 && es[0].Type().Kind == value.Unknown:
		// age(xid) and age(timestamptz) are of different categories: an
		// untyped literal chooses neither, as in PostgreSQL.
		return nil, true, b.stmt.errf(loc, "42725", "function age(unknown) is not unique").
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	case f.Arg == value.Unknown && len(es) != 0, f.Arg != value.Unknown && (len(es) != 1 || es[0].Type().Kind != f.Arg && (name == "age" || es[0].Type().Kind != value.Unknown)):
		return nil, false, nil
	}
	if b.forView {
		return nil, true, b.refuse(loc, "%s() depends on the session and cannot be maintained in a view", name)
	}
	if b.stmtClock == nil {
		return nil, true, b.refuse(loc, "%s() is supported in queries and data changes only", name)
	}
	if name == "getpgusername" {
		return &expr.SessionUser{C: b.stmtClock, Name: "getpgusername()"}, true, nil
	}
	args := make([]expr.Expr, len(es))
	for i, a := range es {
		if args[i], err = b.coerce(a, value.Type{Kind: f.Arg, Mod: -1}, loc); err != nil {
			return nil, true, err
		}
	}
	return &expr.SysInfoCall{C: b.stmtClock, Fn: name, Args: args}, true, nil
}
