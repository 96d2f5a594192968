package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// settingFunc binds current_setting(name [, missing_ok]) and
// set_config(name, value, is_local): ad hoc they read and change the
// settings of the session that runs the statement; a view, which no
// session runs, refuses them (0A000), as does a column's default. ok is
// false for other functions and other numbers of arguments.
func (b *binder) settingFunc(name string, es []expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	if name == "pg_client_encoding" && len(es) == 0 && !b.forView && b.stmtClock != nil {
		// The session's client_encoding, which it may set (to SQL_ASCII);
		// a view or a default, which no session runs, keeps UTF8.
		arg := &expr.Const{V: value.NewText(value.Text, "client_encoding"), T: value.TextType}
		return &expr.SettingCall{C: b.stmtClock, Args: []expr.Expr{arg}}, true, nil
	}
	var params []value.Type
	switch {
	case name == "current_setting" && len(es) == 1:
		params = []value.Type{value.TextType}
	case name == "current_setting" && len(es) == 2:
		params = []value.Type{value.TextType, value.BoolType}
	case name == "set_config" && len(es) == 3:
		params = []value.Type{value.TextType, value.TextType, value.BoolType}
	case name == "xml_is_well_formed" && len(es) == 1:
		params = []value.Type{value.TextType}
	default:
		return nil, false, nil
	}
	if b.forView {
		return nil, true, b.refuse(loc, "%s() depends on the session's settings and cannot be maintained in a view", name).
			WithHint("compute the value when the row is written and store it in a column")
	}
	if b.stmtClock == nil {
		return nil, true, b.refuse(loc, "%s() is supported in queries and data changes only", name)
	}
	args := make([]expr.Expr, len(es))
	for i, a := range es {
		if args[i], err = b.coerce(a, params[i], loc); err != nil {
			return nil, true, err
		}
	}
	if name == "xml_is_well_formed" {
		return &expr.XMLWellFormedCall{C: b.stmtClock, Arg: args[0]}, true, nil
	}
	return &expr.SettingCall{C: b.stmtClock, Set: name == "set_config", Args: args}, true, nil
}

// xmlOption returns out, the cast of e to t, checked against the session's
// xmloption when it reads a string as xml in an ad-hoc statement
// (expr.XMLOptionCheck); a view's and a default's casts read content.
func (b *binder) xmlOption(e expr.Expr, t value.Type, out expr.Expr) expr.Expr {
	if t.Kind != value.XML || b.stmtClock == nil || b.forView {
		return out
	}
	if k := e.Type().Kind; k != value.Unknown && !k.IsString() {
		return out
	}
	return &expr.XMLOptionCheck{C: b.stmtClock, E: out}
}
