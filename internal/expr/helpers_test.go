package expr_test

import (
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Constant builders.
func i4(n int64) *expr.Const { return &expr.Const{V: value.NewInt(value.Int4, n), T: value.Int4Type} }
func i8(n int64) *expr.Const { return &expr.Const{V: value.NewInt(value.Int8, n), T: value.Int8Type} }
func f8(f float64) *expr.Const {
	return &expr.Const{V: value.NewFloat(value.Float8, f), T: value.Float8Type}
}
func txt(s string) *expr.Const {
	return &expr.Const{V: value.NewText(value.Text, s), T: value.TextType}
}
func lit(s string) *expr.Const {
	return &expr.Const{V: value.NewText(value.Text, s), T: value.UnknownType}
}
func boolc(b bool) *expr.Const      { return &expr.Const{V: value.NewBool(b), T: value.BoolType} }
func null(t value.Type) *expr.Const { return &expr.Const{V: value.Null, T: t} }
func nullb() *expr.Const            { return null(value.BoolType) }

func num(s string) *expr.Const {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		panic(err)
	}
	return &expr.Const{V: value.NewNumeric(d), T: value.NumericType}
}

func charc(s string, n int32) *expr.Const {
	v, err := value.Parse(s, value.Type{Kind: value.Char, Mod: n})
	if err != nil {
		panic(err)
	}
	return &expr.Const{V: v, T: value.Type{Kind: value.Char, Mod: n}}
}

// tv is a three-valued boolean constant: 1 TRUE, 0 FALSE, -1 NULL.
func tv(t int) expr.Expr {
	switch t {
	case 1:
		return boolc(true)
	case 0:
		return boolc(false)
	}
	return nullb()
}

// show renders an evaluation result for comparison: "NULL", the text
// output, or "ERR <sqlstate>".
func show(v value.Value, err error) string {
	if err != nil {
		return "ERR " + pgerr.Code(err)
	}
	return v.String()
}

func eval(e expr.Expr) string { return show(e.Eval(nil)) }

// failing is an expression whose evaluation fails, to check laziness.
type failing struct{ expr.Expr }

func (failing) Eval(value.Row) (value.Value, error) {
	return value.Null, pgerr.New(pgerr.DivisionByZero, "division by zero")
}

// call resolves and builds a function call over constant arguments, coercing
// them to the resolved parameter types.
func call(t *testing.T, name string, args ...expr.Expr) (expr.Expr, error) {
	t.Helper()
	types := make([]value.Type, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	def, params, res, err := expr.ResolveFunc(name, types)
	if err != nil {
		return nil, err
	}
	cargs := make([]expr.Expr, len(args))
	for i, a := range args {
		if cargs[i], err = expr.Coerce(a, params[i], false); err != nil {
			return nil, err
		}
	}
	return &expr.Func{Def: def, Args: cargs, T: res}, nil
}
