package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var (
	_ Expr = (*Cmp)(nil)
	_ Expr = (*InList)(nil)
)

// CmpOp is a comparison operator.
type CmpOp uint8

// The comparison operators.
const (
	EQ CmpOp = iota
	NE
	LT
	LE
	GT
	GE
)

var cmpNames = [...]string{EQ: "=", NE: "<>", LT: "<", LE: "<=", GT: ">", GE: ">="}

func (op CmpOp) String() string {
	if int(op) < len(cmpNames) {
		return cmpNames[op]
	}
	return "?"
}

// holds reports whether the comparison holds for c = Compare(l, r).
func (op CmpOp) holds(c int) bool {
	switch op {
	case EQ:
		return c == 0
	case NE:
		return c != 0
	case LT:
		return c < 0
	case LE:
		return c <= 0
	case GT:
		return c > 0
	case GE:
		return c >= 0
	}
	return false
}

// Cmp is L op R, NULL if either side is NULL. The binder has cast both
// sides to the type ResolveCompare chose; values compare with
// value.Compare, so NaN equals NaN and sorts above every number, and
// char(n) ignores trailing spaces, as in PostgreSQL.
type Cmp struct {
	Op   CmpOp
	L, R Expr
	// Check is set when L and R are records whose fields differ in type.
	Check *RecordCheck
}

func (c *Cmp) Type() value.Type { return value.BoolType }
func (c *Cmp) Volatile() bool   { return c.L.Volatile() || c.R.Volatile() }
func (*Cmp) expr()              {}
func (c *Cmp) String() string {
	return operand(c.L) + " " + c.Op.String() + " " + operand(c.R)
}

func (c *Cmp) Eval(row value.Row) (value.Value, error) {
	l, err := c.L.Eval(row)
	if err != nil {
		return value.Null, err
	}
	r, err := c.R.Eval(row)
	if err != nil {
		return value.Null, err
	}
	if l.IsNull() || r.IsNull() {
		return value.Null, nil
	}
	if err := c.Check.Check(l, r); err != nil {
		return value.Null, err
	}
	n, err := compareValues(l, r)
	if err != nil {
		return value.Null, err
	}
	return boolValue(c.Op.holds(n)), nil
}

// compareValues compares two non-NULL values. Values of one kind compare
// directly; values of different kinds, which a well-bound expression does
// not produce, are first cast to their common comparison type.
func compareValues(a, b value.Value) (int, error) {
	if a.Kind() == b.Kind() {
		return value.Compare(a, b), nil
	}
	t, err := ResolveCompare(value.Type{Kind: a.Kind(), Mod: -1}, value.Type{Kind: b.Kind(), Mod: -1})
	if err != nil {
		return 0, err
	}
	if a, err = value.Cast(a, t, false); err != nil {
		return 0, err
	}
	if b, err = value.Cast(b, t, false); err != nil {
		return 0, err
	}
	if a.Kind() != b.Kind() {
		return 0, pgerr.New(pgerr.Internal, "cannot compare %s with %s", a.Kind(), b.Kind())
	}
	return value.Compare(a, b), nil
}

// InList is E IN (List…), or E NOT IN (List…) when Not: TRUE if E equals
// an element; otherwise NULL if E or any element is NULL; otherwise FALSE.
// NOT IN negates that three-valued result. Elements are evaluated in order
// until one equals E; a NULL E evaluates no element.
type InList struct {
	E    Expr
	List []Expr
	Not  bool
	// Checks are the record checks of E against each element; nil when
	// none is needed.
	Checks []*RecordCheck
}

func (in *InList) Type() value.Type { return value.BoolType }
func (in *InList) Volatile() bool   { return in.E.Volatile() || anyVolatile(in.List) }
func (*InList) expr()               {}

func (in *InList) String() string {
	op := " IN ("
	if in.Not {
		op = " NOT IN ("
	}
	return operand(in.E) + op + list(in.List) + ")"
}

func (in *InList) Eval(row value.Row) (value.Value, error) {
	x, err := in.E.Eval(row)
	if err != nil || x.IsNull() {
		return value.Null, err
	}
	null := false
	for i, e := range in.List {
		v, err := e.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if v.IsNull() {
			null = true
			continue
		}
		if in.Checks != nil {
			if err := in.Checks[i].Check(x, v); err != nil {
				return value.Null, err
			}
		}
		c, err := compareValues(x, v)
		if err != nil {
			return value.Null, err
		}
		if c == 0 {
			return boolValue(!in.Not), nil
		}
	}
	if null {
		return value.Null, nil
	}
	return boolValue(in.Not), nil
}
