package expr

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Nodes are used by pointer (&Col{…}); once built they are never modified,
// so a tree may be shared and evaluated concurrently.
var (
	_ Expr = (*Col)(nil)
	_ Expr = (*Const)(nil)
	_ Expr = (*Cast)(nil)
	_ Expr = (*Arith)(nil)
	_ Expr = (*Neg)(nil)
	_ Expr = (*Concat)(nil)
	_ Expr = (*Func)(nil)
)

// Col is a reference to the input row's column Idx.
type Col struct {
	Idx  int
	T    value.Type
	Name string // for String; "#Idx" is printed when empty
}

func (c *Col) Type() value.Type { return c.T }
func (c *Col) Volatile() bool   { return false }
func (*Col) expr()              {}

func (c *Col) Eval(row value.Row) (value.Value, error) {
	if c.Idx < 0 || c.Idx >= len(row) {
		return value.Null, pgerr.New(pgerr.Internal, "column #%d out of range for a row of %d columns", c.Idx, len(row))
	}
	return row[c.Idx], nil
}

func (c *Col) String() string {
	if c.Name == "" {
		return "#" + strconv.Itoa(c.Idx)
	}
	return c.Name
}

// Const is a constant of type T. An untyped string literal has T of kind
// Unknown and a V of kind Text; NULL has V = value.Null.
type Const struct {
	V value.Value
	T value.Type
	// Local is the text of a string literal read as a timestamptz (alone,
	// in a range or multirange, or in an array)
	// without the session's zone (in UTC): a binder reads it again in
	// the zone of the session that runs the statement.
	Local string
	// Order is, for a string literal, the DateStyle field order of the
	// session that bound it, in which the literal reads as a date,
	// timestamp or timestamptz (01/02/03), as PostgreSQL reads it when
	// it parses the statement.
	Order value.DateOrder
}

func (c *Const) Type() value.Type                    { return c.T }
func (c *Const) Volatile() bool                      { return false }
func (*Const) expr()                                 {}
func (c *Const) Eval(value.Row) (value.Value, error) { return c.V, nil }

// String renders the constant as a SQL literal: NULL, true/false, integers
// and numerics plain, text and untyped literals quoted, every other type as
// 'text'::type.
func (c *Const) String() string {
	v := c.V
	if v.IsNull() {
		return "NULL"
	}
	switch v.Kind() {
	case value.Bool:
		if v.Bool() {
			return "true"
		}
		return "false"
	case value.Int2, value.Int4, value.Int8:
		return strconv.FormatInt(v.Int(), 10)
	case value.Numeric:
		if d := v.Decimal(); d != nil && d.Form == apd.Finite {
			return v.String()
		}
	case value.Text:
		if c.T.Kind == value.Text || c.T.Kind == value.Unknown {
			return quoteString(v.Str())
		}
	}
	t := c.T
	if t.Kind == value.Unknown {
		t = value.Type{Kind: v.Kind(), Mod: -1}
	}
	return quoteString(v.String()) + "::" + t.String()
}

// quoteString quotes s as a standard SQL string literal.
func quoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// Cast converts E to type To with value.Cast. A cast from an untyped
// literal (E of kind Unknown) parses the text as To, as PostgreSQL does
// for string literals, whatever Explicit says.
type Cast struct {
	E        Expr
	To       value.Type
	Explicit bool
	// Saturate marks a date cast for a comparison with a timestamp or
	// timestamptz (PostgreSQL's date_lt_timestamp, …): a date past the
	// timestamp range becomes a value beyond every finite timestamp, and
	// short of infinity, instead of an error.
	Saturate bool
}

func (c *Cast) Type() value.Type { return c.To }
func (c *Cast) Volatile() bool   { return c.E.Volatile() }
func (*Cast) expr()              {}
func (c *Cast) String() string   { return operand(c.E) + "::" + c.To.String() }

