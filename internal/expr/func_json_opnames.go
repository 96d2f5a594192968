package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The names under which PostgreSQL's catalog offers the json and jsonb
// operators as functions (jsonb_exists for ?, jsonb_contains for @>,
// json_object_field for ->, jsonb_path_exists_opr for @?, jsonb_cmp and
// jsonb_eq … behind the comparisons): each evaluates as its operator.
// None keeps state.
func init() {
	I4, B := value.Int4, value.BoolType
	alias := func(name, of string, params []value.Kind, result value.Type) {
		strict(name, params, result, sameAs(of, params))
	}
	alias("jsonb_exists", "?", kinds(jsonbT, textT), B)
	alias("jsonb_exists_any", "?|", kinds(jsonbT, textA), B)
	alias("jsonb_exists_all", "?&", kinds(jsonbT, textA), B)
	alias("jsonb_contains", "@>", kinds(jsonbT, jsonbT), B)
	alias("jsonb_contained", "<@", kinds(jsonbT, jsonbT), B)
	alias("jsonb_concat", "||", kinds(jsonbT, jsonbT), value.JSONBType)
	alias("jsonb_delete", "-", kinds(jsonbT, textT), value.JSONBType)
	alias("jsonb_delete", "-", kinds(jsonbT, I4), value.JSONBType)
	// jsonb_delete(jsonb, VARIADIC text[]) is the operator - with a
	// text[]: each key given is removed, a NULL key ignored.
	register(&FuncDef{Name: "jsonb_delete", Variadic: true, Params: kinds(jsonbT, textT), Result: value.JSONBType,
		Eval: func(a []value.Value) (value.Value, error) {
			if a[0].IsNull() {
				return value.Null, nil
			}
			keys := make([]value.Value, 0, len(a)-1)
			for _, k := range a[1:] {
				if !k.IsNull() {
					keys = append(keys, k)
				}
			}
			return jsonbDeleteKeys(a[0].JSONB(), keys)
		}})
	alias("jsonb_delete_path", "#-", kinds(jsonbT, textA), value.JSONBType)
	alias("jsonb_path_exists_opr", "@?", kinds(jsonbT, jsonpathT), B)
	alias("jsonb_path_match_opr", "@@", kinds(jsonbT, jsonpathT), B)
	for _, k := range []value.Kind{jsonT, jsonbT} {
		p, rt := k.String(), plain(k)
		alias(p+"_object_field", "->", kinds(k, textT), rt)
		alias(p+"_object_field_text", "->>", kinds(k, textT), value.TextType)
		alias(p+"_array_element", "->", kinds(k, I4), rt)
		alias(p+"_array_element_text", "->>", kinds(k, I4), value.TextType)
	}
	// jsonb's btree support and comparison functions: jsonb's order;
	// jsonb_cmp gives two strings' raw difference, as the C collation's
	// varstr_cmp does.
	strict("jsonb_cmp", kinds(jsonbT, jsonbT), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int4, int64(value.CompareJSONB(a[0], a[1], memcmpDiff))), nil
	})
	cmp := func(name string, holds func(c int) bool) {
		strict(name, kinds(jsonbT, jsonbT), B, func(a []value.Value) (value.Value, error) {
			return value.NewBool(holds(value.Compare(a[0], a[1]))), nil
		})
	}
	cmp("jsonb_eq", func(c int) bool { return c == 0 })
	cmp("jsonb_ne", func(c int) bool { return c != 0 })
	cmp("jsonb_lt", func(c int) bool { return c < 0 })
	cmp("jsonb_le", func(c int) bool { return c <= 0 })
	cmp("jsonb_gt", func(c int) bool { return c > 0 })
	cmp("jsonb_ge", func(c int) bool { return c >= 0 })
}
