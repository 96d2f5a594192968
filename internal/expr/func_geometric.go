package expr

import (
	"unicode"

	"github.com/deltaview/deltaview/internal/value"
)

// The geometric types' functions and operators (value.GeoOps). The
// binder resolves an operator with a geometric operand among those
// registered under its symbol; a prefix operator has one parameter.
func init() {
	for _, op := range value.GeoOps {
		d := &FuncDef{Name: op.Name, Strict: true, Params: op.Params, Result: value.Type{Kind: op.Result, Mod: -1}, Eval: op.Eval}
		if !unicode.IsLetter(rune(op.Name[0])) {
			name := op.Name
			if len(op.Params) == 1 {
				d.Print = func(args []Expr) string { return name + " " + operand(args[0]) }
			} else {
				d.Print = func(args []Expr) string { return operand(args[0]) + " " + name + " " + operand(args[1]) }
			}
		}
		register(d)
	}
}
