package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// recordJSON binds the json functions of a record whose type knows its
// fields (a table's row, a subquery's, ROW(…), a function's record):
// row_to_json, to_json, to_jsonb and array_to_json write the fields under
// their names (expr.RecordJSON); the json builders and json(b)_object_agg
// take such an argument,
// or an array of such records, through to_json or to_jsonb,
// which is what PostgreSQL writes for it there. ok is true when e is the
// whole call; es may be changed in place either way.
func recordJSON(name string, es []expr.Expr) (e expr.Expr, ok bool) {
	if name == "row_to_json" && len(es) == 2 {
		return expr.RowToJSONPretty(es[0], es[1])
	}
	switch name {
	case "row_to_json", "to_json", "to_jsonb", "array_to_json":
		if len(es) != 1 || name == "row_to_json" && es[0].Type().Kind != value.Record ||
			name == "array_to_json" && es[0].Type().Kind != value.ArrayOf(value.Record) {
			return nil, false
		}
		k := value.JSON
		if name == "to_jsonb" {
			k = value.JSONB
		}
		return expr.RecordJSON(name, es[0], k)
	case "json_build_object", "json_build_array":
		wrapRecords(es, "to_json", value.JSON)
	case "jsonb_build_object", "jsonb_build_array":
		wrapRecords(es, "to_jsonb", value.JSONB)
	default:
		// json(b)_object_agg's value, written into its pair as to_json
		// writes it.
		if pair, _, _ := expr.JSONAggFuncs("json_object_agg"); name == pair && len(es) == 2 {
			wrapRecords(es[1:], "to_json", value.JSON)
		}
	}
	return nil, false
}

// wrapRecords replaces each argument that is a record (or an array of
// records) of known fields by its json of kind k.
func wrapRecords(es []expr.Expr, name string, k value.Kind) {
	for i, a := range es {
		if e, ok := expr.RecordJSON(name, a, k); ok {
			es[i] = e
		}
	}
}
