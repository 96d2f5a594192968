package expr

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The json and jsonb functions and operators. A json argument is parsed
// at each call, as PostgreSQL does (json keeps only its text); parts of
// it are returned as the text they were written as. A jsonb argument is
// already a parsed document.

var (
	jsonT  = value.JSON
	jsonbT = value.JSONB
	textT  = value.Text
	textA  = value.ArrayOf(value.Text)
)

func init() {
	for _, k := range []value.Kind{jsonT, jsonbT} {
		k := k
		rt := plain(k)
		op := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) {
			register(&FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval,
				Print: func(args []Expr) string { return operand(args[0]) + " " + name + " " + operand(args[1]) }})
		}
		op("->", kinds(k, textT), rt, func(a []value.Value) (value.Value, error) { return jsonGet(a[0], a[1], false) })
		op("->", kinds(k, value.Int4), rt, func(a []value.Value) (value.Value, error) { return jsonGet(a[0], a[1], false) })
		op("->>", kinds(k, textT), value.TextType, func(a []value.Value) (value.Value, error) { return jsonGet(a[0], a[1], true) })
		op("->>", kinds(k, value.Int4), value.TextType, func(a []value.Value) (value.Value, error) { return jsonGet(a[0], a[1], true) })
		op("#>", kinds(k, textA), rt, func(a []value.Value) (value.Value, error) { return jsonPath(a[0], a[1].Elems(), false) })
		op("#>>", kinds(k, textA), value.TextType, func(a []value.Value) (value.Value, error) { return jsonPath(a[0], a[1].Elems(), true) })
		prefix := k.String()
		register(&FuncDef{Name: prefix + "_extract_path", Strict: true, Variadic: true, Params: kinds(k, textT), Result: rt,
			Eval: func(a []value.Value) (value.Value, error) { return jsonPath(a[0], a[1:], false) }})
		register(&FuncDef{Name: prefix + "_extract_path_text", Strict: true, Variadic: true, Params: kinds(k, textT), Result: value.TextType,
			Eval: func(a []value.Value) (value.Value, error) { return jsonPath(a[0], a[1:], true) }})
		strict(prefix+"_typeof", kinds(k), value.TextType, func(a []value.Value) (value.Value, error) {
			n, err := jsonDoc(a[0])
			if err != nil {
				return value.Null, err
			}
			return value.NewText(value.Text, n.Type.String()), nil
		})
		strict(prefix+"_array_length", kinds(k), value.Int4Type, func(a []value.Value) (value.Value, error) {
			n, err := jsonDoc(a[0])
			if err != nil {
				return value.Null, err
			}
			switch n.Type {
			case value.JSONArray:
				return value.NewInt(value.Int4, int64(len(n.Elems))), nil
			case value.JSONObject:
				return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot get array length of a non-array")
			}
			return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot get array length of a scalar")
		})
		strict(prefix+"_strip_nulls", kinds(k), rt, func(a []value.Value) (value.Value, error) {
			n, err := jsonDoc(a[0])
			if err != nil {
				return value.Null, err
			}
			s := stripNulls(*n)
			if k == jsonT {
				return value.NewJSON(string(appendJSONCompact(nil, &s))), nil
			}
			return value.NewJSONB(&s), nil
		})
		register(jsonStyled(&FuncDef{Name: prefix + "_build_object", Variadic: true, Params: kinds(value.Unknown), Result: rt},
			func(a []value.Value, o jsonOut) (value.Value, error) { return buildObject(a, k, o) }))
		register(jsonStyled(&FuncDef{Name: prefix + "_build_array", Variadic: true, Params: kinds(value.Unknown), Result: rt},
			func(a []value.Value, o jsonOut) (value.Value, error) { return buildArray(a, k, o) }))
		register(&FuncDef{Name: prefix + "_build_object", Params: nil, Result: rt,
			Eval: func(a []value.Value) (value.Value, error) { return buildObject(nil, k, utcJSON) }})
		register(&FuncDef{Name: prefix + "_build_array", Params: nil, Result: rt,
			Eval: func(a []value.Value) (value.Value, error) { return buildArray(nil, k, utcJSON) }})
	}
	toJSON := func(a []value.Value, o jsonOut) (value.Value, error) {
		return value.NewJSON(string(appendJSON(nil, a[0], o))), nil
	}
	toJSONBZ := func(a []value.Value, o jsonOut) (value.Value, error) {
		n, err := toJSONB(a[0], o)
		if err != nil {
			return value.Null, err
		}
		return value.NewJSONB(n), nil
	}
	arrayToJSON := func(a []value.Value, o jsonOut) (value.Value, error) {
		if !a[0].Kind().IsArray() {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "could not determine input data type")
		}
		return value.NewJSON(string(appendJSON(nil, a[0], o))), nil
	}
	strictJSON("to_json", kinds(value.Unknown), value.JSONType, toJSON)
	strictJSON("to_jsonb", kinds(value.Unknown), value.JSONBType, toJSONBZ)
	strictJSON("array_to_json", kinds(value.Unknown), value.JSONType, arrayToJSON)
	strict("jsonb_pretty", kinds(jsonbT), value.TextType, func(a []value.Value) (value.Value, error) {
		return value.NewText(value.Text, string(value.AppendJSONBPretty(nil, a[0].JSONB(), 0))), nil
	})
	jop := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) {
		register(&FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval,
			Print: func(args []Expr) string { return operand(args[0]) + " " + name + " " + operand(args[1]) }})
	}
	jop("@>", kinds(jsonbT, jsonbT), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(jsonbContainsTop(a[0].JSONB(), a[1].JSONB())), nil
	})
	jop("<@", kinds(jsonbT, jsonbT), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(jsonbContainsTop(a[1].JSONB(), a[0].JSONB())), nil
	})
	jop("?", kinds(jsonbT, textT), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(jsonbExists(a[0].JSONB(), a[1].Str())), nil
	})
	exists := func(all bool) func(a []value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			for _, e := range a[1].Elems() {
				if e.IsNull() {
					continue
				}
				if jsonbExists(a[0].JSONB(), e.Str()) != all {
					return value.NewBool(!all), nil
				}
			}
			return value.NewBool(all), nil
		}
	}
	jop("?|", kinds(jsonbT, textA), value.BoolType, exists(false))
	jop("?&", kinds(jsonbT, textA), value.BoolType, exists(true))
	jop("||", kinds(jsonbT, jsonbT), value.JSONBType, func(a []value.Value) (value.Value, error) {
		return value.NewJSONB(jsonbConcat(a[0].JSONB(), a[1].JSONB())), nil
	})
	jop("-", kinds(jsonbT, textT), value.JSONBType, func(a []value.Value) (value.Value, error) {
		return jsonbDeleteKeys(a[0].JSONB(), []value.Value{a[1]})
	})
	jop("-", kinds(jsonbT, textA), value.JSONBType, func(a []value.Value) (value.Value, error) {
		return jsonbDeleteKeys(a[0].JSONB(), a[1].Elems())
	})
	jop("-", kinds(jsonbT, value.Int4), value.JSONBType, func(a []value.Value) (value.Value, error) {
		return jsonbDeleteIndex(a[0].JSONB(), a[1].Int())
	})
	jop("#-", kinds(jsonbT, textA), value.JSONBType, func(a []value.Value) (value.Value, error) {
		return jsonbDeletePath(a[0].JSONB(), a[1].Elems())
	})
	set := func(a []value.Value) (value.Value, error) {
		create := len(a) < 4 || a[3].Bool()
		return jsonbSet(a[0].JSONB(), a[1].Elems(), a[2].JSONB(), create)
	}
	strict("jsonb_set", kinds(jsonbT, textA, jsonbT), value.JSONBType, set)
	strict("jsonb_set", kinds(jsonbT, textA, jsonbT, value.Bool), value.JSONBType, set)
	register(&FuncDef{Name: jsonAggFinish, Strict: true, Params: kinds(value.ArrayOf(jsonT), value.Bool), Result: value.JSONType,
		Eval: func(a []value.Value) (value.Value, error) { return finishJSONAgg(a[0].Elems(), a[1].Bool()), nil }})
	register(jsonStyled(&FuncDef{Name: JSONAggDistinctFinish, Strict: true, Params: kinds(value.Unknown, value.Bool), Result: value.JSONType},
		func(a []value.Value, o jsonOut) (value.Value, error) {
			return finishJSONAggValues(a[0].Elems(), a[1].Bool(), o), nil
		}))
	register(&FuncDef{Name: jsonbAggFinish, Strict: true, Params: kinds(value.ArrayOf(jsonbT)), Result: value.JSONBType,
		Eval: func(a []value.Value) (value.Value, error) { return finishJSONBAgg(a[0].Elems()), nil }})
	register(&FuncDef{Name: jsonObjectAggFinish, Strict: true, Params: kinds(value.ArrayOf(jsonT)), Result: value.JSONType,
		Eval: func(a []value.Value) (value.Value, error) { return finishJSONObjectAgg(a[0].Elems(), jsonT) }})
	register(&FuncDef{Name: jsonbObjectAggFinish, Strict: true, Params: kinds(value.ArrayOf(jsonT)), Result: value.JSONBType,
		Eval: func(a []value.Value) (value.Value, error) { return finishJSONObjectAgg(a[0].Elems(), jsonbT) }})
	register(jsonStyled(&FuncDef{Name: jsonAggPair, Params: kinds(value.Unknown, value.Unknown), Result: value.JSONType},
		func(a []value.Value, o jsonOut) (value.Value, error) { return aggPair(a[0], a[1], o) }))
}