func (c *Cast) Eval(row value.Row) (value.Value, error) {
	v, err := c.E.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	if v.Kind() == c.To.Kind && c.To.Mod < 0 {
		return v, nil // dropping a modifier never changes a value
	}
	out, err := value.Cast(v, c.To, c.Explicit || c.E.Type().Kind == value.Unknown)
	if err != nil && c.Saturate {
		return value.DateBeyondStamps(v, c.To.Kind), nil
	}
	return out, err
}

// ArithOp is an arithmetic operator.
type ArithOp uint8

// The arithmetic operators.
const (
	OpAdd ArithOp = iota
	OpSub
	OpMul
	OpDiv
	OpMod
)

var arithNames = [...]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpMod: "%"}

func (op ArithOp) String() string {
	if int(op) < len(arithNames) {
		return arithNames[op]
	}
	return "?"
}

// Arith is L op R. The operands have the types ResolveArith chose: one
// numeric kind on both sides, or date ± int4, int4 + date, date - date.
// NULL if either operand is NULL.
type Arith struct {
	Op   ArithOp
	L, R Expr
	T    value.Type
}

func (a *Arith) Type() value.Type { return a.T }
func (a *Arith) Volatile() bool   { return a.L.Volatile() || a.R.Volatile() }
func (*Arith) expr()              {}
func (a *Arith) String() string {
	return operand(a.L) + " " + a.Op.String() + " " + operand(a.R)
}

func (a *Arith) Eval(row value.Row) (value.Value, error) {
	l, err := a.L.Eval(row)
	if err != nil {
		return value.Null, err
	}
	r, err := a.R.Eval(row)
	if err != nil {
		return value.Null, err
	}
	if l.IsNull() || r.IsNull() {
		return value.Null, nil
	}
	switch a.Op {
	case OpAdd:
		if r.Kind() == value.Date && l.Kind() != value.Date {
			return value.Add(r, l) // int4 + date
		}
		return value.Add(l, r)
	case OpSub:
		return value.Sub(l, r)
	case OpMul:
		return value.Mul(l, r)
	case OpDiv:
		return value.Div(l, r)
	case OpMod:
		return value.Mod(l, r)
	}
	return value.Null, pgerr.New(pgerr.Internal, "unknown arithmetic operator %d", a.Op)
}

// Neg is unary minus.
type Neg struct{ E Expr }

func (n *Neg) Type() value.Type { return n.E.Type() }
func (n *Neg) Volatile() bool   { return n.E.Volatile() }
func (*Neg) expr()              {}

func (n *Neg) String() string {
	s := operand(n.E)
	if strings.HasPrefix(s, "-") {
		s = "(" + s + ")" // "--" would start a comment
	}
	return "-" + s
}

func (n *Neg) Eval(row value.Row) (value.Value, error) {
	v, err := n.E.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	return value.Neg(v)
}

// Concat is L || R on strings, a text; NULL if either side is NULL. A
// char(n) operand loses its padding, as its cast to text does; an operand
// of another type contributes its text output.
type Concat struct{ L, R Expr }

func (c *Concat) Type() value.Type { return value.TextType }
func (c *Concat) Volatile() bool   { return c.L.Volatile() || c.R.Volatile() }
func (*Concat) expr()              {}
func (c *Concat) String() string   { return operand(c.L) + " || " + operand(c.R) }

func (c *Concat) Eval(row value.Row) (value.Value, error) {
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
	return value.NewText(value.Text, textOf(l)+textOf(r)), nil
}

// textOf returns a non-NULL value as text: strings as they are, char(n)
// without its trailing spaces, other types in their text output format.
func textOf(v value.Value) string {
	switch v.Kind() {
	case value.Text, value.Varchar, value.CIText:
		return v.Str()
	case value.Char:
		return strings.TrimRight(v.Str(), " ")
	}
	return v.String()
}

// rawText is textOf but keeps char(n) padding, as LIKE and the output
// function see it.
func rawText(v value.Value) string {
	if v.Kind().IsString() {
		return v.Str()
	}
	return v.String()
}

