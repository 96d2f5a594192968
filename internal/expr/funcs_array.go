package expr

import (
	"math"
	"slices"
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
	pArray    poly = iota // anycompatiblearray
	pElem                 // anycompatible: the array's element
	pInt                  // integer
	pText                 // text
	pIntArray             // integer[]
	pBigint               // bigint
	pAnyArray             // anyarray: every such argument of one element type
	pEnum                 // anyenum: every such argument of one enum type
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
	// A call with as many arguments as no polymorphic signature has is
	// resolved in the catalog (width_bucket has both kinds).
	if !ok || !slices.ContainsFunc(sigs, func(s polySig) bool { return len(s.params) == len(args) }) {
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
			case pArray, pAnyArray:
				params[i] = value.ArrayType(elem)
				if k := args[i].Kind; k.IsVector() && k.Elem() == elem && !sig.result(elem).Kind.IsArray() {
					// A vector read in place keeps its shape: an empty
					// one has a dimension of length 0, as in PostgreSQL
					// (array_length(proargtypes, 1) is 0 without arguments).
					params[i] = args[i]
				}
			case pElem:
				params[i] = keep(args[i], elem)
			case pInt:
				params[i] = value.Int4Type
			case pIntArray:
				params[i] = value.ArrayType(value.Int4)
			case pBigint:
				params[i] = value.Int8Type
			case pEnum:
				params[i] = value.Type{Kind: value.Enum, Mod: -1} // enumTypes gives it the arguments' type
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
		result = sig.result(elem)
		enumTypes(args, params, &result)
		return sig.make(elem), params, result, nil
	}
	return nil, nil, result, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(name, args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// polyElem finds the element kind of a call: the common type of the
// arrays' elements and the element arguments. ok is false when an array
// parameter gets a value of another type.
func polyElem(name string, ps []poly, args []value.Type) (value.Kind, bool, error) {
	var ts []value.Type
	var exact value.Kind // the element type of the anyarray arguments
	seen := false
	var enum value.Type // the type of the anyenum arguments
	for i, p := range ps {
		k := args[i].Kind
		switch {
		case p == pAnyArray && k.IsArray():
			if seen && k.Elem() != exact {
				return 0, false, nil // anyarray takes no coercion
			}
			exact, seen = k.Elem(), true
			ts = append(ts, value.Type{Kind: exact, Mod: -1})
		case (p == pArray || p == pAnyArray) && k.IsArray():
			ts = append(ts, value.Type{Kind: k.Elem(), Mod: -1})
		case (p == pArray || p == pAnyArray) && k != value.Unknown:
			return 0, false, nil
		case p == pEnum && k == value.Enum:
			if enum.Kind == value.Enum && args[i].Mod != enum.Mod {
				return 0, false, nil // two enum types
			}
			enum = args[i]
			ts = append(ts, args[i])
		case p == pEnum && k != value.Unknown:
			return 0, false, nil
		case p == pElem && k.IsArray() && !k.IsVector():
			return 0, false, nil
		case p == pElem && k.IsVector() && !vectorElemFits(k, ps, args):
			return 0, false, nil // a vector is only an element of its array type
		case p == pElem && k != value.Unknown:
			ts = append(ts, value.Type{Kind: k, Mod: -1})
		}
	}
	if len(ts) == 0 && slices.Contains(ps, pEnum) {
		return 0, false, nil // untyped literals are no enum's labels: no such function
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

// vectorElemFits reports whether the vector kind k can be the element of
// every array argument of a call: no other array type takes a vector as
// its element, not even an array of the vector's own element type.
func vectorElemFits(k value.Kind, ps []poly, args []value.Type) bool {
	for i, p := range ps {
		if a := args[i].Kind; (p == pArray || p == pAnyArray) && a.IsArray() && a.Elem() != k {
			return false
		}
	}
	return true
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
		if a[0].NDims() == 0 {
			return value.Null, nil
		}
		return ints(int64(a[0].NDims())), nil
	})
	polyStrict("array_dims", []poly{pArray}, textResult, func(a []value.Value) (value.Value, error) {
		dims := a[0].Dims()
		if len(dims) == 0 {
			return value.Null, nil
		}
		var b strings.Builder
		for _, d := range dims {
			b.WriteString("[" + strconv.Itoa(d.Lower) + ":" + strconv.Itoa(d.Lower+d.Len-1) + "]")
		}
		return value.NewText(value.Text, b.String()), nil
	})
	// array_length, array_lower and array_upper of a dimension; NULL for
	// an empty array or a dimension it does not have.
	dim := func(name string, f func(d value.Dim) int) {
		polyStrict(name, []poly{pArray, pInt}, intResult, func(a []value.Value) (value.Value, error) {
			dims, i := a[0].Dims(), a[1].Int()
			if i < 1 || i > int64(len(dims)) {
				return value.Null, nil
			}
			return ints(int64(f(dims[i-1]))), nil
		})
	}
	dim("array_length", func(d value.Dim) int { return d.Len })
	dim("array_lower", func(d value.Dim) int { return d.Lower })
	dim("array_upper", func(d value.Dim) int { return d.Lower + d.Len - 1 })

	// array_position finds the subscript of the first element not
	// distinct from the value, from an optional start; array_positions
	// lists them all. Both take a one-dimensional array.
	position := func(a []value.Value, start int64) (value.Value, error) {
		lb, err := searchable(a[0])
		if err != nil {
			return value.Null, err
		}
		for i, e := range a[0].Elems() {
			if lb+int64(i) >= start && value.Equal(e, a[1]) {
				return ints(lb + int64(i)), nil
			}
		}
		return value.Null, nil
	}
	positionDef := &FuncDef{Name: "array_position", Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		return position(a, math.MinInt64)
	}}
	polyRegister("array_position", []poly{pArray, pElem}, intResult, func(value.Kind) *FuncDef { return positionDef })
	positionFromDef := &FuncDef{Name: "array_position", Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		if a[2].IsNull() {
			return value.Null, &pgerr.Error{Code: "22004", Message: "initial position must not be null"}
		}
		return position(a, a[2].Int())
	}}
	polyRegister("array_position", []poly{pArray, pElem, pInt}, intResult, func(value.Kind) *FuncDef { return positionFromDef })
	positionsDef := &FuncDef{Name: "array_positions", Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		lb, err := searchable(a[0])
		if err != nil {
			return value.Null, err
		}
		out := []value.Value{}
		for i, e := range a[0].Elems() {
			if value.Equal(e, a[1]) {
				out = append(out, ints(lb+int64(i)))
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
			return addElem(k, a[0], a[1], false)
		}}
	})
	polyRegister("array_prepend", []poly{pElem, pArray}, arrayResult, func(k value.Kind) *FuncDef {
		return &FuncDef{Name: "array_prepend", Eval: func(a []value.Value) (value.Value, error) {
			return addElem(k, a[1], a[0], true)
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
			return catArrays(a[0], a[1])
		}}
	})
	polyRegister("array_remove", []poly{pArray, pElem}, arrayResult, func(k value.Kind) *FuncDef {
		return &FuncDef{Name: "array_remove", Eval: func(a []value.Value) (value.Value, error) {
			if a[0].IsNull() {
				return value.Null, nil
			}
			if a[0].NDims() > 1 {
				return value.Null, pgerr.New(pgerr.FeatureNotSupported, "removing elements from multidimensional arrays is not supported")
			}
			out := []value.Value{}
			for _, e := range a[0].Elems() {
				if !value.Equal(e, a[1]) {
					out = append(out, e)
				}
			}
			return value.NewArrayDims(value.ArrayOf(k), out, []value.Dim{{Len: len(out), Lower: lower(a[0])}}), nil
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
			return value.NewArrayDims(value.ArrayOf(k), out, a[0].Dims()), nil
		}}
	})

	// array_to_string skips NULL elements unless a text for them is given.
	// Its timestamptz elements print in the session's zone (EvalZone).
	toStringZone := func(a []value.Value, z value.Zone) (value.Value, error) {
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
			switch {
			case e.IsNull():
				b.WriteString(null)
			case z.IsUTC():
				b.WriteString(textOf(e))
			default:
				b.Write(value.AppendTextZone(nil, e, value.IntervalPostgres, z))
			}
		}
		return value.NewText(value.Text, b.String()), nil
	}
	toString := &FuncDef{Name: "array_to_string", EvalZone: toStringZone,
		Eval: func(a []value.Value) (value.Value, error) { return toStringZone(a, value.UTC) }}
	polyRegister("array_to_string", []poly{pArray, pText}, textResult, func(value.Kind) *FuncDef { return toString })
	polyRegister("array_to_string", []poly{pArray, pText, pText}, textResult, func(value.Kind) *FuncDef { return toString })

	register(&FuncDef{Name: "string_to_array", Params: kinds(value.Text, value.Text), Result: value.ArrayType(value.Text), Eval: stringToArray})
	register(&FuncDef{Name: "string_to_array", Params: kinds(value.Text, value.Text, value.Text), Result: value.ArrayType(value.Text), Eval: stringToArray})
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
// elements already have its element type (or are NULL), or all have type
// t, and the result has one more dimension (stackArrays).
func NewArrayCons(elems []Expr, t value.Type) Expr {
	k := t.Kind
	if len(elems) > 0 && elems[0].Type().Kind.IsArray() && elems[0].Type().Kind != k.Elem() {
		return &Func{Def: &FuncDef{Name: "array", Eval: func(a []value.Value) (value.Value, error) {
			return stackArrays(k, a)
		}, Print: func(args []Expr) string { return "ARRAY[" + list(args) + "]" }}, Args: elems, T: t}
	}
	return &Func{Def: &FuncDef{Name: "array", Eval: func(a []value.Value) (value.Value, error) {
		return value.NewArray(k, append([]value.Value(nil), a...)), nil
	}, Print: func(args []Expr) string { return "ARRAY[" + list(args) + "]" }}, Args: elems, T: t}
}