// The functions that json_agg, jsonb_agg, json_object_agg and
// jsonb_object_agg are bound as, over array_agg of each value's json (see
// the binder): their names cannot be written in SQL without quotes.
const (
	jsonAggFinish        = "json_agg finish"
	jsonbAggFinish       = "jsonb_agg finish"
	jsonObjectAggFinish  = "json_object_agg finish"
	jsonbObjectAggFinish = "jsonb_object_agg finish"
	jsonAggPair          = "json_object_agg pair"
	// JSONAggDistinctFinish is json_agg(DISTINCT x)'s finish: over
	// array_agg(DISTINCT x) of the values themselves, since json has no
	// equality to tell their json apart; each value is made json here.
	JSONAggDistinctFinish = "json_agg distinct finish"
)

// JSONAggFuncs names the catalog functions an aggregate of json is bound
// as: the per-value function wrapped around its argument (to_json,
// to_jsonb, or a pair's for the object aggregates) and the finish applied
// to array_agg of those values. ok is false for other aggregates.
func JSONAggFuncs(name string) (perValue, finish string, ok bool) {
	switch name {
	case "json_agg":
		return "to_json", jsonAggFinish, true
	case "jsonb_agg":
		return "to_jsonb", jsonbAggFinish, true
	case "json_object_agg":
		return jsonAggPair, jsonObjectAggFinish, true
	case "jsonb_object_agg":
		return jsonAggPair, jsonbObjectAggFinish, true
	}
	return "", "", false
}

