package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The hstore extension: its type (value.HStore) and the functions and
// operators over it, all immutable, so that a view may use them; the
// set-returning ones (skeys, svals, each) run in FROM and in a select
// list. Those over records (populate_record, #=, hstore(record)) are
// bound apart (bind_hstore.go). The casts to
// json and jsonb are value's (HStoreJSON).
func init() {
	H, T, TA := value.HStore, value.Text, value.ArrayOf(value.Text)
	hT, tT, taT, bT := value.HStoreType, value.TextType, value.ArrayType(value.Text), value.BoolType
	imm := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval}
	}
	// lax is a function that is not strict: hstore(key, NULL) has a NULL
	// value.
	lax := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) *FuncDef {
		return &FuncDef{Name: name, Params: params, Result: result, Eval: eval}
	}
	fetch := func(a []value.Value) (value.Value, error) {
		if p, ok := hstoreGet(a[0], textOf(a[1])); ok && !p.Null {
			return text(p.Val), nil
		}
		return value.Null, nil
	}
	sliceArr := func(a []value.Value) (value.Value, error) {
		keys := a[1].Elems()
		out := make([]value.Value, len(keys))
		for i, k := range keys {
			if k.IsNull() {
				continue
			}
			if p, ok := hstoreGet(a[0], textOf(k)); ok && !p.Null {
				out[i] = text(p.Val)
			}
		}
		return value.NewArrayDims(value.ArrayOf(T), out, a[1].Dims()), nil
	}
	exist := func(a []value.Value) (value.Value, error) {
		_, ok := hstoreGet(a[0], textOf(a[1]))
		return value.NewBool(ok), nil
	}
	defined := func(a []value.Value) (value.Value, error) {
		p, ok := hstoreGet(a[0], textOf(a[1]))
		return value.NewBool(ok && !p.Null), nil
	}
	existAny := func(all bool) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			for _, k := range a[1].Elems() {
				if k.IsNull() {
					continue // PostgreSQL skips NULL keys
				}
				_, ok := hstoreGet(a[0], textOf(k))
				if ok != all {
					return value.NewBool(ok), nil
				}
			}
			return value.NewBool(all), nil
		}
	}
	delKeys := func(h value.Value, drop func(value.HPair) bool) value.Value {
		var out []value.HPair
		for _, p := range h.HStorePairs() {
			if !drop(p) {
				out = append(out, p)
			}
		}
		return value.NewHStore(out)
	}
	contains := func(a, b value.Value) bool {
		for _, p := range b.HStorePairs() {
			q, ok := hstoreGet(a, p.Key)
			if !ok || q.Null != p.Null || q.Val != p.Val {
				return false
			}
		}
		return true
	}
	keysVals := func(vals bool) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			ps := a[0].HStorePairs()
			out := make([]value.Value, len(ps))
			for i, p := range ps {
				switch {
				case !vals:
					out[i] = text(p.Key)
				case !p.Null:
					out[i] = text(p.Val)
				}
			}
			return value.NewArray(value.ArrayOf(T), out), nil
		}
	}
	toArray := func(matrix bool) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			ps := a[0].HStorePairs()
			out := make([]value.Value, 0, 2*len(ps))
			for _, p := range ps {
				v := value.Null
				if !p.Null {
					v = text(p.Val)
				}
				out = append(out, text(p.Key), v)
			}
			switch {
			case len(ps) == 0:
				return value.NewArray(value.ArrayOf(T), nil), nil
			case matrix:
				return value.NewArrayDims(value.ArrayOf(T), out, []value.Dim{{Len: len(ps), Lower: 1}, {Len: 2, Lower: 1}}), nil
			}
			return value.NewArray(value.ArrayOf(T), out), nil
		}
	}
	fromArrays := func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		keys := a[0].Elems()
		if len(a[0].Dims()) > 1 {
			return value.Null, pgerr.New(codeSubscript, "wrong number of array subscripts")
		}
		var vals []value.Value
		if !a[1].IsNull() {
			if len(a[1].Dims()) > 1 {
				return value.Null, pgerr.New(codeSubscript, "wrong number of array subscripts")
			}
			kd, vd := a[0].Dims(), a[1].Dims()
			if (len(kd) > 0 || len(vd) > 0) && (len(kd) != len(vd) || kd[0] != vd[0]) {
				return value.Null, pgerr.New(codeSubscript, "arrays must have same bounds")
			}
			vals = a[1].Elems()
		}
		pairs := make([]value.HPair, len(keys))
		for i, k := range keys {
			if k.IsNull() {
				return value.Null, pgerr.New("22004", "null value not allowed for hstore key")
			}
			pairs[i] = value.HPair{Key: textOf(k), Null: true}
			if vals != nil && !vals[i].IsNull() {
				pairs[i] = value.HPair{Key: textOf(k), Val: textOf(vals[i])}
			}
		}
		return value.NewHStore(pairs), nil
	}
	fromArray := func(a []value.Value) (value.Value, error) {
		dims, elems := a[0].Dims(), a[0].Elems()
		switch {
		case len(dims) == 0:
			return value.NewHStore(nil), nil
		case len(dims) == 1 && dims[0].Len%2 != 0:
			return value.Null, pgerr.New(codeSubscript, "array must have even number of elements")
		case len(dims) == 2 && dims[1].Len != 2:
			return value.Null, pgerr.New(codeSubscript, "array must have two columns")
		case len(dims) > 2:
			return value.Null, pgerr.New(codeSubscript, "wrong number of array subscripts")
		}
		pairs := make([]value.HPair, len(elems)/2)
		for i := range pairs {
			k, v := elems[2*i], elems[2*i+1]
			if k.IsNull() {
				return value.Null, pgerr.New("22004", "null value not allowed for hstore key")
			}
			pairs[i] = value.HPair{Key: textOf(k), Null: v.IsNull()}
			if !v.IsNull() {
				pairs[i].Val = textOf(v)
			}
		}
		return value.NewHStore(pairs), nil
	}
	toJSON := func(jsonb, loose bool) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			s := value.HStoreJSON(a[0], loose)
			if !jsonb {
				return value.NewJSON(s), nil
			}
			n, err := value.ParseJSON(s, true)
			if err != nil {
				return value.Null, err
			}
			return value.NewJSONB(n), nil
		}
	}
	// The set-returning functions: a row per pair, in the canonical
	// order.
	rows := func(name string, result value.Type, cols func(value.HPair) value.Row) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: kinds(H), Result: result,
			Rows: func(a []value.Value, emit func(value.Row) error) error {
				for _, p := range a[0].HStorePairs() {
					if err := emit(cols(p)); err != nil {
						return err
					}
				}
				return nil
			}}
	}
	pairVal := func(p value.HPair) value.Value {
		if p.Null {
			return value.Null
		}
		return text(p.Val)
	}
	each := rows("each", value.RecordType, func(p value.HPair) value.Row { return value.Row{text(p.Key), pairVal(p)} })
	each.RowTypes, each.RowNames = []value.Type{tT, tT}, []string{"key", "value"}
	jT, jbT := value.JSONType, value.JSONBType
	registerExtension(&Extension{
		Name: "hstore", Version: "1.8", Relocatable: true,
		Comment: "data type for storing sets of (key, value) pairs",
		Types:   []value.Type{hT},
		Funcs: []*FuncDef{
			imm("fetchval", kinds(H, T), tT, fetch),
			imm("slice_array", kinds(H, TA), taT, sliceArr),
			imm("slice", kinds(H, TA), hT, func(a []value.Value) (value.Value, error) {
				var out []value.HPair
				for _, k := range a[1].Elems() {
					if p, ok := hstoreGet(a[0], textOf(k)); ok && !k.IsNull() {
						out = append(out, p)
					}
				}
				return value.NewHStore(out), nil
			}),
			imm("exist", kinds(H, T), bT, exist),
			imm("isexists", kinds(H, T), bT, exist),
			imm("exists_any", kinds(H, TA), bT, existAny(false)),
			imm("exists_all", kinds(H, TA), bT, existAny(true)),
			imm("defined", kinds(H, T), bT, defined),
			imm("isdefined", kinds(H, T), bT, defined),
			imm("delete", kinds(H, T), hT, func(a []value.Value) (value.Value, error) {
				k := textOf(a[1])
				return delKeys(a[0], func(p value.HPair) bool { return p.Key == k }), nil
			}),
			imm("delete", kinds(H, TA), hT, func(a []value.Value) (value.Value, error) {
				ks := map[string]bool{}
				for _, k := range a[1].Elems() {
					if !k.IsNull() {
						ks[textOf(k)] = true
					}
				}
				return delKeys(a[0], func(p value.HPair) bool { return ks[p.Key] }), nil
			}),
			imm("delete", kinds(H, H), hT, func(a []value.Value) (value.Value, error) {
				return delKeys(a[0], func(p value.HPair) bool {
					q, ok := hstoreGet(a[1], p.Key)
					return ok && q.Null == p.Null && q.Val == p.Val
				}), nil
			}),
			imm("hs_concat", kinds(H, H), hT, func(a []value.Value) (value.Value, error) {
				// The right operand's pairs win: they come first, and the
				// first of a key is kept.
				return value.NewHStore(append(a[1].HStorePairs(), a[0].HStorePairs()...)), nil
			}),
			imm("hs_contains", kinds(H, H), bT, func(a []value.Value) (value.Value, error) {
				return value.NewBool(contains(a[0], a[1])), nil
			}),
			imm("hs_contained", kinds(H, H), bT, func(a []value.Value) (value.Value, error) {
				return value.NewBool(contains(a[1], a[0])), nil
			}),
			lax("hstore", kinds(T, T), hT, func(a []value.Value) (value.Value, error) {
				if a[0].IsNull() {
					return value.Null, nil
				}
				p := value.HPair{Key: textOf(a[0]), Null: a[1].IsNull()}
				if !p.Null {
					p.Val = textOf(a[1])
				}
				return value.NewHStore([]value.HPair{p}), nil
			}),
			lax("hstore", kinds(TA, TA), hT, fromArrays),
			imm("hstore", kinds(TA), hT, fromArray),
			imm("akeys", kinds(H), taT, keysVals(false)),
			imm("avals", kinds(H), taT, keysVals(true)),
			imm("hstore_to_array", kinds(H), taT, toArray(false)),
			imm("hstore_to_matrix", kinds(H), taT, toArray(true)),
			imm("hstore_to_json", kinds(H), jT, toJSON(false, false)),
			imm("hstore_to_json_loose", kinds(H), jT, toJSON(false, true)),
			imm("hstore_to_jsonb", kinds(H), jbT, toJSON(true, false)),
			imm("hstore_to_jsonb_loose", kinds(H), jbT, toJSON(true, true)),
			// Bound apart (HStorePopulateRecord, HStoreFromRecord): their
			// types are the record's. Listed for pg_proc and DROP
			// EXTENSION's dependencies.
			{Name: "populate_record", Params: kinds(value.Record, H), Result: value.RecordType},
			{Name: "hstore", Strict: true, Params: kinds(value.Record), Result: hT},
			each,
			rows("skeys", tT, func(p value.HPair) value.Row { return value.Row{text(p.Key)} }),
			rows("svals", tT, func(p value.HPair) value.Row { return value.Row{pairVal(p)} }),
			// tconvert is the old name of hstore(text, text).
			lax("tconvert", kinds(T, T), hT, func(a []value.Value) (value.Value, error) {
				if a[0].IsNull() {
					return value.Null, nil
				}
				p := value.HPair{Key: textOf(a[0]), Null: a[1].IsNull()}
				if !p.Null {
					p.Val = textOf(a[1])
				}
				return value.NewHStore([]value.HPair{p}), nil
			}),
			imm("hstore_eq", kinds(H, H), bT, func(a []value.Value) (value.Value, error) {
				return value.NewBool(a[0].Str() == a[1].Str()), nil
			}),
			imm("hstore_ne", kinds(H, H), bT, func(a []value.Value) (value.Value, error) {
				return value.NewBool(a[0].Str() != a[1].Str()), nil
			}),
		},
		Operators: []ExtOperator{
			{"->", H, T, "fetchval", ""},
			{"->", H, TA, "slice_array", ""},
			{"?", H, T, "exist", ""},
			{"?|", H, TA, "exists_any", ""},
			{"?&", H, TA, "exists_all", ""},
			{"-", H, T, "delete", ""},
			{"-", H, TA, "delete", ""},
			{"-", H, H, "delete", ""},
			{"||", H, H, "hs_concat", ""},
			{"@>", H, H, "hs_contains", "<@"},
			{"<@", H, H, "hs_contained", "@>"},
			// Prefix operators: no left operand.
			{"%%", value.Unknown, H, "hstore_to_array", ""},
			{"%#", value.Unknown, H, "hstore_to_matrix", ""},
			{"#=", value.Record, H, "populate_record", ""},
		},
		Missing: []string{"hstore_version_diag"},
	})
}

