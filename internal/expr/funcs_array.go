package expr

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Array functions and operators. They are polymorphic, as PostgreSQL's
// anycompatiblearray and anycompatible: the element type comes from the
// arguments, so each call resolves to a FuncDef of its own, made for that
// element type (an array built from NULLs alone still has a kind).

// poly is a parameter of a polymorphic signature.
type poly uint8

const (
	pArray poly = iota // anycompatiblearray
	pElem              // anycompatible: the array's element
	pInt               // integer
	pText              // text
)

// polySig is one signature of a polymorphic function; make returns the
// definition for an element kind.
type polySig struct {
	params []poly
	result func(elem value.Kind) value.Type
	make   func(elem value.Kind) *FuncDef
}

// polyCatalog holds the polymorphic functions by name.
var polyCatalog = map[string][]polySig{}

func arrayResult(elem value.Kind) value.Type { return value.ArrayType(elem) }
func intResult(value.Kind) value.Type        { return value.Int4Type }
func textResult(value.Kind) value.Type       { return value.TextType }

// resolvePoly resolves a call of a polymorphic function; def is nil when
// name is not one.
func resolvePoly(name string, args []value.Type) (def *FuncDef, params []value.Type, result value.Type, err error) {
	sigs, ok := polyCatalog[name]
	if !ok {
		return nil, nil, result, nil
	}
	for _, sig := range sigs {
		if len(sig.params) != len(args) {
			continue
		}
		elem, ok, err := polyElem(name, sig.params, args)
		if err != nil {
			return nil, nil, result, err
		}
		if !ok {
			continue
		}
		params = make([]value.Type, len(args))
		fits := true
		for i, p := range sig.params {
			switch p {
			case pArray:
				params[i] = value.ArrayType(elem)
			case pElem:
				params[i] = keep(args[i], elem)
			case pInt:
				params[i] = value.Int4Type
			case pText:
				params[i] = keep(args[i], value.Text)
				if args[i].Kind.IsString() {
					params[i] = args[i]
				}
			}
			fits = fits && implicit(args[i].Kind, params[i].Kind)
		}
		if !fits {
			continue
		}
		return sig.make(elem), params, sig.result(elem), nil
	}
	return nil, nil, result, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(name, args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// polyElem finds the element kind of a call: the common type of the
// arrays' elements and the element arguments. ok is false when an array
// parameter gets a value of another type.
func polyElem(name string, ps []poly, args []value.Type) (value.Kind, bool, error) {
	var ts []value.Type
	for i, p := range ps {
		k := args[i].Kind
		switch {
		case p == pArray && k.IsArray():
			ts = append(ts, value.Type{Kind: k.Elem(), Mod: -1})
		case p == pArray && k != value.Unknown:
			return 0, false, nil
		case p == pElem && k.IsArray():
			return 0, false, nil
		case p == pElem && k != value.Unknown:
			ts = append(ts, value.Type{Kind: k, Mod: -1})
		}
	}
	if len(ts) == 0 {
		return 0, false, pgerr.New(pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
	}
	t, err := CommonType(ts, name)
	if err != nil {
		return 0, false, err
	}
	return t.Kind, true, nil
}

func polyRegister(name string, params []poly, result func(value.Kind) value.Type, make func(value.Kind) *FuncDef) {
	polyCatalog[name] = append(polyCatalog[name], polySig{params, result, make})
}

// polyStrict registers a strict function whose evaluation does not depend
// on the element kind.
func polyStrict(name string, params []poly, result func(value.Kind) value.Type, eval func([]value.Value) (value.Value, error)) {
	d := &FuncDef{Name: name, Strict: true, Eval: eval}
	polyRegister(name, params, result, func(value.Kind) *FuncDef { return d })
}

func ints(n int64) value.Value { return value.NewInt(value.Int4, n) }

func init() {
	polyStrict("cardinality", []poly{pArray}, intResult, func(a []value.Value) (value.Value, error) {
		return ints(int64(len(a[0].Elems()))), nil
	})
	polyStrict("array_ndims", []poly{pArray}, intResult, func(a []value.Value) (value.Value, error) {
		if len(a[0].Elems()) == 0 {
			return value.Null, nil
		}
		return ints(1), nil
	})
	polyStrict("array_dims", []poly{pArray}, textResult, func(a []value.Value) (value.Value, error) {
		n := len(a[0].Elems())
		if n == 0 {
			return value.Null, nil
		}
		return value.NewText(value.Text, "[1:"+strconv.Itoa(n)+"]"), nil
	})
	// array_length, array_lower and array_upper of dimension 1; NULL for
	// an empty array or another dimension.
	dim := func(name string, f func(n int) int) {
		polyStrict(name, []poly{pArray, pInt}, intResult, func(a []value.Value) (value.Value, error) {
			n := len(a[0].Elems())
			if n == 0 || a[1].Int() != 1 {
				return value.Null, nil
			}
			return ints(int64(f(n))), nil
		})
	}
	dim("array_length", func(n int) int { return n })
	dim("array_lower", func(int) int { return 1 })
	dim("array_upper", func(n int) int { return n })

	// array_position finds the first element not distinct from the value,
	// from an optional start; array_positions lists them all.
	position := func(a []value.Value, start int) value.Value {
		for i, e := range a[0].Elems() {
			if i+1 >= start && value.Equal(e, a[1]) {
				return ints(int64(i + 1))
			}
		}
		return value.Null
	}
	positionDef := &FuncDef{Name: "array_position", Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		return position(a, 1), nil
	}}
	polyRegister("array_position", []poly{pArray, pElem}, intResult, func(value.Kind) *FuncDef { return positionDef })
	positionFromDef := &FuncDef{Name: "array_position", Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		if a[2].IsNull() {
			return value.Null, &pgerr.Error{Code: "22004", Message: "initial position must not be null"}
		}
		return position(a, int(max(a[2].Int(), 1))), nil
	}}
	polyRegister("array_position", []poly{pArray, pElem, pInt}, intResult, func(value.Kind) *FuncDef { return positionFromDef })
	positionsDef := &FuncDef{Name: "array_positions", Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		out := []value.Value{}
		for i, e := range a[0].Elems() {
			if value.Equal(e, a[1]) {
				out = append(out, ints(int64(i+1)))
			}
		}
		return value.NewArray(value.ArrayOf(value.Int4), out), nil
	}}
	polyRegister("array_positions", []poly{pArray, pElem}, func(value.Kind) value.Type { return value.ArrayType(value.Int4) },
		func(value.Kind) *FuncDef { return positionsDef })

	// array_append, array_prepend and array_cat are not strict: a NULL
	// array is an empty one.
	polyRegister("array_append", []poly{pArray, pElem}, arrayResult, func(k value.Kind) *FuncDef {
		return &FuncDef{Name: "array_append", Eval: func(a []value.Value) (value.Value, error) {
			return concatArrays(k, a[0].Elems(), []value.Value{a[1]}), nil
		}}
	})
	polyRegister("array_prepend", []poly{pElem, pArray}, arrayResult, func(k value.Kind) *FuncDef {
		return &FuncDef{Name: "array_prepend", Eval: func(a []value.Value) (value.Value, error) {
			return concatArrays(k, []value.Value{a[0]}, a[1].Elems()), nil
		}}
	})
	polyRegister("array_cat", []poly{pArray, pArray}, arrayResult, func(k value.Kind) *FuncDef {
		return &FuncDef{Name: "array_cat", Eval: func(a []value.Value) (value.Value, error) {
			switch {
			case a[0].IsNull():
				return a[1], nil
			case a[1].IsNull():
				return a[0], nil
			}
			return concatArrays(k, a[0].Elems(), a[1].Elems()), nil
		}}
	})
	polyRegister("array_remove", []poly{pArray, pElem}, arrayResult, func(k value.Kind) *FuncDef {
		return &FuncDef{Name: "array_remove", Eval: func(a []value.Value) (value.Value, error) {
			if a[0].IsNull() {
				return value.Null, nil
			}
			out := []value.Value{}
			for _, e := range a[0].Elems() {
				if !value.Equal(e, a[1]) {
					out = append(out, e)
				}
			}
			return value.NewArray(value.ArrayOf(k), out), nil
		}}
	})
	polyRegister("array_replace", []poly{pArray, pElem, pElem}, arrayResult, func(k value.Kind) *FuncDef {
		return &FuncDef{Name: "array_replace", Eval: func(a []value.Value) (value.Value, error) {
			if a[0].IsNull() {
				return value.Null, nil
			}
			out := make([]value.Value, 0, len(a[0].Elems()))
			for _, e := range a[0].Elems() {
				if value.Equal(e, a[1]) {
					e = a[2]
				}
				out = append(out, e)
			}
			return value.NewArray(value.ArrayOf(k), out), nil
		}}
	})

	// array_to_string skips NULL elements unless a text for them is given.
	toString := &FuncDef{Name: "array_to_string", Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() || a[1].IsNull() {
			return value.Null, nil
		}
		null, haveNull := "", len(a) > 2 && !a[2].IsNull()
		if haveNull {
			null = textOf(a[2])
		}
		var b strings.Builder
		first := true
		for _, e := range a[0].Elems() {
			if e.IsNull() && !haveNull {
				continue
			}
			if !first {
				b.WriteString(textOf(a[1]))
			}
			first = false
			if e.IsNull() {
				b.WriteString(null)
			} else {
				b.WriteString(textOf(e))
			}
		}
		return value.NewText(value.Text, b.String()), nil
	}}
	polyRegister("array_to_string", []poly{pArray, pText}, textResult, func(value.Kind) *FuncDef { return toString })
	polyRegister("array_to_string", []poly{pArray, pText, pText}, textResult, func(value.Kind) *FuncDef { return toString })

	register(&FuncDef{Name: "string_to_array", Params: kinds(value.Text, value.Text), Result: value.ArrayType(value.Text), Eval: stringToArray})
	register(&FuncDef{Name: "string_to_array", Params: kinds(value.Text, value.Text, value.Text), Result: value.ArrayType(value.Text), Eval: stringToArray})
}