// jsonDoc returns a json or jsonb value's document.
func jsonDoc(v value.Value) (*value.JSONNode, error) {
	if v.Kind() == value.JSONB {
		return v.JSONB(), nil
	}
	return value.ParseJSON(v.JSONText(), false)
}

// jsonResult is a node of v's document as a value of v's kind, or its
// text (a string's value; NULL for a JSON null) when asText.
func jsonResult(v value.Value, n *value.JSONNode, asText bool) value.Value {
	if n == nil {
		return value.Null
	}
	if asText {
		switch n.Type {
		case value.JSONNull:
			return value.Null
		case value.JSONString:
			return value.NewText(value.Text, n.Str)
		}
		if v.Kind() == value.JSON {
			return value.NewText(value.Text, n.Raw)
		}
		return value.NewText(value.Text, string(value.AppendJSONB(nil, n)))
	}
	if v.Kind() == value.JSON {
		return value.NewJSON(n.Raw)
	}
	return value.NewJSONB(n)
}

// field returns an object's value under key: the last one for a json
// object written with duplicates.
func field(n *value.JSONNode, key string) *value.JSONNode {
	if n.Type != value.JSONObject {
		return nil
	}
	for i := len(n.Keys) - 1; i >= 0; i-- {
		if n.Keys[i] == key {
			return &n.Elems[i]
		}
	}
	return nil
}

// element returns an array's element i, counted from the end when
// negative.
func element(n *value.JSONNode, i int64) *value.JSONNode {
	if n.Type != value.JSONArray {
		return nil
	}
	if i < 0 {
		i += int64(len(n.Elems))
	}
	if i < 0 || i >= int64(len(n.Elems)) {
		return nil
	}
	return &n.Elems[i]
}