// EqualsAny returns l and arr of l = ANY (arr), false for any other
// expression.
func EqualsAny(e Expr) (l, arr Expr, ok bool) {
	if f, ok := e.(*Func); ok && f.Def.Name == "= ANY" && len(f.Args) == 2 {
		return f.Args[0], f.Args[1], true
	}
	return nil, nil, false
}

// NewArrayCompare returns l op ANY (arr), or op ALL when all: true when
// the comparison holds for some (every) element, else NULL when it was
// NULL for some element, else false (true); an empty array gives false
// (true) whatever l is. l has arr's element type.
func NewArrayCompare(op CmpOp, l, arr Expr, all bool) Expr {
	check := NewRecordCheck(l, arr)
	if l.Type().Kind == value.Record && arr.Type().Kind == value.ArrayOf(value.Record) {
		// Each element has its own row type, told by its values.
		check = &RecordCheck{EachElem: true, LF: recordFieldTypes(l), RF: recordFieldTypes(arr), Ordering: op != EQ && op != NE}
	}
	return arrayOp(op.String(), "", l, arr, all, false, func(x, e value.Value) (value.Value, error) {
		if err := check.Check(x, e); err != nil {
			return value.Null, err
		}
		return value.NewBool(op.holds(value.Compare(x, e))), nil
	})
}