// concatArrays returns a new array of the elements of a then b.
func concatArrays(elem value.Kind, a, b []value.Value) value.Value {
	out := make([]value.Value, 0, len(a)+len(b))
	out = append(append(out, a...), b...)
	return value.NewArray(value.ArrayOf(elem), out)
}

// stringToArray is string_to_array(s, sep [, null]): a NULL separator
// splits into characters, an empty one gives the whole string, and the
// pieces equal to null become NULL elements.
func stringToArray(a []value.Value) (value.Value, error) {
	if a[0].IsNull() {
		return value.Null, nil
	}
	s := textOf(a[0])
	var parts []string
	switch {
	case s == "":
		parts = nil
	case a[1].IsNull():
		for _, r := range s {
			parts = append(parts, string(r))
		}
	case textOf(a[1]) == "":
		parts = []string{s}
	default:
		parts = strings.Split(s, textOf(a[1]))
	}
	out := make([]value.Value, len(parts))
	for i, p := range parts {
		if len(a) > 2 && !a[2].IsNull() && p == textOf(a[2]) {
			continue // NULL
		}
		out[i] = value.NewText(value.Text, p)
	}
	return value.NewArray(value.ArrayOf(value.Text), out), nil
}

// NewArrayCons returns ARRAY[elems…] of type t, an array type; the
// elements already have its element type (or are NULL).
func NewArrayCons(elems []Expr, t value.Type) Expr {
	k := t.Kind
	return &Func{Def: &FuncDef{Name: "array", Eval: func(a []value.Value) (value.Value, error) {
		return value.NewArray(k, append([]value.Value(nil), a...)), nil
	}, Print: func(args []Expr) string { return "ARRAY[" + list(args) + "]" }}, Args: elems, T: t}
}

