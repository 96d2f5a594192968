package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// json_object(text[]) and jsonb_object(text[]) build an object from
// alternating keys and values, json_object(keys, values) and
// jsonb_object(keys, values) from two arrays; every value is a string (a
// NULL value is null), a NULL key is 22004. json keeps every pair, as
// written ({"a" : "1", "b" : "2"}); jsonb keeps the last of duplicate
// keys. The one-argument form also takes a two-dimensional array of
// pairs ({{a,1},{b,2}}); the errors on other shapes are PostgreSQL's
// (2202E).
func init() {
	for _, k := range []value.Kind{jsonT, jsonbT} {
		k := k
		name := k.String() + "_object"
		strict(name, kinds(textA), plain(k), func(a []value.Value) (value.Value, error) {
			es := a[0].Elems()
			switch a[0].NDims() {
			case 0:
			case 1:
				if len(es)%2 != 0 {
					return value.Null, pgerr.New("2202E", "array must have even number of elements")
				}
			case 2:
				if a[0].Dims()[1].Len != 2 {
					return value.Null, pgerr.New("2202E", "array must have two columns")
				}
			default:
				return value.Null, pgerr.New("2202E", "wrong number of array subscripts")
			}
			keys := make([]value.Value, 0, len(es)/2)
			vals := make([]value.Value, 0, len(es)/2)
			for i := 0; i < len(es); i += 2 {
				keys = append(keys, es[i])
				vals = append(vals, es[i+1])
			}
			return jsonObjectOf(k, keys, vals)
		})
		strict(name, kinds(textA, textA), plain(k), func(a []value.Value) (value.Value, error) {
			if a[0].NDims() > 1 || a[0].NDims() != a[1].NDims() {
				return value.Null, pgerr.New("2202E", "wrong number of array subscripts")
			}
			keys, vals := a[0].Elems(), a[1].Elems()
			if len(keys) != len(vals) {
				return value.Null, pgerr.New("2202E", "mismatched array dimensions")
			}
			return jsonObjectOf(k, keys, vals)
		})
	}
}

func jsonObjectOf(k value.Kind, keys, vals []value.Value) (value.Value, error) {
	for _, key := range keys {
		if key.IsNull() {
			return value.Null, pgerr.New("22004", "null value not allowed for object key")
		}
	}
	if k == jsonT {
		buf := []byte{'{'}
		for i, key := range keys {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = append(value.AppendJSONString(buf, key.Str()), " : "...)
			if vals[i].IsNull() {
				buf = append(buf, "null"...)
			} else {
				buf = value.AppendJSONString(buf, vals[i].Str())
			}
		}
		return value.NewJSON(string(append(buf, '}'))), nil
	}
	n := &value.JSONNode{Type: value.JSONObject}
	for i, key := range keys {
		n.Keys = append(n.Keys, key.Str())
		v := value.JSONNode{Type: value.JSONNull}
		if !vals[i].IsNull() {
			v = value.JSONNode{Type: value.JSONString, Str: vals[i].Str()}
		}
		n.Elems = append(n.Elems, v)
	}
	value.NormalizeJSONB(n)
	return value.NewJSONB(n), nil
}