// NewArrayOperator returns l op ANY (arr), or op ALL when all, for an
// operator that def computes (a geometric type's box = box, which
// compares areas: not the values' equality EqualsAny finds), as
// NewArrayCompare does for the comparisons.
func NewArrayOperator(op string, def *FuncDef, l, arr Expr, all bool) Expr {
	return arrayOp(op, " "+def.Name, l, arr, all, false, func(x, e value.Value) (value.Value, error) { return def.Eval([]value.Value{x, e}) })
}

// NewArrayOperatorExpr returns l op ANY (arr), or op ALL when all, for
// an operator bound as holds over a row of l's value and an element (its
// columns 0 and 1); NULLs reach it, as they reach the operator.
func NewArrayOperatorExpr(op string, holds Expr, l, arr Expr, all bool) Expr {
	return arrayOp(op, "", l, arr, all, true, func(x, e value.Value) (value.Value, error) { return holds.Eval(value.Row{x, e}) })
}

// arrayOp is l op ANY (arr) or op ALL, with holds the operator on l's
// value and an element, both not NULL unless nulls; suffix ends the
// call's name.
func arrayOp(op, suffix string, l, arr Expr, all, nulls bool, holds func(x, e value.Value) (value.Value, error)) Expr {
	which := " ANY "
	if all {
		which = " ALL "
	}
	return &Func{Def: &FuncDef{Name: op + which[:len(which)-1] + suffix, Eval: func(a []value.Value) (value.Value, error) {
		if a[1].IsNull() {
			return value.Null, nil
		}
		null := false
		for _, e := range a[1].Elems() {
			if !nulls && (a[0].IsNull() || e.IsNull()) {
				null = true
				continue
			}
			r, err := holds(a[0], e)
			if err != nil {
				return value.Null, err
			}
			if r.IsNull() {
				null = true
				continue
			}
			if r.Bool() != all {
				return value.NewBool(!all), nil
			}
		}
		if null {
			return value.Null, nil
		}
		return value.NewBool(all), nil
	}, Print: func(args []Expr) string {
		return operand(args[0]) + " " + op + which + "(" + args[1].String() + ")"
	}}, Args: []Expr{l, arr}, T: value.BoolType}
}
