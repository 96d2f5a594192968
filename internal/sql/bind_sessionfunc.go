package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// sessionFuncCall binds a call of a function that reads or sets the
// session's settings (pg_trgm's threshold operators, set_limit): ad hoc
// it runs with the statement's session; a view, which no session runs,
// refuses it (0A000), as does a column's default.
func (b *binder) sessionFuncCall(def *expr.FuncDef, args []expr.Expr, loc int32) (expr.Expr, error) {
	if b.forView && def.Reads != "" && !def.Volatile {
		if s := b.viewSettings(); s != nil {
			// A materialized view computes its rows with the setting's
			// value when it is created, as PostgreSQL's does, and keeps
			// that value (REFRESH under another is refused).
			v, _, err := s.Setting(def.Reads, false)
			if err != nil {
				return nil, err
			}
			b.cat.(SettingCapturer).CaptureSetting(def.Reads, v)
			return expr.FixedSettingCall(def, v, args), nil
		}
	}
	if b.forView {
		return nil, b.refuse(loc, "%s() depends on the session's settings and cannot be maintained in a view", def.Name).
			WithHint("compare the similarity itself with a constant: similarity(a, b) >= 0.3")
	}
	if b.stmtClock == nil {
		if b.viewSettings() != nil {
			// A plain view's query, checked when it is created: it is
			// bound again, with the reading statement's clock, where it
			// is read.
			return &expr.SessionFuncCall{C: &expr.StmtClock{}, Def: def, Args: args}, nil
		}
		return nil, b.refuse(loc, "%s() is supported in queries and data changes only", def.Name)
	}
	return &expr.SessionFuncCall{C: b.stmtClock, Def: def, Args: args}, nil
}

// extensionType resolves a type of an installed extension.
func (b *binder) extensionType(names []string) (value.Type, bool) {
	ec, ok := b.cat.(ExtensionTypeCatalog)
	if !ok || len(names) != 1 && !(len(names) == 2 && names[0] == "public") {
		return value.Type{}, false
	}
	return ec.ExtensionType(names[len(names)-1])
}

// SettingCapturer is a Catalog told of each session setting whose value a
// materialized view's query captured (pg_trgm's thresholds), so that the
// view keeps it.
type SettingCapturer interface {
	// SessionSettings are the settings of the session binding the
	// statement, nil when none binds it.
	SessionSettings() expr.Settings
	CaptureSetting(name, value string)
}

// viewSettings are the settings of the session binding a view's query,
// nil when the catalog cannot capture them.
func (b *binder) viewSettings() expr.Settings {
	if sc, ok := b.cat.(SettingCapturer); ok {
		return sc.SessionSettings()
	}
	return nil
}
