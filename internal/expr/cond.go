package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

var (
	_ Expr = (*Case)(nil)
	_ Expr = (*Coalesce)(nil)
	_ Expr = (*NullIf)(nil)
	_ Expr = (*MinMax)(nil)
)

// When is one WHEN Cond THEN Result arm of a Case.
type When struct {
	Cond, Result Expr
}

// Case is a searched CASE (the binder rewrites CASE x WHEN v … into
// x = v conditions). It evaluates conditions in order and only the result
// of the first that is TRUE, or Else (NULL when nil), so
// CASE WHEN x = 0 THEN 0 ELSE 1/x END never divides by zero. Results have
// been coerced to T.
type Case struct {
	Whens []When
	Else  Expr
	T     value.Type
}

func (c *Case) Type() value.Type { return c.T }
func (*Case) expr()              {}

func (c *Case) Volatile() bool {
	for _, w := range c.Whens {
		if w.Cond.Volatile() || w.Result.Volatile() {
			return true
		}
	}
	return c.Else != nil && c.Else.Volatile()
}

func (c *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range c.Whens {
		b.WriteString(" WHEN " + w.Cond.String() + " THEN " + w.Result.String())
	}
	if c.Else != nil {
		b.WriteString(" ELSE " + c.Else.String())
	}
	b.WriteString(" END")
	return b.String()
}

func (c *Case) Eval(row value.Row) (value.Value, error) {
	for _, w := range c.Whens {
		v, err := w.Cond.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if truth(v) == 1 {
			return w.Result.Eval(row)
		}
	}
	if c.Else == nil {
		return value.Null, nil
	}
	return c.Else.Eval(row)
}

// Coalesce is COALESCE(Args…): the first non-NULL argument, evaluating no
// argument after it. Arguments have been coerced to T.
type Coalesce struct {
	Args []Expr
	T    value.Type
}

func (c *Coalesce) Type() value.Type { return c.T }
func (c *Coalesce) Volatile() bool   { return anyVolatile(c.Args) }
func (*Coalesce) expr()              {}
func (c *Coalesce) String() string   { return "COALESCE(" + list(c.Args) + ")" }

func (c *Coalesce) Eval(row value.Row) (value.Value, error) {
	for _, e := range c.Args {
		v, err := e.Eval(row)
		if err != nil || !v.IsNull() {
			return v, err
		}
	}
	return value.Null, nil
}

// NullIf is NULLIF(L, R): NULL if L = R, else L. Both sides have been
// cast to the type the comparison resolved to; the result has L's type.
type NullIf struct{ L, R Expr }

func (n *NullIf) Type() value.Type { return n.L.Type() }
func (n *NullIf) Volatile() bool   { return n.L.Volatile() || n.R.Volatile() }
func (*NullIf) expr()              {}
func (n *NullIf) String() string   { return "NULLIF(" + n.L.String() + ", " + n.R.String() + ")" }

func (n *NullIf) Eval(row value.Row) (value.Value, error) {
	l, err := n.L.Eval(row)
	if err != nil {
		return value.Null, err
	}
	r, err := n.R.Eval(row)
	if err != nil {
		return value.Null, err
	}
	if l.IsNull() || r.IsNull() {
		return l, nil
	}
	c, err := compareValues(l, r)
	if err != nil {
		return value.Null, err
	}
	if c == 0 {
		return value.Null, nil
	}
	return l, nil
}

// MinMax is GREATEST(Args…), or LEAST(Args…) when Least: the largest
// (smallest) non-NULL argument, NULL only if all are NULL. Arguments have
// been coerced to T.
type MinMax struct {
	Args  []Expr
	T     value.Type
	Least bool
}

func (m *MinMax) Type() value.Type { return m.T }
func (m *MinMax) Volatile() bool   { return anyVolatile(m.Args) }
func (*MinMax) expr()              {}

func (m *MinMax) String() string {
	if m.Least {
		return "LEAST(" + list(m.Args) + ")"
	}
	return "GREATEST(" + list(m.Args) + ")"
}

func (m *MinMax) Eval(row value.Row) (value.Value, error) {
	best := value.Null
	for _, e := range m.Args {
		v, err := e.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if v.IsNull() {
			continue
		}
		if best.IsNull() {
			best = v
			continue
		}
		c, err := compareValues(v, best)
		if err != nil {
			return value.Null, err
		}
		if (m.Least && c < 0) || (!m.Least && c > 0) {
			best = v
		}
	}
	return best, nil
}
