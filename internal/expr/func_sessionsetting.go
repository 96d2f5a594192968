package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// SessionFuncCall is a call of a function that reads or sets the
// session's settings (FuncDef.Session), as pg_trgm's threshold operators
// do; it keeps no state and is never part of a view.
type SessionFuncCall struct {
	C    *StmtClock
	Def  *FuncDef
	Args []Expr
}

var _ Expr = (*SessionFuncCall)(nil)

func (c *SessionFuncCall) Type() value.Type { return c.Def.Result }
func (c *SessionFuncCall) Volatile() bool   { return true }
func (*SessionFuncCall) expr()              {}

func (c *SessionFuncCall) String() string {
	if c.Def.Print != nil {
		return c.Def.Print(c.Args)
	}
	return c.Def.Name + "(" + list(c.Args) + ")"
}

// Eval implements Expr.
func (c *SessionFuncCall) Eval(row value.Row) (value.Value, error) {
	args := make([]value.Value, len(c.Args))
	for i, a := range c.Args {
		v, err := a.Eval(row)
		if err != nil {
			return value.Value{}, err
		}
		if v.IsNull() && c.Def.Strict {
			return value.Null, nil
		}
		args[i] = v
	}
	if c.C == nil || c.C.Settings == nil {
		return value.Value{}, pgerr.New(pgerr.FeatureNotSupported, "settings are read in a session's statements only")
	}
	return c.Def.Session(c.C.Settings, args)
}
