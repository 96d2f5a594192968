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

// XMLOptionCheck is a cast of a string to xml in an ad-hoc statement: the
// cast reads the string as content, and under the session's SET xmloption
// = document the value must also be a document (2200M), as PostgreSQL's
// xml input reads it.
type XMLOptionCheck struct {
	C *StmtClock
	E Expr // the cast
}

var _ Expr = (*XMLOptionCheck)(nil)

func (c *XMLOptionCheck) Type() value.Type { return c.E.Type() }
func (c *XMLOptionCheck) Volatile() bool   { return true }
func (*XMLOptionCheck) expr()              {}
func (c *XMLOptionCheck) String() string   { return c.E.String() }

// Eval implements Expr.
func (c *XMLOptionCheck) Eval(row value.Row) (value.Value, error) {
	v, err := c.E.Eval(row)
	if err != nil || v.IsNull() || c.C == nil || c.C.Settings == nil {
		return v, err
	}
	opt, _, err := c.C.Settings.Setting("xmloption", false)
	if err != nil {
		return value.Value{}, err
	}
	if opt == "document" && !value.XMLWellFormed(v.Str(), true) {
		return value.Null, pgerr.New(pgerr.InvalidXMLDocument, "invalid XML document")
	}
	return v, nil
}
