package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Indeterminate is an operation that needs a collation (a comparison,
// greatest, least) over operands whose implicit collations conflict: two
// table columns of different ICU collations. PostgreSQL binds it and
// fails when the operation runs on values that are not NULL (42P22);
// Indeterminate keeps no state and does the same: its operands are
// evaluated, and the error is returned unless one is NULL, when E's
// result (NULL, as the operation is strict) is.
type Indeterminate struct {
	E Expr
	// Elems says that E's last operand is an array compared element by
	// element (x = ANY (array)): with no element that is not NULL no
	// comparison runs, and E's result is returned.
	Elems bool
}

var _ Expr = (*Indeterminate)(nil)

func (x *Indeterminate) Type() value.Type { return x.E.Type() }
func (x *Indeterminate) Volatile() bool   { return x.E.Volatile() }
func (*Indeterminate) expr()              {}
func (x *Indeterminate) String() string   { return x.E.String() }

// Eval fails as PostgreSQL's comparison under no collation does.
func (x *Indeterminate) Eval(row value.Row) (value.Value, error) {
	for _, c := range children(x.E) {
		v, err := c.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if v.IsNull() || x.Elems && v.Kind().IsArray() && !anyNotNull(v.Elems()) {
			return x.E.Eval(row)
		}
	}
	return value.Null, pgerr.New("42P22", "could not determine which collation to use for string comparison").
		WithHint("Use the COLLATE clause to set the collation explicitly.")
}

// anyNotNull reports whether one of vs is not NULL.
func anyNotNull(vs []value.Value) bool {
	for _, v := range vs {
		if !v.IsNull() {
			return true
		}
	}
	return false
}

// Children returns e's direct subexpressions in evaluation order.
func Children(e Expr) []Expr { return children(e) }
