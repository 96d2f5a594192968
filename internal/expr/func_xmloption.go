package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// XMLWellFormedCall is xml_is_well_formed(text) in an ad-hoc statement:
// xml_is_well_formed_document or _content as the xmloption setting of the
// session that runs it says, read through the statement's clock.
type XMLWellFormedCall struct {
	C   *StmtClock
	Arg Expr
}

var _ Expr = (*XMLWellFormedCall)(nil)

func (c *XMLWellFormedCall) Type() value.Type { return value.BoolType }
func (c *XMLWellFormedCall) Volatile() bool   { return true }
func (*XMLWellFormedCall) expr()              {}

func (c *XMLWellFormedCall) String() string { return "xml_is_well_formed(" + c.Arg.String() + ")" }

// Eval implements Expr.
func (c *XMLWellFormedCall) Eval(row value.Row) (value.Value, error) {
	v, err := c.Arg.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	if c.C == nil || c.C.Settings == nil {
		return value.Value{}, pgerr.New(pgerr.FeatureNotSupported, "settings are read in a session's statements only")
	}
	opt, _, err := c.C.Settings.Setting("xmloption", false)
	if err != nil {
		return value.Value{}, err
	}
	return value.NewBool(value.XMLWellFormed(textOf(v), opt == "document")), nil
}
