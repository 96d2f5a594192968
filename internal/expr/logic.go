package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

var (
	_ Expr = (*And)(nil)
	_ Expr = (*Or)(nil)
	_ Expr = (*Not)(nil)
	_ Expr = (*IsNull)(nil)
	_ Expr = (*IsBool)(nil)
	_ Expr = (*IsDistinct)(nil)
)

var (
	vTrue  = value.NewBool(true)
	vFalse = value.NewBool(false)
)

func boolValue(b bool) value.Value {
	if b {
		return vTrue
	}
	return vFalse
}

// truth is a boolean's three-valued state: 1 TRUE, 0 FALSE, -1 UNKNOWN.
func truth(v value.Value) int8 {
	switch {
	case v.IsNull():
		return -1
	case v.Bool():
		return 1
	}
	return 0
}

// And is the conjunction of Args under three-valued logic: FALSE if any
// argument is FALSE, else NULL if any is NULL, else TRUE.
//
// Arguments are evaluated left to right and evaluation stops at the first
// FALSE, so an error a later argument would raise is not raised then.
// PostgreSQL does not promise an order either.
type And struct{ Args []Expr }

func (a *And) Type() value.Type { return value.BoolType }
func (a *And) Volatile() bool   { return anyVolatile(a.Args) }
func (*And) expr()              {}
func (a *And) String() string   { return joinLogic(a.Args, " AND ") }

func (a *And) Eval(row value.Row) (value.Value, error) {
	null := false
	for _, e := range a.Args {
		v, err := e.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if v.IsNull() {
			null = true
		} else if !v.Bool() {
			return vFalse, nil
		}
	}
	if null {
		return value.Null, nil
	}
	return vTrue, nil
}

// Or is the disjunction of Args under three-valued logic: TRUE if any
// argument is TRUE, else NULL if any is NULL, else FALSE. Evaluation stops
// at the first TRUE, as And's stops at the first FALSE.
type Or struct{ Args []Expr }

func (o *Or) Type() value.Type { return value.BoolType }
func (o *Or) Volatile() bool   { return anyVolatile(o.Args) }
func (*Or) expr()              {}
func (o *Or) String() string   { return joinLogic(o.Args, " OR ") }

func (o *Or) Eval(row value.Row) (value.Value, error) {
	null := false
	for _, e := range o.Args {
		v, err := e.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if v.IsNull() {
			null = true
		} else if v.Bool() {
			return vTrue, nil
		}
	}
	if null {
		return value.Null, nil
	}
	return vFalse, nil
}

// joinLogic renders AND/OR arguments, parenthesizing nested AND/OR.
func joinLogic(args []Expr, sep string) string {
	var b strings.Builder
	for i, e := range args {
		if i > 0 {
			b.WriteString(sep)
		}
		switch e.(type) {
		case *And, *Or:
			b.WriteString("(" + e.String() + ")")
		default:
			b.WriteString(e.String())
		}
	}
	return b.String()
}

// Not is NOT E: NULL stays NULL.
type Not struct{ E Expr }

func (n *Not) Type() value.Type { return value.BoolType }
func (n *Not) Volatile() bool   { return n.E.Volatile() }
func (*Not) expr()              {}
func (n *Not) String() string   { return "NOT " + operand(n.E) }

func (n *Not) Eval(row value.Row) (value.Value, error) {
	v, err := n.E.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	return boolValue(!v.Bool()), nil
}

// IsNull is E IS NULL, or E IS NOT NULL when Not; never NULL.
type IsNull struct {
	E   Expr
	Not bool
}

func (n *IsNull) Type() value.Type { return value.BoolType }
func (n *IsNull) Volatile() bool   { return n.E.Volatile() }
func (*IsNull) expr()              {}

func (n *IsNull) String() string {
	if n.Not {
		return operand(n.E) + " IS NOT NULL"
	}
	return operand(n.E) + " IS NULL"
}

func (n *IsNull) Eval(row value.Row) (value.Value, error) {
	v, err := n.E.Eval(row)
	if err != nil {
		return value.Null, err
	}
	return boolValue(v.IsNull() != n.Not), nil
}

// IsBool is E IS [NOT] TRUE / FALSE / UNKNOWN; never NULL. Want is 1 for
// TRUE, 0 for FALSE, -1 for UNKNOWN.
type IsBool struct {
	E    Expr
	Want int8
	Not  bool
}

func (n *IsBool) Type() value.Type { return value.BoolType }
func (n *IsBool) Volatile() bool   { return n.E.Volatile() }
func (*IsBool) expr()              {}

func (n *IsBool) String() string {
	s := operand(n.E) + " IS "
	if n.Not {
		s += "NOT "
	}
	switch n.Want {
	case 1:
		return s + "TRUE"
	case 0:
		return s + "FALSE"
	}
	return s + "UNKNOWN"
}

func (n *IsBool) Eval(row value.Row) (value.Value, error) {
	v, err := n.E.Eval(row)
	if err != nil {
		return value.Null, err
	}
	want := n.Want
	if want != 0 && want != 1 {
		want = -1
	}
	return boolValue((truth(v) == want) != n.Not), nil
}

// IsDistinct is L IS DISTINCT FROM R (L IS NOT DISTINCT FROM R when Not):
// = where two NULLs are equal and a NULL differs from every value; never
// NULL.
type IsDistinct struct {
	L, R Expr
	Not  bool
	// Check is set when L and R are records whose fields differ in type.
	Check *RecordCheck
}

func (d *IsDistinct) Type() value.Type { return value.BoolType }
func (d *IsDistinct) Volatile() bool   { return d.L.Volatile() || d.R.Volatile() }
func (*IsDistinct) expr()              {}

func (d *IsDistinct) String() string {
	if d.Not {
		return operand(d.L) + " IS NOT DISTINCT FROM " + operand(d.R)
	}
	return operand(d.L) + " IS DISTINCT FROM " + operand(d.R)
}

func (d *IsDistinct) Eval(row value.Row) (value.Value, error) {
	l, err := d.L.Eval(row)
	if err != nil {
		return value.Null, err
	}
	r, err := d.R.Eval(row)
	if err != nil {
		return value.Null, err
	}
	var distinct bool
	switch {
	case l.IsNull() || r.IsNull():
		distinct = l.IsNull() != r.IsNull()
	default:
		if err := d.Check.Check(l, r); err != nil {
			return value.Null, err
		}
		c, err := compareValues(l, r)
		if err != nil {
			return value.Null, err
		}
		distinct = c != 0
	}
	return boolValue(distinct != d.Not), nil
}