// Func is a call of a catalog function. A Strict function returns NULL
// when any argument is NULL, without being called.
type Func struct {
	Def  *FuncDef
	Args []Expr
	T    value.Type
}

func (f *Func) Type() value.Type { return f.T }
func (*Func) expr()              {}

func (f *Func) Volatile() bool {
	if f.Def != nil && f.Def.Volatile {
		return true
	}
	return anyVolatile(f.Args)
}

func (f *Func) String() string {
	name := "?"
	if f.Def != nil && f.Def.Print != nil {
		return f.Def.Print(f.Args)
	}
	if f.Def != nil {
		name = f.Def.Name
		if f.Def.NoParens && len(f.Args) == 0 {
			return name
		}
	}
	return name + "(" + list(f.Args) + ")"
}

func (f *Func) Eval(row value.Row) (value.Value, error) {
	if f.Def == nil || f.Def.Eval == nil {
		return value.Null, pgerr.New(pgerr.Internal, "function without definition")
	}
	if _, ok := f.Def.params(len(f.Args)); !ok && (f.Def.Params != nil || f.Def.Variadic) {
		return value.Null, pgerr.New(pgerr.Internal, "%s called with %d arguments", f.Def.Name, len(f.Args))
	}
	args := make([]value.Value, len(f.Args))
	null := false
	for i, a := range f.Args {
		v, err := a.Eval(row)
		if err != nil {
			return value.Null, err
		}
		null = null || v.IsNull()
		args[i] = v
	}
	if null && f.Def.Strict {
		return value.Null, nil
	}
	if err := refuseNondeterministic(f.Def.Name, args); err != nil {
		return value.Null, err
	}
	return f.Def.Eval(args)
}

// nondeterministicRefused are the functions that PostgreSQL refuses
// under a nondeterministic collation, with what its message calls them:
// they find a string in another, which such a collation leaves
// undefined; and the hashes deltaview cannot compute under one.
var nondeterministicRefused = map[string]string{
	"strpos": "substring searches", "position": "substring searches", "replace": "substring searches",
	"split_part": "substring searches", "starts_with": "substring searches", "string_to_array": "substring searches",
	"string_to_table": "substring searches", "textlike": "LIKE", "textnlike": "LIKE", "texticlike": "ILIKE", "texticnlike": "ILIKE",
	"regexp_replace": "regular expressions", "regexp_match": "regular expressions", "regexp_matches": "regular expressions",
	"regexp_like": "regular expressions", "regexp_count": "regular expressions", "regexp_instr": "regular expressions",
	"regexp_substr": "regular expressions", "regexp_split_to_array": "regular expressions", "regexp_split_to_table": "regular expressions",
	// PostgreSQL hashes ICU's sort key, whose bytes the collator here
	// does not make: refused rather than a different number.
	"hashtext": "hashtext", "hashtextextended": "hashtextextended",
}

// refuseNondeterministic refuses the call of function name over args
// when PostgreSQL does under a nondeterministic collation (0A000).
func refuseNondeterministic(name string, args []value.Value) error {
	for _, a := range args {
		if a.Nondeterministic() {
			if what, ok := nondeterministicRefused[name]; ok {
				return pgerr.New(pgerr.FeatureNotSupported, "nondeterministic collations are not supported for %s", what)
			}
			return nil
		}
	}
	return nil
}

func anyVolatile(es []Expr) bool {
	for _, e := range es {
		if e.Volatile() {
			return true
		}
	}
	return false
}

// list renders expressions separated by ", ".
func list(es []Expr) string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e.String())
	}
	return b.String()
}

// operand renders e as the operand of an operator: parenthesized unless it
// is a column, a constant, a cast or a call-like form.
func operand(e Expr) string {
	switch e.(type) {
	case *Col, *Const, *Cast, *Func, *Case, *Coalesce, *NullIf, *MinMax:
		return e.String()
	}
	return "(" + e.String() + ")"
}
