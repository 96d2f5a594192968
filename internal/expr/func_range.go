package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// rangeKinds are the range types' kinds.
var rangeKinds = []value.Kind{value.Int4Range, value.Int8Range, value.NumRange, value.DateRange, value.TSRange, value.TSTZRange}

// The range types' functions and operators, one signature per range type
// (PostgreSQL's anyrange and anyelement): the constructors, lower, upper,
// isempty, lower_inc, upper_inc, lower_inf, upper_inf, range_merge, and
// the operators @>, <@, &&, <<, >>, &<, &>, -|-, +, * and -, which the
// binder resolves only for a range and its own element type. The
// built-in range types' are in the catalog; a user range type's are made
// for each call that names one (userRangeFuncs).
func init() {
	for _, k := range rangeKinds {
		rt := value.Type{Kind: k, Mod: -1}
		rangeFuncs(rt, func(d *FuncDef) { register(d) })
		multirangeFuncs(rt, func(d *FuncDef) { register(d) })
	}
}

// rangeFuncs gives add the functions and operators of the range type rt.
func rangeFuncs(rt value.Type, add func(*FuncDef)) {
	B := value.BoolType
	k, et := rt.Kind, rt.RangeSubtype()
	e := et.Kind
	strict := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) {
		add(&FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval})
	}
	cons, _ := constructors(rt)
	hashRangeFuncs(k, add)
	rangeCmpFuncs(k, add)
	add(&FuncDef{Name: cons, Params: kinds(e, e), Result: rt,
		Eval: func(a []value.Value) (value.Value, error) { return makeRange(k, a[0], a[1], "[)") }})
	add(&FuncDef{Name: cons, Params: kinds(e, e, value.Text), Result: rt,
		Eval: func(a []value.Value) (value.Value, error) {
			if a[2].IsNull() {
				return value.Null, pgerr.New("22000", "range constructor flags argument must not be null")
			}
			return makeRange(k, a[0], a[1], a[2].Str())
		}})
	strict("lower", kinds(k), et, func(a []value.Value) (value.Value, error) {
		lo, _ := a[0].RangeBounds()
		return lo.Val, nil
	})
	strict("upper", kinds(k), et, func(a []value.Value) (value.Value, error) {
		_, hi := a[0].RangeBounds()
		return hi.Val, nil
	})
	strict("isempty", kinds(k), B, func(a []value.Value) (value.Value, error) {
		return value.NewBool(a[0].IsEmptyRange()), nil
	})
	for _, f := range []struct {
		name  string
		lower bool
		test  func(value.RangeBound) bool
	}{
		{"lower_inc", true, func(b value.RangeBound) bool { return b.Inc }},
		{"upper_inc", false, func(b value.RangeBound) bool { return b.Inc }},
		{"lower_inf", true, func(b value.RangeBound) bool { return b.Inf }},
		{"upper_inf", false, func(b value.RangeBound) bool { return b.Inf }},
	} {
		strict(f.name, kinds(k), B, func(a []value.Value) (value.Value, error) {
			if a[0].IsEmptyRange() {
				return value.NewBool(false), nil
			}
			lo, hi := a[0].RangeBounds()
			if f.lower {
				return value.NewBool(f.test(lo)), nil
			}
			return value.NewBool(f.test(hi)), nil
		})
	}
	if k == value.Int4Range || k == value.Int8Range || k == value.DateRange {
		// A discrete range's canonical function: every range is
		// canonical already.
		strict(k.String()+"_canonical", kinds(k), rt, func(a []value.Value) (value.Value, error) { return a[0], nil })
	}
	strict("range_merge", kinds(k, k), rt, func(a []value.Value) (value.Value, error) {
		return value.RangeUnion(a[0], a[1], false)
	})
	test := func(op string, params []value.Kind, f func(a, b value.Value) bool) {
		add(rangeOpDef(op, params, B, func(a []value.Value) (value.Value, error) { return value.NewBool(f(a[0], a[1])), nil }))
	}
	test("@>", kinds(k, k), value.RangeContains)
	test("@>", kinds(k, e), value.RangeContainsElem)
	test("<@", kinds(k, k), func(a, b value.Value) bool { return value.RangeContains(b, a) })
	test("<@", kinds(e, k), func(a, b value.Value) bool { return value.RangeContainsElem(b, a) })
	test("&&", kinds(k, k), value.RangeOverlaps)
	test("<<", kinds(k, k), value.RangeBefore)
	test(">>", kinds(k, k), func(a, b value.Value) bool { return value.RangeBefore(b, a) })
	test("&<", kinds(k, k), value.RangeOverLeft)
	test("&>", kinds(k, k), value.RangeOverRight)
	test("-|-", kinds(k, k), value.RangeAdjacent)
	add(rangeOpDef("+", kinds(k, k), rt, func(a []value.Value) (value.Value, error) { return value.RangeUnion(a[0], a[1], true) }))
	add(rangeOpDef("*", kinds(k, k), rt, func(a []value.Value) (value.Value, error) { return value.RangeIntersect(a[0], a[1]) }))
	add(rangeOpDef("-", kinds(k, k), rt, func(a []value.Value) (value.Value, error) { return value.RangeMinus(a[0], a[1]) }))
}

// rangeOp registers an operator over ranges.
func rangeOp(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) {
	register(rangeOpDef(name, params, result, eval))
}

// rangeOpDef is the definition of a binary operator, printed as one.
func rangeOpDef(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) *FuncDef {
	print := func(args []Expr) string { return operand(args[0]) + " " + name + " " + operand(args[1]) }
	return &FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval, Print: print}
}

// makeRange is the range constructor: NULL bounds are infinite, flags
// say which bounds are inclusive.
func makeRange(k value.Kind, lower, upper value.Value, flags string) (value.Value, error) {
	if len(flags) != 2 || (flags[0] != '[' && flags[0] != '(') || (flags[1] != ']' && flags[1] != ')') {
		return value.Null, pgerr.New(pgerr.SyntaxError, "invalid range bound flags").
			WithHint(`Valid values are "[]", "[)", "(]", and "()".`)
	}
	return value.MakeRange(k,
		value.RangeBound{Val: lower, Inf: lower.IsNull(), Inc: flags[0] == '['},
		value.RangeBound{Val: upper, Inf: upper.IsNull(), Inc: flags[1] == ']'}, false)
}
