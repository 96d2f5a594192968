package engine

import "github.com/deltaview/deltaview/internal/value"

// A pseudo-type's input, output, receive and send functions, as
// pg_type.typinput, typoutput, typreceive and typsend name them, with
// PostgreSQL 15's oids ("-", oid 0, where it has none). They are not
// callable.
var pseudoIOFuncs = map[string][4]struct {
	oid  uint32
	name string
}{
	"any":                     {{2294, "any_in"}, {2295, "any_out"}, {0, ""}, {0, ""}},
	"anyarray":                {{2296, "anyarray_in"}, {2297, "anyarray_out"}, {2502, "anyarray_recv"}, {2503, "anyarray_send"}},
	"anycompatible":           {{5086, "anycompatible_in"}, {5087, "anycompatible_out"}, {0, ""}, {0, ""}},
	"anycompatiblearray":      {{5088, "anycompatiblearray_in"}, {5089, "anycompatiblearray_out"}, {5090, "anycompatiblearray_recv"}, {5091, "anycompatiblearray_send"}},
	"anycompatiblemultirange": {{4226, "anycompatiblemultirange_in"}, {4227, "anycompatiblemultirange_out"}, {0, ""}, {0, ""}},
	"anycompatiblenonarray":   {{5092, "anycompatiblenonarray_in"}, {5093, "anycompatiblenonarray_out"}, {0, ""}, {0, ""}},
	"anycompatiblerange":      {{5094, "anycompatiblerange_in"}, {5095, "anycompatiblerange_out"}, {0, ""}, {0, ""}},
	"anyelement":              {{2312, "anyelement_in"}, {2313, "anyelement_out"}, {0, ""}, {0, ""}},
	"anyenum":                 {{3504, "anyenum_in"}, {3505, "anyenum_out"}, {0, ""}, {0, ""}},
	"anymultirange":           {{4229, "anymultirange_in"}, {4230, "anymultirange_out"}, {0, ""}, {0, ""}},
	"anynonarray":             {{2777, "anynonarray_in"}, {2778, "anynonarray_out"}, {0, ""}, {0, ""}},
	"anyrange":                {{3832, "anyrange_in"}, {3833, "anyrange_out"}, {0, ""}, {0, ""}},
	"cstring":                 {{2292, "cstring_in"}, {2293, "cstring_out"}, {2500, "cstring_recv"}, {2501, "cstring_send"}},
	"event_trigger":           {{3594, "event_trigger_in"}, {3595, "event_trigger_out"}, {0, ""}, {0, ""}},
	"fdw_handler":             {{3116, "fdw_handler_in"}, {3117, "fdw_handler_out"}, {0, ""}, {0, ""}},
	"index_am_handler":        {{326, "index_am_handler_in"}, {327, "index_am_handler_out"}, {0, ""}, {0, ""}},
	"internal":                {{2304, "internal_in"}, {2305, "internal_out"}, {0, ""}, {0, ""}},
	"language_handler":        {{2302, "language_handler_in"}, {2303, "language_handler_out"}, {0, ""}, {0, ""}},
	"pg_ddl_command":          {{86, "pg_ddl_command_in"}, {87, "pg_ddl_command_out"}, {88, "pg_ddl_command_recv"}, {90, "pg_ddl_command_send"}},
	"record":                  {{2290, "record_in"}, {2291, "record_out"}, {2402, "record_recv"}, {2403, "record_send"}},
	"table_am_handler":        {{267, "table_am_handler_in"}, {268, "table_am_handler_out"}, {0, ""}, {0, ""}},
	"trigger":                 {{2300, "trigger_in"}, {2301, "trigger_out"}, {0, ""}, {0, ""}},
	"tsm_handler":             {{3311, "tsm_handler_in"}, {3312, "tsm_handler_out"}, {0, ""}, {0, ""}},
	"unknown":                 {{109, "unknownin"}, {110, "unknownout"}, {2416, "unknownrecv"}, {2417, "unknownsend"}},
	"void":                    {{2298, "void_in"}, {2299, "void_out"}, {3120, "void_recv"}, {3121, "void_send"}},
}

// pseudoIORegs are the pseudo-type name's typinput, typoutput,
// typreceive and typsend; none (oid 0) for a name it does not list.
func pseudoIORegs(name string) [4]value.Value {
	var out [4]value.Value
	fs := pseudoIOFuncs[name]
	for i, f := range fs {
		out[i] = value.NewReg(value.RegProc, f.oid, f.name)
	}
	return out
}
