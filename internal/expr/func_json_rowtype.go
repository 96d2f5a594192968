package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// Records as json by their type: to_json, to_jsonb and row_to_json of a
// record whose type knows its fields write them under their names, as
// PostgreSQL's composite_to_json does; the json builders and aggregates
// take a record argument through the same conversion.

// RecordJSON returns to_json(arg) (k json) or to_jsonb(arg) (k jsonb) of
// an argument whose type is a record or an array of records with known
// fields; ok is false for any other argument. name is the function
// called, as printed.
func RecordJSON(name string, arg Expr, k value.Kind) (e Expr, ok bool) {
	t := arg.Type()
	if t.RecordDesc() == nil {
		return nil, false
	}
	res := plain(k)
	eval := func(a []value.Value, o jsonOut) (value.Value, error) {
		buf := appendTypedJSON(nil, a[0], t, o)
		if k == value.JSONB {
			return value.Parse(string(buf), res)
		}
		return value.NewJSON(string(buf)), nil
	}
	def := jsonStyled(&FuncDef{Name: name, Strict: true, Result: res}, eval)
	return &Func{Def: def, Args: []Expr{arg}, T: res}, true
}

// RowToJSONPretty returns row_to_json(arg, pretty) of a record argument
// whose type knows its fields: with pretty true its fields are on lines of
// their own (",\n " between them), nested values as they are.
func RowToJSONPretty(arg, pretty Expr) (e Expr, ok bool) {
	t := arg.Type()
	if t.Kind != value.Record || t.RecordDesc() == nil {
		return nil, false
	}
	pretty, err := Coerce(pretty, value.BoolType, false)
	if err != nil {
		return nil, false
	}
	eval := func(a []value.Value, o jsonOut) (value.Value, error) {
		if !a[1].Bool() {
			return value.NewJSON(string(appendTypedJSON(nil, a[0], t, o))), nil
		}
		d := t.RecordDesc()
		buf := []byte{'{'}
		for i, f := range a[0].Fields() {
			if i > 0 {
				buf = append(buf, ",\n "...)
			}
			if i < len(d.Fields) {
				buf = value.AppendJSONString(buf, d.Fields[i].Name)
				buf = appendTypedJSON(append(buf, ':'), f, d.Fields[i].Type, o)
				continue
			}
			buf = append(append(buf, `"f`...), itoa(i+1)...)
			buf = appendJSON(append(buf, `":`...), f, o)
		}
		return value.NewJSON(string(append(buf, '}'))), nil
	}
	def := jsonStyled(&FuncDef{Name: "row_to_json", Strict: true, Result: value.JSONType}, eval)
	return &Func{Def: def, Args: []Expr{arg, pretty}, T: value.JSONType}, true
}

// appendTypedJSON appends v, of type t, as to_json writes it: a record's
// fields under the names t gives them, f1, f2, … past them.
func appendTypedJSON(buf []byte, v value.Value, t value.Type, o jsonOut) []byte {
	d := t.RecordDesc()
	switch {
	case d == nil || v.IsNull():
		return appendJSON(buf, v, o)
	case v.Kind() == value.Record:
		buf = append(buf, '{')
		for i, f := range v.Fields() {
			if i > 0 {
				buf = append(buf, ',')
			}
			if i < len(d.Fields) {
				buf = value.AppendJSONString(buf, d.Fields[i].Name)
				buf = appendTypedJSON(append(buf, ':'), f, d.Fields[i].Type, o)
				continue
			}
			buf = append(append(buf, `"f`...), itoa(i+1)...)
			buf = appendJSON(append(buf, `":`...), f, o)
		}
		return append(buf, '}')
	case v.Kind().IsArray():
		return appendTypedArrayJSON(buf, v.Elems(), v.Dims(), t.ElemType(), o)
	}
	return appendJSON(buf, v, o)
}

// appendTypedArrayJSON is appendArrayJSON for elements of type elem.
func appendTypedArrayJSON(buf []byte, es []value.Value, dims []value.Dim, elem value.Type, o jsonOut) []byte {
	buf = append(buf, '[')
	if len(dims) <= 1 {
		for i, e := range es {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendTypedJSON(buf, e, elem, o)
		}
		return append(buf, ']')
	}
	step := len(es) / dims[0].Len
	for i := 0; i < dims[0].Len; i++ {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendTypedArrayJSON(buf, es[i*step:(i+1)*step], dims[1:], elem, o)
	}
	return append(buf, ']')
}
