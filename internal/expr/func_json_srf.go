package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// jsonSRF is a set-returning function over a json or jsonb document.
type jsonSRF struct {
	names  []string
	asText bool // the values as text (json_each_text, …_elements_text)
	gen    func(fn string, v value.Value, n *value.JSONNode, asText bool, emit func(value.Row) error) error
}

// jsonSRFs are json_each, json_array_elements, json_object_keys and their
// jsonb and _text forms.
var jsonSRFs = map[string]*jsonSRF{}

func init() {
	for _, p := range []string{"json", "jsonb"} {
		jsonSRFs[p+"_each"] = &jsonSRF{names: []string{"key", "value"}, gen: eachPair}
		jsonSRFs[p+"_each_text"] = &jsonSRF{names: []string{"key", "value"}, asText: true, gen: eachPair}
		jsonSRFs[p+"_array_elements"] = &jsonSRF{names: []string{"value"}, gen: eachElement}
		jsonSRFs[p+"_array_elements_text"] = &jsonSRF{names: []string{"value"}, asText: true, gen: eachElement}
		jsonSRFs[p+"_object_keys"] = &jsonSRF{gen: eachKey}
	}
}

// resolveJSONSRF types a call of one of jsonSRFs: one argument of the
// function's own type (json or jsonb; an untyped literal is read as it).
func resolveJSONSRF(name string, args []Expr, ts []value.Type, missing func() error) (*SRF, error) {
	f := jsonSRFs[name]
	k := value.JSON
	if name[:5] == "jsonb" {
		k = value.JSONB
	}
	if len(args) != 1 || ts[0].Kind != k && ts[0].Kind != value.Unknown {
		return nil, missing()
	}
	arg, err := Coerce(args[0], plain(k), false)
	if err != nil {
		return nil, err
	}
	var cols []value.Type
	switch {
	case len(f.names) == 2 && f.asText:
		cols = []value.Type{value.TextType, value.TextType}
	case len(f.names) == 2:
		cols = []value.Type{value.TextType, plain(k)}
	case f.names == nil || f.asText:
		cols = []value.Type{value.TextType}
	default:
		cols = []value.Type{plain(k)}
	}
	srf := &SRF{Name: name, Args: []Expr{arg}, Cols: cols, Names: f.names}
	srf.Gen = func(a []value.Value, emit func(value.Row) error) error {
		if a[0].IsNull() {
			return nil
		}
		n, err := jsonDoc(a[0])
		if err != nil {
			return err
		}
		return f.gen(name, a[0], n, f.asText, emit)
	}
	return srf, nil
}

// scalarOrNot names a document's kind in the errors of the functions that
// need an object or an array.
func scalarOrNot(n *value.JSONNode) string {
	switch n.Type {
	case value.JSONObject:
		return "an object"
	case value.JSONArray:
		return "an array"
	}
	return "a scalar"
}

func eachPair(fn string, v value.Value, n *value.JSONNode, asText bool, emit func(value.Row) error) error {
	if n.Type != value.JSONObject {
		return pgerr.New(pgerr.InvalidParameter, "cannot call %s on a non-object", fn)
	}
	for i, k := range n.Keys {
		if err := emit(value.Row{value.NewText(value.Text, k), jsonResult(v, &n.Elems[i], asText)}); err != nil {
			return err
		}
	}
	return nil
}

func eachElement(fn string, v value.Value, n *value.JSONNode, asText bool, emit func(value.Row) error) error {
	if n.Type != value.JSONArray {
		return pgerr.New(pgerr.InvalidParameter, "cannot extract elements from %s", scalarOrNot(n))
	}
	for i := range n.Elems {
		if err := emit(value.Row{jsonResult(v, &n.Elems[i], asText)}); err != nil {
			return err
		}
	}
	return nil
}

func eachKey(fn string, v value.Value, n *value.JSONNode, asText bool, emit func(value.Row) error) error {
	if n.Type != value.JSONObject {
		return pgerr.New(pgerr.InvalidParameter, "cannot call %s on %s", fn, scalarOrNot(n))
	}
	for _, k := range n.Keys {
		if err := emit(value.Row{value.NewText(value.Text, k)}); err != nil {
			return err
		}
	}
	return nil
}