func jsonGet(v, key value.Value, asText bool) (value.Value, error) {
	n, err := jsonDoc(v)
	if err != nil {
		return value.Null, err
	}
	if key.Kind().IsInteger() {
		if i := key.Int(); v.Kind() == value.JSONB && n.Type < value.JSONArray {
			// A top-level jsonb scalar is stored as an array of one.
			if i == 0 || i == -1 {
				return jsonResult(v, n, asText), nil
			}
			return value.Null, nil
		}
		return jsonResult(v, element(n, key.Int()), asText), nil
	}
	return jsonResult(v, field(n, key.Str()), asText), nil
}

// jsonPath follows a path of keys and array indexes (#>, #>>,
// json_extract_path): a missing step or a NULL in the path is NULL.
func jsonPath(v value.Value, path []value.Value, asText bool) (value.Value, error) {
	n, err := jsonDoc(v)
	if err != nil {
		return value.Null, err
	}
	if len(path) == 0 && v.Kind() == value.JSON && (!asText || n.Type > value.JSONNull && n.Type != value.JSONString) {
		// A container as written; a scalar with the white space before it
		// (PostgreSQL's lexer starts it at the input's start).
		if n.Type >= value.JSONArray {
			return jsonResult(v, n, asText), nil
		}
		return jsonResult(v, &value.JSONNode{Type: n.Type, Raw: strings.TrimRight(v.JSONText(), " \t\n\r")}, asText), nil
	}
	for _, p := range path {
		if p.IsNull() {
			return value.Null, nil
		}
		switch n.Type {
		case value.JSONObject:
			n = field(n, p.Str())
		case value.JSONArray:
			i, err := strconv.ParseInt(strings.TrimSpace(p.Str()), 10, 32)
			if err != nil {
				return value.Null, nil
			}
			n = element(n, i)
		default:
			n = nil
		}
		if n == nil {
			return value.Null, nil
		}
	}
	return jsonResult(v, n, asText), nil
}

// AppendToJSON appends v as to_json writes it: numbers and booleans bare
// (a non-finite number quoted), json as it is, jsonb in its output form,
// arrays as JSON arrays without spaces, dates and timestamps in ISO 8601
// with a T, anything else as a JSON string of its text output.
func AppendToJSON(buf []byte, v value.Value) []byte { return appendJSON(buf, v, utcJSON) }

