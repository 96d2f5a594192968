package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// System information functions that need no session: what the server
// can do (pg_jit_available), encodings (pg_encoding_max_length, convert,
// length of bytes in an encoding) and how a value is stored
// (pg_column_compression). They keep no state.

// pgEncodingMaxLen is the longest character, in bytes, of each encoding
// of pgEncodings, as PostgreSQL's encoding table gives it.
var pgEncodingMaxLen = [len(pgEncodings)]int64{
	1, 3, 3, 3, 4, 3, 4, 4,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 2,
	2, 2, 2, 4, 3, 2,
}

func init() {
	// No JIT compiler: expressions are evaluated by the interpreter.
	register(&FuncDef{Name: "pg_jit_available", Volatile: true, Strict: true, Params: kinds(), Result: value.BoolType,
		Eval: func([]value.Value) (value.Value, error) { return value.NewBool(false), nil }})
	strict("pg_encoding_max_length", kinds(value.Int4), value.Int4Type, func(a []value.Value) (value.Value, error) {
		enc := a[0].Int()
		if enc < 0 || enc >= int64(len(pgEncodingMaxLen)) {
			return value.Null, nil
		}
		return value.NewInt(value.Int4, pgEncodingMaxLen[enc]), nil
	})
	// Values are stored uncompressed: the method is NULL, as PostgreSQL
	// gives for a value it did not compress.
	register(&FuncDef{Name: "pg_column_compression", Strict: true, Params: kinds(value.Unknown), Result: value.TextType,
		Eval: func([]value.Value) (value.Value, error) { return value.Null, nil }})
}

// callBuiltin calls the built-in function name on args, its one
// signature of their kinds.
func callBuiltin(name string, args ...value.Value) (value.Value, error) {
	for _, d := range catalog[name] {
		if len(d.Params) != len(args) {
			continue
		}
		fits := true
		for i, p := range d.Params {
			fits = fits && p == args[i].Kind()
		}
		if fits {
			return d.Eval(args)
		}
	}
	return value.Null, pgerr.New("XX000", "no built-in %s for its arguments", name)
}

// logFormats are the formats pg_current_logfile takes.
var logFormats = map[string]bool{"stderr": true, "csvlog": true, "jsonlog": true}

func init() {
	// No log collector writes files: the current one is NULL, as in
	// PostgreSQL with logging_collector off.
	register(&FuncDef{Name: "pg_current_logfile", Volatile: true, Params: kinds(), Result: value.TextType,
		Eval: func([]value.Value) (value.Value, error) { return value.Null, nil }})
	register(&FuncDef{Name: "pg_current_logfile", Volatile: true, Strict: true, Params: kinds(value.Text), Result: value.TextType,
		Eval: func(a []value.Value) (value.Value, error) {
			if f := textOf(a[0]); !logFormats[f] {
				return value.Null, pgerr.New(pgerr.InvalidParameter, "log format \"%s\" is not supported", f).
					WithHint("The supported log formats are \"stderr\", \"csvlog\", and \"jsonlog\".")
			}
			return value.Null, nil
		}})
}
