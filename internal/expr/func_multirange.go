package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The multirange types' functions and operators, one signature per type:
// the constructors, multirange(range), the bound functions and
// range_merge of a multirange, and the operators between ranges and
// multiranges of one range type (their elements for @> and <@).
// multirangeFuncs gives add those of the multirange type of the range
// type rt.
func multirangeFuncs(rt value.Type, add func(*FuncDef)) {
	B := value.BoolType
	k, m, et := rt.Kind, rt.Kind.MultirangeOf(), rt.RangeSubtype()
	e, mt := et.Kind, rt.MultirangeType()
	strict := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) {
		add(&FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval})
	}
	_, cons := constructors(rt)
	hashRangeFuncs(m, add)
	rangeCmpFuncs(m, add)
	build := func(a []value.Value) (value.Value, error) {
		for _, r := range a {
			if r.IsNull() {
				return value.Null, pgerr.New("22004", "multirange values cannot contain null members")
			}
		}
		return value.MakeMultirange(m, a)
	}
	add(&FuncDef{Name: cons, Result: mt, Eval: build})
	// Of one range the constructor is strict, of more a NULL is an
	// error, as PostgreSQL's two constructors.
	strict(cons, kinds(k), mt, build)
	add(&FuncDef{Name: cons, Params: kinds(k, k), Variadic: true, Result: mt, Eval: build})
	strict("multirange", kinds(k), mt, build)
	bound := func(name string, f func(lower, upper value.RangeBound) value.Value) {
		res := B
		if name == "lower" || name == "upper" {
			res = et
		}
		strict(name, kinds(m), res, func(a []value.Value) (value.Value, error) {
			rs := a[0].Ranges()
			if len(rs) == 0 {
				if res == B {
					return value.NewBool(false), nil
				}
				return value.Null, nil
			}
			lo, _ := rs[0].RangeBounds()
			_, hi := rs[len(rs)-1].RangeBounds()
			return f(lo, hi), nil
		})
	}
	bound("lower", func(lo, _ value.RangeBound) value.Value { return lo.Val })
	bound("upper", func(_, hi value.RangeBound) value.Value { return hi.Val })
	bound("lower_inc", func(lo, _ value.RangeBound) value.Value { return value.NewBool(lo.Inc) })
	bound("upper_inc", func(_, hi value.RangeBound) value.Value { return value.NewBool(hi.Inc) })
	bound("lower_inf", func(lo, _ value.RangeBound) value.Value { return value.NewBool(lo.Inf) })
	bound("upper_inf", func(_, hi value.RangeBound) value.Value { return value.NewBool(hi.Inf) })
	strict("isempty", kinds(m), B, func(a []value.Value) (value.Value, error) {
		return value.NewBool(len(a[0].Ranges()) == 0), nil
	})
	strict("range_merge", kinds(m), rt, func(a []value.Value) (value.Value, error) {
		rs := a[0].Ranges()
		if len(rs) == 0 {
			return value.EmptyRange(k), nil
		}
		return value.RangeUnion(rs[0], rs[len(rs)-1], false)
	})
	test := func(op string, params []value.Kind, f func(a, b value.Value) bool) {
		add(rangeOpDef(op, params, B, func(a []value.Value) (value.Value, error) { return value.NewBool(f(a[0], a[1])), nil }))
	}
	for _, ps := range [][]value.Kind{kinds(m, m), kinds(m, k), kinds(k, m)} {
		test("@>", ps, value.MultirangeContains)
		test("<@", ps, func(a, b value.Value) bool { return value.MultirangeContains(b, a) })
		test("&&", ps, value.MultirangeOverlaps)
		test("<<", ps, value.MultirangeBefore)
		test(">>", ps, func(a, b value.Value) bool { return value.MultirangeBefore(b, a) })
		test("&<", ps, value.MultirangeOverLeft)
		test("&>", ps, value.MultirangeOverRight)
		test("-|-", ps, value.MultirangeAdjacent)
	}
	test("@>", kinds(m, e), value.MultirangeContainsElem)
	test("<@", kinds(e, m), func(a, b value.Value) bool { return value.MultirangeContainsElem(b, a) })
	add(rangeOpDef("+", kinds(m, m), mt, func(a []value.Value) (value.Value, error) { return value.MultirangeUnion(a[0], a[1]) }))
	add(rangeOpDef("*", kinds(m, m), mt, func(a []value.Value) (value.Value, error) { return value.MultirangeIntersect(a[0], a[1]) }))
	add(rangeOpDef("-", kinds(m, m), mt, func(a []value.Value) (value.Value, error) { return value.MultirangeMinus(a[0], a[1]) }))
}

// unnestMultirange is unnest(multirange): its ranges, in order.
func unnestMultirange(args []Expr) *SRF {
	return &SRF{Name: "unnest", Args: args, Cols: []value.Type{args[0].Type().RangeType()},
		Gen: func(a []value.Value, emit func(value.Row) error) error {
			for _, r := range a[0].Ranges() {
				if err := emit(value.Row{r}); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