// appendJSON is AppendToJSON in the session's json output o: timestamptz,
// alone or within arrays and records, in its zone, floats and geometric
// values under its extra_float_digits, as PostgreSQL writes them.
func appendJSON(buf []byte, v value.Value, o jsonOut) []byte {
	k := v.Kind()
	switch {
	case v.IsNull():
		return append(buf, "null"...)
	case k == value.Bool:
		if v.Bool() {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case k.IsNumeric():
		start := len(buf)
		buf = value.AppendTextZone(buf, v, o.st, o.z)
		if s := string(buf[start:]); s == "NaN" || strings.HasSuffix(s, "Infinity") {
			return value.AppendJSONString(buf[:start], s)
		}
		return buf
	case k == value.JSON:
		return append(buf, v.JSONText()...)
	case k == value.JSONB:
		return value.AppendJSONB(buf, v.JSONB())
	case k == value.Record:
		return appendRecordJSON(buf, v, o)
	case k.IsArray():
		return appendArrayJSON(buf, v.Elems(), v.Dims(), o)
	case k == value.Timestamp || k == value.TimestampTZ:
		return value.AppendJSONString(buf, jsonTimeText(v, o))
	}
	if o.st.FloatRounded() && HoldsFloat(k) {
		return value.AppendJSONString(buf, string(value.AppendTextZone(nil, v, o.st, o.z)))
	}
	return value.AppendJSONString(buf, string(value.AppendText(nil, v)))
}

// jsonTimeText is a timestamp's ISO 8601 text, with a T, as json writes
// it (a value or an object's key); timestamptz in the session's zone, floats under its extra_float_digits.
func jsonTimeText(v value.Value, o jsonOut) string {
	s := zoneText(v, o)
	if i := strings.IndexByte(s, ' '); i > 0 && !strings.HasSuffix(s, " BC") {
		s = s[:i] + "T" + s[i+1:]
	}
	if v.Kind() == value.TimestampTZ {
		if i := strings.LastIndexAny(s, "+-"); i > 10 && len(s)-i == 3 {
			s += ":00"
		}
	}
	return s
}

// zoneText is v's text output in the session's json output o.
func zoneText(v value.Value, o jsonOut) string {
	if o.st == value.TextDefault && o.z.IsUTC() {
		return string(value.AppendText(nil, v))
	}
	return string(value.AppendTextZone(nil, v, o.st, o.z))
}

// ToJSONB is to_jsonb(v).
func ToJSONB(v value.Value) (*value.JSONNode, error) { return toJSONB(v, utcJSON) }

// toJSONB is ToJSONB with timestamptz in the session's zone, floats under its extra_float_digits.
func toJSONB(v value.Value, o jsonOut) (*value.JSONNode, error) {
	k := v.Kind()
	switch {
	case v.IsNull():
		return &value.JSONNode{Type: value.JSONNull}, nil
	case k == value.JSONB:
		return v.JSONB(), nil
	case k == value.Bool:
		return &value.JSONNode{Type: value.JSONBool, Bool: v.Bool()}, nil
	}
	// Through the text to_json writes: numbers become numerics, a
	// non-finite float a string, as in PostgreSQL.
	return value.ParseJSON(string(appendJSON(nil, v, o)), true)
}

// buildObject is json(b)_build_object: keys and values alternate.
func buildObject(a []value.Value, k value.Kind, o jsonOut) (value.Value, error) {
	if len(a)%2 != 0 {
		return value.Null, pgerr.New(pgerr.InvalidParameter, "argument list must have even number of elements").
			WithHint("The arguments of %s_build_object() must consist of alternating keys and values.", k)
	}
	for i := 0; i < len(a); i += 2 {
		if a[i].IsNull() {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "argument %d cannot be null", i+1).
				WithHint("Object keys should be text.")
		}
	}
	if k == value.JSON {
		buf := []byte{'{'}
		for i := 0; i < len(a); i += 2 {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = value.AppendJSONString(buf, keyText(a[i], o))
			buf = append(buf, " : "...)
			buf = appendJSON(buf, a[i+1], o)
		}
		return value.NewJSON(string(append(buf, '}'))), nil
	}
	n := &value.JSONNode{Type: value.JSONObject}
	for i := 0; i < len(a); i += 2 {
		e, err := toJSONB(a[i+1], o)
		if err != nil {
			return value.Null, err
		}
		n.Keys = append(n.Keys, keyText(a[i], o))
		n.Elems = append(n.Elems, *e)
	}
	value.NormalizeJSONB(n)
	return value.NewJSONB(n), nil
}

// keyText is an object key given as any value: its text output.
func keyText(v value.Value, o jsonOut) string {
	if v.Kind().IsString() {
		return v.Str()
	}
	if v.Kind() == value.Bool {
		if v.Bool() {
			return "true"
		}
		return "false"
	}
	if k := v.Kind(); k == value.Timestamp || k == value.TimestampTZ {
		return jsonTimeText(v, o)
	}
	return zoneText(v, o)
}

func buildArray(a []value.Value, k value.Kind, o jsonOut) (value.Value, error) {
	if k == value.JSON {
		buf := []byte{'['}
		for i, v := range a {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendJSON(buf, v, o)
		}
		return value.NewJSON(string(append(buf, ']'))), nil
	}
	n := &value.JSONNode{Type: value.JSONArray, Elems: make([]value.JSONNode, 0, len(a))}
	for _, v := range a {
		e, err := toJSONB(v, o)
		if err != nil {
			return value.Null, err
		}
		n.Elems = append(n.Elems, *e)
	}
	return value.NewJSONB(n), nil
}

// appendJSONCompact writes a json document without white space, as
// json_strip_nulls does.
func appendJSONCompact(buf []byte, n *value.JSONNode) []byte {
	switch n.Type {
	case value.JSONArray:
		buf = append(buf, '[')
		for i := range n.Elems {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONCompact(buf, &n.Elems[i])
		}
		return append(buf, ']')
	case value.JSONObject:
		buf = append(buf, '{')
		for i := range n.Elems {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = value.AppendJSONString(buf, n.Keys[i])
			buf = append(buf, ':')
			buf = appendJSONCompact(buf, &n.Elems[i])
		}
		return append(buf, '}')
	case value.JSONString:
		return value.AppendJSONString(buf, n.Str)
	}
	if n.Raw != "" {
		return append(buf, n.Raw...)
	}
	return value.AppendJSONB(buf, n)
}

