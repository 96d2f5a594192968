package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Settings are the settings of the session that runs a statement, which
// current_setting and set_config read and change.
type Settings interface {
	// Setting returns a setting's value; for a name no setting has,
	// 42704, or ok false when missingOK.
	Setting(name string, missingOK bool) (v string, ok bool, err error)
	// SetSetting sets a setting for the session or, local, until its
	// transaction ends, and returns the new value.
	SetSetting(name, v string, local bool) (string, error)
}

// SettingsTable is Settings that lists every setting as the rows of
// pg_settings.
type SettingsTable interface {
	SettingRows() []value.Row
}

// SettingCall is current_setting(name [, missing_ok]) or set_config(name,
// value, is_local) in an ad-hoc statement: it reads or changes the
// settings of the session that runs it, which the statement's clock
// carries. current_setting of NULL is NULL; set_config's NULL name is
// 22004, a NULL value the empty string, a NULL is_local false.
type SettingCall struct {
	C    *StmtClock
	Set  bool // set_config
	Args []Expr
}

var _ Expr = (*SettingCall)(nil)

func (c *SettingCall) Type() value.Type { return value.TextType }
func (c *SettingCall) Volatile() bool   { return true }
func (*SettingCall) expr()              {}

func (c *SettingCall) String() string {
	name := "current_setting"
	if c.Set {
		name = "set_config"
	}
	return name + "(" + list(c.Args) + ")"
}

// Eval implements Expr.
func (c *SettingCall) Eval(row value.Row) (value.Value, error) {
	args := make([]value.Value, len(c.Args))
	for i, a := range c.Args {
		v, err := a.Eval(row)
		if err != nil {
			return value.Value{}, err
		}
		args[i] = v
	}
	if c.C == nil || c.C.Settings == nil {
		return value.Value{}, pgerr.New(pgerr.FeatureNotSupported, "settings are read in a session's statements only")
	}
	if c.Set {
		if args[0].IsNull() {
			return value.Value{}, pgerr.New("22004", "SET requires parameter name")
		}
		v := ""
		if !args[1].IsNull() {
			v = args[1].Str()
		}
		out, err := c.C.Settings.SetSetting(args[0].Str(), v, !args[2].IsNull() && args[2].Bool())
		if err != nil {
			return value.Value{}, err
		}
		return value.NewText(value.Text, out), nil
	}
	for _, a := range args {
		if a.IsNull() {
			return value.Null, nil
		}
	}
	v, ok, err := c.C.Settings.Setting(args[0].Str(), len(args) > 1 && args[1].Bool())
	if err != nil {
		return value.Value{}, err
	}
	if !ok {
		return value.Null, nil
	}
	return value.NewText(value.Text, v), nil
}

// QuoteIdent quotes a name as PostgreSQL's quote_ident does: unless it is
// a lower-case identifier that is no reserved keyword.
func QuoteIdent(s string) string { return quoteIdent(s) }

// FixedSettingCall is a call of def, a function that reads the setting
// def.Reads, with the setting's value fixed at v: a materialized view's
// call, which reads the value the view was created under, as PostgreSQL's
// CREATE MATERIALIZED VIEW computes its rows with it.
func FixedSettingCall(def *FuncDef, v string, args []Expr) Expr {
	s := fixedSetting{name: def.Reads, v: v}
	d := &FuncDef{Name: def.Name, Strict: def.Strict, Params: def.Params, Result: def.Result, Ext: def.Ext, Print: def.Print,
		Eval: func(a []value.Value) (value.Value, error) { return def.Session(s, a) }}
	return &Func{Def: d, Args: args, T: def.Result}
}

// fixedSetting is Settings of one setting, fixed.
type fixedSetting struct{ name, v string }

func (f fixedSetting) Setting(name string, missingOK bool) (string, bool, error) {
	if name == f.name {
		return f.v, true, nil
	}
	if missingOK {
		return "", false, nil
	}
	return "", false, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", name)
}

func (f fixedSetting) SetSetting(name, v string, local bool) (string, error) {
	return "", pgerr.New(pgerr.FeatureNotSupported, "a view cannot set %s", name)
}
