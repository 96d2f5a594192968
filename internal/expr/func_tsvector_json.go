package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// to_tsvector over json and jsonb and json(b)_to_tsvector: the lexemes of
// the document's strings (and, as the filter asks, numbers, booleans and
// keys), in document order: a json's text order, a jsonb's stored order.

// The kinds of JSON values a filter selects.
const (
	jsonTSString = 1 << iota
	jsonTSNumeric
	jsonTSBool
	jsonTSKey
)

const jsonTSFlagsHint = `Possible values are: "string", "numeric", "boolean", "key", and "all".`

// jsonTSFlags reads a filter: a string or an array of strings.
func jsonTSFlags(f *value.JSONNode) (int, error) {
	elems := []value.JSONNode{*f}
	switch f.Type {
	case value.JSONArray:
		elems = f.Elems
	case value.JSONObject:
		return 0, pgerr.New(pgerr.InvalidParameter, "wrong flag type, only arrays and scalars are allowed")
	}
	flags := 0
	for _, e := range elems {
		if e.Type != value.JSONString {
			return 0, pgerr.New(pgerr.InvalidParameter, "flag array element is not a string").WithHint(jsonTSFlagsHint)
		}
		switch strings.ToLower(e.Str) {
		case "all":
			flags |= jsonTSString | jsonTSNumeric | jsonTSBool | jsonTSKey
		case "key":
			flags |= jsonTSKey
		case "string":
			flags |= jsonTSString
		case "numeric":
			flags |= jsonTSNumeric
		case "boolean":
			flags |= jsonTSBool
		default:
			return 0, pgerr.New(pgerr.InvalidParameter, "wrong flag in flag array: \"%s\"", e.Str).WithHint(jsonTSFlagsHint)
		}
	}
	return flags, nil
}

// jsonTSParts passes to emit the texts of n's values that flags select.
func jsonTSParts(n *value.JSONNode, flags int, emit func(string)) {
	switch n.Type {
	case value.JSONString:
		if flags&jsonTSString != 0 {
			emit(n.Str)
		}
	case value.JSONNumber:
		if flags&jsonTSNumeric != 0 {
			if n.Raw != "" {
				emit(n.Raw)
			} else {
				emit(string(value.AppendJSONB(nil, n)))
			}
		}
	case value.JSONBool:
		if flags&jsonTSBool != 0 {
			emit(map[bool]string{true: "true", false: "false"}[n.Bool])
		}
	case value.JSONArray, value.JSONObject:
		for i := range n.Elems {
			if n.Type == value.JSONObject && flags&jsonTSKey != 0 {
				emit(n.Keys[i])
			}
			jsonTSParts(&n.Elems[i], flags, emit)
		}
	}
}

// jsonToTSVector is json(b)_to_tsvector(config, doc, filter), and with
// the filter "string" to_tsvector(config, doc).
func jsonToTSVector(cfg, doc value.Value, flags int) (value.Value, error) {
	c, err := TSConfig(cfg)
	if err != nil {
		return value.Null, err
	}
	n, err := jsonDoc(doc)
	if err != nil {
		return value.Null, err
	}
	return tsVector(c.ToVectorParts(func(emit func(string)) { jsonTSParts(n, flags, emit) })), nil
}

func init() {
	tsvT := value.TSVectorType
	for _, k := range []value.Kind{value.JSON, value.JSONB} {
		strict("to_tsvector", kinds(value.RegConfig, k), tsvT, func(a []value.Value) (value.Value, error) {
			return jsonToTSVector(a[0], a[1], jsonTSString)
		})
		name := "json_to_tsvector"
		if k == value.JSONB {
			name = "jsonb_to_tsvector"
		}
		strict(name, kinds(value.RegConfig, k, value.JSONB), tsvT, func(a []value.Value) (value.Value, error) {
			flags, err := jsonTSFlags(a[2].JSONB())
			if err != nil {
				return value.Null, err
			}
			return jsonToTSVector(a[0], a[1], flags)
		})
	}
}