// stripNulls drops the object fields whose value is null, at every depth.
func stripNulls(n value.JSONNode) value.JSONNode {
	switch n.Type {
	case value.JSONArray:
		es := make([]value.JSONNode, len(n.Elems))
		for i := range n.Elems {
			es[i] = stripNulls(n.Elems[i])
		}
		n.Elems = es
	case value.JSONObject:
		var keys []string
		var es []value.JSONNode
		for i := range n.Elems {
			if n.Elems[i].Type == value.JSONNull {
				continue
			}
			keys = append(keys, n.Keys[i])
			es = append(es, stripNulls(n.Elems[i]))
		}
		n.Keys, n.Elems = keys, es
	}
	return n
}

// jsonbContainsTop is a @> b: the two must both be objects or both not.
func jsonbContainsTop(a, b *value.JSONNode) bool {
	if (a.Type == value.JSONObject) != (b.Type == value.JSONObject) {
		return false
	}
	if a.Type != value.JSONArray && b.Type != value.JSONArray && a.Type != value.JSONObject {
		return jsonScalarEqual(a, b) // two raw scalars
	}
	if a.Type != value.JSONArray && a.Type != value.JSONObject {
		return false // a raw scalar contains no array
	}
	if b.Type != value.JSONArray && b.Type != value.JSONObject {
		for i := range a.Elems {
			if jsonScalarEqual(&a.Elems[i], b) {
				return true
			}
		}
		return false
	}
	return jsonbContains(a, b)
}

