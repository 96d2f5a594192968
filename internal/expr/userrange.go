package expr

import "github.com/deltaview/deltaview/internal/value"

// User range types (CREATE TYPE … AS RANGE) share the kinds
// value.UserRange and value.UserMultirange, told apart by their modifier
// as enums are. Their functions and operators are the built-in ranges'
// (rangeFuncs, multirangeFuncs), made for the call that names one: its
// constructors by the type's name (ResolveRangeConstructor), the others
// by an argument of the type.

// userRangeArg returns the range type of the first argument that is of a
// user range or multirange type.
func userRangeArg(args []value.Type) (value.Type, bool) {
	for _, a := range args {
		if (a.Kind == value.UserRange || a.Kind == value.UserMultirange) && a.UserRange() != nil {
			return a.RangeType(), true
		}
	}
	return value.Type{}, false
}

// userRangeFuncs returns the signatures named name of the functions and
// operators of the user range type rt and its multirange type.
func userRangeFuncs(rt value.Type, name string) []*FuncDef {
	var defs []*FuncDef
	add := func(d *FuncDef) {
		if d.Name == name {
			defs = append(defs, d)
		}
	}
	rangeFuncs(rt, add)
	multirangeFuncs(rt, add)
	return defs
}

// constructors names the constructors of the range type rt and of its
// multirange type.
func constructors(rt value.Type) (rangeName, multiName string) {
	if d := rt.UserRange(); d != nil {
		return d.Constructor, d.MultiConstructor
	}
	return rt.String(), rt.MultirangeType().String()
}

// ResolveRangeConstructor is ResolveFunc of a call of name, the
// constructor of the user range or multirange type t.
func ResolveRangeConstructor(t value.Type, name string, args []value.Type) (def *FuncDef, params []value.Type, result value.Type, err error) {
	return resolveUserRange(name, t.RangeType(), args, userRangeFuncs(t.RangeType(), name))
}

// resolveUserRange is resolveAmong for a call over the user range type
// rt: its parameters of the range's, the multirange's or the subtype's
// kind are of those types, so that an untyped literal reads as one.
func resolveUserRange(name string, rt value.Type, args []value.Type, defs []*FuncDef) (def *FuncDef, params []value.Type, result value.Type, err error) {
	def, params, result, err = resolveAmong(name, defs, args)
	if err != nil {
		return def, params, result, err
	}
	sub := rt.RangeSubtype()
	for i, p := range params {
		switch {
		case p.Mod >= 0:
		case p.Kind == value.UserRange, p.Kind == value.UserMultirange:
			params[i].Mod = rt.Mod
		case p.Kind == sub.Kind:
			params[i] = sub
		}
	}
	return def, params, result, nil
}
