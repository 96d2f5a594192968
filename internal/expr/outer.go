package expr

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Outer is a column of an enclosing query read by a subquery: column Idx
// of the query Depth levels up (1: the query the subquery appears in).
// It exists only between binding a subquery and decorrelating it, which
// replaces every Outer by a column of the subquery's domain; evaluating
// one is an error.
type Outer struct {
	Depth int
	Idx   int
	T     value.Type
	Name  string
}

func (o *Outer) Type() value.Type { return o.T }
func (o *Outer) Volatile() bool   { return false }
func (*Outer) expr()              {}

func (o *Outer) String() string {
	name := o.Name
	if name == "" {
		name = "#" + strconv.Itoa(o.Idx)
	}
	return "outer" + strconv.Itoa(o.Depth) + "(" + name + ")"
}

func (o *Outer) Eval(value.Row) (value.Value, error) {
	return value.Null, pgerr.New(pgerr.Internal, "outer reference %s was not decorrelated", o)
}

// HasOuter reports whether e reads a column of an enclosing query.
func HasOuter(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if _, ok := x.(*Outer); ok {
			found = true
		}
		return !found
	})
	return found
}

// Raise fails with an error when evaluated: a scalar subquery's value
// when the subquery returned more than one row (21000), under a CASE that
// evaluates it only then.
type Raise struct {
	Code, Msg string
	T         value.Type
}

func (r *Raise) Type() value.Type { return r.T }
func (r *Raise) Volatile() bool   { return false }
func (*Raise) expr()              {}
func (r *Raise) String() string   { return "error(" + quoteString(r.Msg) + ")" }

func (r *Raise) Eval(value.Row) (value.Value, error) {
	return value.Null, pgerr.New(r.Code, "%s", r.Msg)
}