// hstoreGet returns h's pair of a key.
func hstoreGet(h value.Value, key string) (value.HPair, bool) {
	for _, p := range h.HStorePairs() {
		if p.Key == key {
			return p, true
		}
	}
	return value.HPair{}, false
}

// hstoreAssignDef is h['key'] = v as UPDATE's SET assigns it: h with the
// key's pair set to v (a NULL h is an empty one); a NULL key is 22004,
// as in PostgreSQL.
var hstoreAssignDef = &FuncDef{Name: "hstore_subscript_assign", Params: kinds(value.HStore, value.Text, value.Text), Result: value.HStoreType,
	Eval: func(a []value.Value) (value.Value, error) {
		if a[1].IsNull() {
			return value.Null, pgerr.New("22004", "hstore subscript in assignment must not be null")
		}
		p := value.HPair{Key: textOf(a[1]), Null: a[2].IsNull()}
		if !p.Null {
			p.Val = textOf(a[2])
		}
		var pairs []value.HPair
		if !a[0].IsNull() {
			pairs = a[0].HStorePairs()
		}
		// The first pair of a key is kept: the new one goes first.
		return value.NewHStore(append([]value.HPair{p}, pairs...)), nil
	},
	Print: func(args []Expr) string {
		return args[0].String() + "[" + args[1].String() + "] := " + args[2].String()
	},
}

// HStoreAssign is base with the pair of key (text) set to v (text).
func HStoreAssign(base, key, v Expr) Expr {
	return &Func{Def: hstoreAssignDef, Args: []Expr{base, key, v}, T: value.HStoreType}
}