// NewSubscript returns arr[i], or arr[lo:hi] when slice (lo or hi nil for
// an open end). A subscript out of range is NULL, a slice out of range
// empty, as in PostgreSQL.
func NewSubscript(arr Expr, lo, hi Expr, slice bool) Expr {
	t := arr.Type()
	if !slice {
		return &Func{Def: &FuncDef{Name: "subscript", Strict: true, Eval: func(a []value.Value) (value.Value, error) {
			es, i := a[0].Elems(), a[1].Int()
			if i < 1 || i > int64(len(es)) {
				return value.Null, nil
			}
			return es[i-1], nil
		}, Print: func(args []Expr) string { return operand(args[0]) + "[" + args[1].String() + "]" }},
			Args: []Expr{arr, lo}, T: value.Type{Kind: t.Kind.Elem(), Mod: -1}}
	}
	args := []Expr{arr}
	hasLo, hasHi := lo != nil, hi != nil
	if hasLo {
		args = append(args, lo)
	}
	if hasHi {
		args = append(args, hi)
	}
	k := t.Kind
	return &Func{Def: &FuncDef{Name: "slice", Strict: true, Eval: func(a []value.Value) (value.Value, error) {
		es := a[0].Elems()
		from, to := int64(1), int64(len(es))
		j := 1
		if hasLo {
			from = max(from, a[j].Int())
			j++
		}
		if hasHi {
			to = min(to, a[j].Int())
		}
		if from > to {
			return value.NewArray(k, nil), nil
		}
		return value.NewArray(k, es[from-1:to]), nil
	}, Print: func(args []Expr) string {
		s, j := operand(args[0])+"[", 1
		if hasLo {
			s += args[j].String()
			j++
		}
		s += ":"
		if hasHi {
			s += args[j].String()
		}
		return s + "]"
	}}, Args: args, T: t}
}

// NewArrayCompare returns l op ANY (arr), or op ALL when all: true when
// the comparison holds for some (every) element, else NULL when it was
// NULL for some element, else false (true); an empty array gives false
// (true) whatever l is. l has arr's element type.
func NewArrayCompare(op CmpOp, l, arr Expr, all bool) Expr {
	which := " ANY "
	if all {
		which = " ALL "
	}
	return &Func{Def: &FuncDef{Name: "any", Eval: func(a []value.Value) (value.Value, error) {
		if a[1].IsNull() {
			return value.Null, nil
		}
		null := false
		for _, e := range a[1].Elems() {
			if a[0].IsNull() || e.IsNull() {
				null = true
				continue
			}
			if op.holds(value.Compare(a[0], e)) != all {
				return value.NewBool(!all), nil
			}
		}
		if null {
			return value.Null, nil
		}
		return value.NewBool(all), nil
	}, Print: func(args []Expr) string {
		return operand(args[0]) + " " + op.String() + which + "(" + args[1].String() + ")"
	}}, Args: []Expr{l, arr}, T: value.BoolType}
}
