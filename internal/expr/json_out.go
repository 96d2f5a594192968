package expr

import "github.com/deltaview/deltaview/internal/value"

// jsonOut is the session state in which the json functions write the
// values that have no json form of their own, as PostgreSQL's output
// functions write them: timestamptz in the session's zone, floats and
// geometric values under its extra_float_digits. It keeps no state of its
// own; the zero value is UTC and the defaults.
type jsonOut struct {
	z  value.Zone
	st value.TextStyle // extra_float_digits alone: dates and intervals in json keep ISO and postgres
}

// utcJSON is the json output of the defaults, as views write it.
var utcJSON = jsonOut{}

// floatStyle is st's extra_float_digits alone, over the other defaults.
func floatStyle(st value.TextStyle) value.TextStyle {
	return value.TextDefault.WithFloatDigits(st.FloatDigits())
}

// jsonStyled fills def's Eval, EvalZone and EvalStyle from eval, the
// function written in the session's json output, and returns def.
func jsonStyled(def *FuncDef, eval func(a []value.Value, o jsonOut) (value.Value, error)) *FuncDef {
	def.Eval = func(a []value.Value) (value.Value, error) { return eval(a, utcJSON) }
	def.EvalZone = func(a []value.Value, z value.Zone) (value.Value, error) { return eval(a, jsonOut{z: z}) }
	def.EvalStyle = func(a []value.Value, z value.Zone, st value.TextStyle) (value.Value, error) {
		return eval(a, jsonOut{z: z, st: floatStyle(st)})
	}
	return def
}

// strictJSON registers a strict json function written in the session's
// json output (jsonOut).
func strictJSON(name string, params []value.Kind, result value.Type, eval func([]value.Value, jsonOut) (value.Value, error)) {
	register(jsonStyled(&FuncDef{Name: name, Strict: true, Params: params, Result: result}, eval))
}

// HoldsFloat reports whether values of kind k are or may contain floats
// or geometric values, whose text depends on extra_float_digits: a
// record may hold them, its fields are not in its type.
func HoldsFloat(k value.Kind) bool {
	if k.IsArray() {
		k = k.Elem()
	}
	switch k {
	case value.Float4, value.Float8, value.Point, value.LSeg, value.Path, value.Box, value.Polygon, value.Line, value.Circle,
		value.Record:
		return true
	}
	return false
}