// jsonbContains is PostgreSQL's JsonbDeepContains of two containers of one
// type: every pair of an object in the other's, every element of an array
// in some element of the other.
func jsonbContains(a, b *value.JSONNode) bool {
	if a.Type != b.Type {
		return false
	}
	if a.Type == value.JSONObject {
		for i, k := range b.Keys {
			v := field(a, k)
			if v == nil {
				return false
			}
			w := &b.Elems[i]
			if w.Type < value.JSONArray {
				if !jsonScalarEqual(v, w) {
					return false
				}
			} else if !jsonbContains(v, w) {
				return false
			}
		}
		return true
	}
	for i := range b.Elems {
		w := &b.Elems[i]
		found := false
		for j := range a.Elems {
			v := &a.Elems[j]
			if w.Type < value.JSONArray && jsonScalarEqual(v, w) || w.Type >= value.JSONArray && jsonbContains(v, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func jsonScalarEqual(a, b *value.JSONNode) bool {
	if a.Type != b.Type || a.Type >= value.JSONArray {
		return false
	}
	switch a.Type {
	case value.JSONString:
		return a.Str == b.Str
	case value.JSONNumber:
		return value.Compare(a.Num, b.Num) == 0
	case value.JSONBool:
		return a.Bool == b.Bool
	}
	return true
}

// jsonbExists is ?: a top-level key, or a string element of a top-level
// array (or the string itself).
func jsonbExists(n *value.JSONNode, s string) bool {
	switch n.Type {
	case value.JSONObject:
		return field(n, s) != nil
	case value.JSONArray:
		for i := range n.Elems {
			if e := &n.Elems[i]; e.Type == value.JSONString && e.Str == s {
				return true
			}
		}
		return false
	case value.JSONString:
		return n.Str == s
	}
	return false
}

// asElems is a jsonb operand of || as a list of array elements: an
// array's own, or the value alone.
func asElems(n *value.JSONNode) []value.JSONNode {
	if n.Type == value.JSONArray {
		return n.Elems
	}
	return []value.JSONNode{*n}
}

func jsonbConcat(a, b *value.JSONNode) *value.JSONNode {
	if a.Type == value.JSONObject && b.Type == value.JSONObject {
		n := &value.JSONNode{Type: value.JSONObject}
		n.Keys = append(append(n.Keys, a.Keys...), b.Keys...)
		n.Elems = append(append(n.Elems, a.Elems...), b.Elems...)
		value.NormalizeJSONB(n)
		return n
	}
	x, y := asElems(a), asElems(b)
	es := make([]value.JSONNode, 0, len(x)+len(y))
	return &value.JSONNode{Type: value.JSONArray, Elems: append(append(es, x...), y...)}
}

func errScalarDelete() error {
	return pgerr.New(pgerr.InvalidParameter, "cannot delete from scalar")
}

func jsonbDeleteKeys(n *value.JSONNode, keys []value.Value) (value.Value, error) {
	if n.Type != value.JSONObject && n.Type != value.JSONArray {
		return value.Null, errScalarDelete()
	}
	drop := func(s string) bool {
		for _, k := range keys {
			if !k.IsNull() && k.Str() == s {
				return true
			}
		}
		return false
	}
	out := &value.JSONNode{Type: n.Type}
	for i := range n.Elems {
		e := &n.Elems[i]
		if n.Type == value.JSONObject {
			if drop(n.Keys[i]) {
				continue
			}
			out.Keys = append(out.Keys, n.Keys[i])
		} else if e.Type == value.JSONString && drop(e.Str) {
			continue
		}
		out.Elems = append(out.Elems, *e)
	}
	return value.NewJSONB(out), nil
}

func jsonbDeleteIndex(n *value.JSONNode, i int64) (value.Value, error) {
	switch n.Type {
	case value.JSONObject:
		return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot delete from object using integer index")
	case value.JSONArray:
	default:
		return value.Null, errScalarDelete()
	}
	if i < 0 {
		i += int64(len(n.Elems))
	}
	if i < 0 || i >= int64(len(n.Elems)) {
		return value.NewJSONB(n), nil
	}
	es := make([]value.JSONNode, 0, len(n.Elems)-1)
	es = append(append(es, n.Elems[:i]...), n.Elems[i+1:]...)
	return value.NewJSONB(&value.JSONNode{Type: value.JSONArray, Elems: es}), nil
}

// pathIndex reads a path element as an array index.
func pathIndex(p value.Value, pos int) (int64, error) {
	i, err := strconv.ParseInt(strings.TrimSpace(p.Str()), 10, 32)
	if err != nil {
		return 0, pgerr.New(pgerr.InvalidTextRep, "path element at position %d is not an integer: \"%s\"", pos, p.Str())
	}
	return i, nil
}

func jsonbDeletePath(n *value.JSONNode, path []value.Value) (value.Value, error) {
	if n.Type != value.JSONObject && n.Type != value.JSONArray {
		return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot delete path in scalar")
	}
	for i, p := range path {
		if p.IsNull() {
			return value.Null, pgerr.New("22004", "path element at position %d is null", i+1)
		}
	}
	if len(path) == 0 || len(n.Elems) == 0 {
		return value.NewJSONB(n), nil // an empty container is returned as it is, as in PostgreSQL
	}
	out, err := editPath(n, path, 0, nil, false)
	if err != nil {
		return value.Null, err
	}
	return value.NewJSONB(out), nil
}

// editPath returns a copy of n with the node at path[depth:] replaced by
// repl, or deleted when repl is nil; create adds a missing last step (an
// object key, or an array element before the first or after the last).
func editPath(n *value.JSONNode, path []value.Value, depth int, repl *value.JSONNode, create bool) (*value.JSONNode, error) {
	last := depth == len(path)-1
	p := path[depth]
	switch n.Type {
	case value.JSONObject:
		key := p.Str()
		out := &value.JSONNode{Type: value.JSONObject}
		found := false
		for i := range n.Elems {
			e := n.Elems[i]
			if n.Keys[i] == key {
				found = true
				switch {
				case last && repl == nil:
					continue
				case last:
					e = *repl
				default:
					c, err := editPath(&n.Elems[i], path, depth+1, repl, create)
					if err != nil {
						return nil, err
					}
					e = *c
				}
			}
			out.Keys = append(out.Keys, n.Keys[i])
			out.Elems = append(out.Elems, e)
		}
		if !found && last && repl != nil && create {
			out.Keys = append(out.Keys, key)
			out.Elems = append(out.Elems, *repl)
			value.NormalizeJSONB(out)
		}
		return out, nil
	case value.JSONArray:
		i, err := pathIndex(p, depth+1)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			i += int64(len(n.Elems))
		}
		out := &value.JSONNode{Type: value.JSONArray}
		if i < 0 || i >= int64(len(n.Elems)) {
			out.Elems = append(out.Elems, n.Elems...)
			if last && repl != nil && create {
				if i < 0 {
					out.Elems = append([]value.JSONNode{*repl}, out.Elems...)
				} else {
					out.Elems = append(out.Elems, *repl)
				}
			}
			return out, nil
		}
		for j := range n.Elems {
			e := n.Elems[j]
			if int64(j) == i {
				switch {
				case last && repl == nil:
					continue
				case last:
					e = *repl
				default:
					c, err := editPath(&n.Elems[j], path, depth+1, repl, create)
					if err != nil {
						return nil, err
					}
					e = *c
				}
			}
			out.Elems = append(out.Elems, e)
		}
		return out, nil
	}
	return n, nil
}

func jsonbSet(n *value.JSONNode, path []value.Value, repl *value.JSONNode, create bool) (value.Value, error) {
	if n.Type != value.JSONObject && n.Type != value.JSONArray {
		return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot set path in scalar")
	}
	for i, p := range path {
		if p.IsNull() {
			return value.Null, pgerr.New("22004", "path element at position %d is null", i+1)
		}
	}
	if len(path) == 0 || len(n.Elems) == 0 && !create {
		return value.NewJSONB(n), nil
	}
	out, err := editPath(n, path, 0, repl, create)
	if err != nil {
		return value.Null, err
	}
	return value.NewJSONB(out), nil
}

// finishJSONAgg writes json_agg's result from each value's json: "[a, b]",
// with a line break before each element after the first when the values
// are arrays or rows.
func finishJSONAgg(vals []value.Value, structured bool) value.Value {
	buf := []byte{'['}
	for i, v := range vals {
		if i > 0 {
			buf = append(buf, ", "...)
			if structured {
				buf = append(buf, "\n "...)
			}
		}
		if v.IsNull() {
			buf = append(buf, "null"...)
			continue
		}
		buf = append(buf, v.JSONText()...)
	}
	return value.NewJSON(string(append(buf, ']')))
}

// finishJSONAggValues is finishJSONAgg of each value's json, written in
// the session's json output o.
func finishJSONAggValues(vals []value.Value, structured bool, o jsonOut) value.Value {
	docs := make([]value.Value, len(vals))
	for i, v := range vals {
		if !v.IsNull() {
			docs[i] = value.NewJSON(string(appendJSON(nil, v, o)))
		}
	}
	return finishJSONAgg(docs, structured)
}

func finishJSONBAgg(vals []value.Value) value.Value {
	n := &value.JSONNode{Type: value.JSONArray, Elems: make([]value.JSONNode, len(vals))}
	for i, v := range vals {
		if v.IsNull() {
			n.Elems[i] = value.JSONNode{Type: value.JSONNull}
			continue
		}
		n.Elems[i] = *v.JSONB()
	}
	return value.NewJSONB(n)
}

// aggPair is one value of json_object_agg(k, v) before its finish: the
// json array [key as a string, value's json], or NULL for a NULL key,
// which the finish refuses.
func aggPair(k, v value.Value, o jsonOut) (value.Value, error) {
	if k.IsNull() {
		return value.Null, nil
	}
	buf := value.AppendJSONString([]byte{'['}, keyText(k, o))
	buf = append(buf, ',')
	buf = appendJSON(buf, v, o)
	return value.NewJSON(string(append(buf, ']'))), nil
}

// finishJSONObjectAgg writes json_object_agg's "{ "a" : 1, "b" : 2 }", or
// builds jsonb_object_agg's object, from aggPair's pairs.
func finishJSONObjectAgg(pairs []value.Value, k value.Kind) (value.Value, error) {
	buf := []byte("{ ")
	n := &value.JSONNode{Type: value.JSONObject}
	for i, p := range pairs {
		if p.IsNull() {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "field name must not be null")
		}
		d, err := value.ParseJSON(p.JSONText(), k == value.JSONB)
		if err != nil {
			return value.Null, err
		}
		if k == value.JSONB {
			n.Keys = append(n.Keys, d.Elems[0].Str)
			n.Elems = append(n.Elems, d.Elems[1])
			continue
		}
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = append(buf, d.Elems[0].Raw...)
		buf = append(buf, " : "...)
		buf = append(buf, d.Elems[1].Raw...)
	}
	if k == value.JSONB {
		value.NormalizeJSONB(n)
		return value.NewJSONB(n), nil
	}
	return value.NewJSON(string(append(buf, " }"...))), nil
}
