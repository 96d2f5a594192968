package expr

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// IsJSONRecordFunc reports whether name is json(b)_to_record(set), which
// returns records whose columns a column definition list gives.
func IsJSONRecordFunc(name string) bool {
	switch strings.ToLower(name) {
	case "json_to_record", "jsonb_to_record", "json_to_recordset", "jsonb_to_recordset":
		return true
	}
	return IsJSONPopulateFunc(name)
}

// IsJSONPopulateFunc reports whether name is json(b)_populate_record(set),
// whose columns are those of its first argument's row type.
func IsJSONPopulateFunc(name string) bool {
	switch strings.ToLower(name) {
	case "json_populate_record", "jsonb_populate_record", "json_populate_recordset", "jsonb_populate_recordset":
		return true
	}
	return false
}

// ResolveJSONRecord types a call of json(b)_to_record(set) whose record
// has the columns names of types cols: one row per object (one for
// _record, one per element of the array for _recordset), each key read
// into the column of its name as PostgreSQL's populate_record_field does.
func ResolveJSONRecord(name string, args []Expr, names []string, cols []value.Type, clock *StmtClock) (*SRF, error) {
	return ResolveJSONPopulate(name, nil, args, names, cols, clock)
}

// ResolveJSONPopulate is ResolveJSONRecord for json(b)_populate_record(set)
// with a base record base (nil for a NULL one): a column whose key the
// object lacks takes the base's field (NULL when the base is NULL), and a
// NULL document gives the base itself for _record. The base's fields must
// be of types cols. An interval column reads a string in the IntervalStyle
// of the session that runs the statement, clock's (the postgres style
// without one: in a view), as PostgreSQL's interval input does.
func ResolveJSONPopulate(name string, base Expr, args []Expr, names []string, cols []value.Type, clock *StmtClock) (*SRF, error) {
	name = strings.ToLower(name)
	k := value.JSON
	if strings.HasPrefix(name, "jsonb") {
		k = value.JSONB
	}
	if len(args) != 1 || args[0].Type().Kind != k && args[0].Type().Kind != value.Unknown {
		return nil, NoSuchFunction(name, args)
	}
	arg, err := Coerce(args[0], plain(k), false)
	if err != nil {
		return nil, err
	}
	set := strings.HasSuffix(name, "set")
	srf := &SRF{Name: name, Args: []Expr{arg}, Cols: cols, Names: names}
	if base != nil {
		srf.Args = []Expr{arg, base}
	}
	srf.Gen = func(a []value.Value, emit func(value.Row) error) error {
		var defaults []value.Value
		if len(a) > 1 {
			defaults = a[1].Fields()
		}
		if a[0].IsNull() {
			if set {
				return nil
			}
			// The base record (a NULL one: a row of NULLs in FROM).
			row := make(value.Row, len(cols))
			copy(row, defaults)
			return emit(row)
		}
		n, err := jsonDoc(a[0])
		if err != nil {
			return err
		}
		if !set {
			if n.Type != value.JSONObject {
				return pgerr.New(pgerr.InvalidParameter, "cannot call populate_composite on %s", scalarOrNot(n))
			}
			row, err := jsonRecord(n, k, names, cols, defaults, clock.inputStyle())
			if err != nil {
				return err
			}
			return emit(row)
		}
		if n.Type != value.JSONArray {
			if k == value.JSONB {
				return pgerr.New(pgerr.InvalidParameter, "cannot call %s on a non-array", name)
			}
			return pgerr.New(pgerr.InvalidParameter, "cannot call %s on %s", name, scalarOrNot(n))
		}
		for i := range n.Elems {
			e := &n.Elems[i]
			if e.Type != value.JSONObject {
				return pgerr.New(pgerr.InvalidParameter, "argument of %s must be an array of objects", name)
			}
			row, err := jsonRecord(e, k, names, cols, defaults, clock.inputStyle())
			if err != nil {
				return err
			}
			if err := emit(row); err != nil {
				return err
			}
		}
		return nil
	}
	return srf, nil
}

// jsonRecord reads object n into a row of the columns names of types cols:
// a JSON null is NULL; a missing key is the base record's field, from
// defaults (NULL past its end, as for a NULL base).
func jsonRecord(n *value.JSONNode, k value.Kind, names []string, cols []value.Type, defaults []value.Value, st value.TextStyle) (value.Row, error) {
	row := make(value.Row, len(cols))
	for i, c := range names {
		f := field(n, c)
		if f == nil {
			row[i] = value.Null
			if i < len(defaults) {
				row[i] = defaults[i]
			}
			continue
		}
		v, err := JSONToColumn(f, k, cols[i], c, st)
		if err != nil {
			return nil, err
		}
		row[i] = v
	}
	return row, nil
}

// JSONToColumn converts node n of a document of kind k (json or jsonb) to
// a value of type t, as PostgreSQL fills a record's column col: a JSON
// null is NULL; a json or jsonb column takes the node as a document; an
// array column takes a JSON array (of arrays for more dimensions); any
// other column reads a string's value, or the node's JSON text, with the
// type's input.
func JSONToColumn(n *value.JSONNode, k value.Kind, t value.Type, col string, st value.TextStyle) (value.Value, error) {
	if n.Type == value.JSONNull {
		return value.Null, nil
	}
	switch {
	case t.Kind == value.JSON:
		return value.NewJSON(jsonNodeText(n, k)), nil
	case t.Kind == value.JSONB:
		if k == value.JSONB {
			return value.NewJSONB(n), nil
		}
		return value.Parse(n.Raw, t)
	case t.Kind.IsArray() && n.Type == value.JSONString:
		// A string is the array's text form: '{1,2}'.
		return value.ParseIntervalIn(n.Str, t, st)
	case t.Kind.IsArray():
		return jsonToArray(n, k, t, col, st)
	case t.Kind == value.Interval && n.Type == value.JSONString:
		return value.ParseIntervalIn(n.Str, t, st)
	case t.IsAnonymousRecord():
		// PostgreSQL has no fields to fill (a column definition's record).
		if n.Type == value.JSONString {
			return value.Null, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
		}
		return value.Null, pgerr.New(pgerr.WrongObjectType, "record type has not been registered")
	case t.Kind == value.Record:
		return jsonToComposite(n, k, t, st)
	}
	if n.Type == value.JSONString {
		return value.Parse(n.Str, t)
	}
	return value.Parse(jsonNodeText(n, k), t)
}

// jsonToComposite reads a column of a table's row type t, as
// PostgreSQL's populate_composite: an object by its keys, a string by the
// record's text input ('(1,x)').
func jsonToComposite(n *value.JSONNode, k value.Kind, t value.Type, st value.TextStyle) (value.Value, error) {
	switch n.Type {
	case value.JSONString:
		return value.ParseRecord(n.Str, t)
	case value.JSONObject:
		d := t.RecordDesc()
		names := make([]string, len(d.Fields))
		cols := make([]value.Type, len(d.Fields))
		for i, f := range d.Fields {
			names[i], cols[i] = f.Name, f.Type
		}
		row, err := jsonRecord(n, k, names, cols, nil, st)
		if err != nil {
			return value.Null, err
		}
		return value.NewRecord(row), nil
	}
	return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot call populate_composite on %s", scalarOrNot(n))
}

// jsonNodeText is a node's JSON text: as written in json, as jsonb prints
// it in jsonb.
func jsonNodeText(n *value.JSONNode, k value.Kind) string {
	if k == value.JSON {
		return n.Raw
	}
	return string(value.AppendJSONB(nil, n))
}

// jsonToArray reads a JSON array, of arrays for more dimensions, into an
// array of type t, with PostgreSQL's errors: the sub-arrays must have
// matching lengths and the same depth.
func jsonToArray(n *value.JSONNode, k value.Kind, t value.Type, col string, st value.TextStyle) (value.Value, error) {
	hint := func(sizes []int) *pgerr.Error {
		e := pgerr.New(pgerr.InvalidTextRep, "expected JSON array")
		if len(sizes) == 0 {
			return e.WithHint("See the value of key \"%s\".", col)
		}
		var idx strings.Builder
		for _, s := range sizes {
			fmt.Fprintf(&idx, "[%d]", s)
		}
		return e.WithHint("See the array element %s of key \"%s\".", idx.String(), col)
	}
	if n.Type != value.JSONArray {
		return value.Null, hint(nil)
	}
	elemType := t.ElemType()
	ndims := 0
	var dims []int // lengths, set by the first sub-array of each depth
	var sizes []int
	var elems []value.Value
	malformed := func() error {
		return pgerr.New(pgerr.InvalidTextRep, "malformed JSON array").
			WithDetail("Multidimensional arrays must have sub-arrays with matching dimensions.")
	}
	var walk func(a *value.JSONNode, depth int) error
	walk = func(a *value.JSONNode, depth int) error {
		if ndims > 0 && depth > ndims {
			return malformed()
		}
		if depth > value.MaxDims {
			return pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", depth, value.MaxDims)
		}
		sizes = append(sizes, 0)
		for i := range a.Elems {
			e := &a.Elems[i]
			if e.Type == value.JSONArray {
				if err := walk(e, depth+1); err != nil {
					return err
				}
			} else {
				if ndims == 0 {
					ndims = depth
				} else if depth < ndims {
					return hint(sizes)
				}
				v, err := JSONToColumn(e, k, elemType, col, st)
				if err != nil {
					return err
				}
				if e.Type != value.JSONNull && (e.Type == value.JSONArray || elemType.Kind.IsArray()) {
					return hint(sizes)
				}
				elems = append(elems, v)
			}
			sizes[depth-1]++
		}
		for len(dims) < depth {
			dims = append(dims, -1)
		}
		if dims[depth-1] < 0 {
			dims[depth-1] = sizes[depth-1]
		} else if dims[depth-1] != sizes[depth-1] {
			return malformed()
		}
		sizes = sizes[:depth-1]
		return nil
	}
	if err := walk(n, 1); err != nil {
		return value.Null, err
	}
	if len(elems) == 0 {
		return value.NewArray(t.Kind, nil), nil
	}
	ds := make([]value.Dim, ndims)
	for i := range ds {
		ds[i] = value.Dim{Len: dims[i], Lower: 1}
	}
	return value.NewArrayDims(t.Kind, elems, ds), nil
}

// NoSuchFunction is PostgreSQL's error for a call of name whose arguments
// match none of its signatures.
func NoSuchFunction(name string, args []Expr) error {
	ts := make([]value.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	return pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(name, ts)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// JSONPopulateRecord is json(b)_populate_record(base, arg) as a value: a
// record of base's row type rowType; base is nil for NULL::t. A missing
// key takes the base's field; a NULL document gives the base itself (NULL
// for a NULL base). clock is as for ResolveJSONPopulate.
func JSONPopulateRecord(name string, base, arg Expr, rowType value.Type, clock *StmtClock) (Expr, error) {
	var names []string
	var cols []value.Type
	for _, f := range rowType.RecordDesc().Fields {
		names = append(names, f.Name)
		cols = append(cols, f.Type)
	}
	name = strings.ToLower(name)
	k := value.JSON
	if strings.HasPrefix(name, "jsonb") {
		k = value.JSONB
	}
	if arg.Type().Kind != k && arg.Type().Kind != value.Unknown {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(record, %s) does not exist", name, arg.Type()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	arg, err := Coerce(arg, plain(k), false)
	if err != nil {
		return nil, err
	}
	def := &FuncDef{Name: name, Result: rowType, Eval: func(a []value.Value) (value.Value, error) {
		var defaults []value.Value
		if len(a) > 1 {
			if a[0].IsNull() {
				return a[1], nil
			}
			defaults = a[1].Fields()
		}
		if a[0].IsNull() {
			return value.Null, nil
		}
		n, err := jsonDoc(a[0])
		if err != nil {
			return value.Null, err
		}
		if n.Type != value.JSONObject {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot call populate_composite on %s", scalarOrNot(n))
		}
		row, err := jsonRecord(n, k, names, cols, defaults, clock.inputStyle())
		if err != nil {
			return value.Null, err
		}
		return value.NewRecord(row), nil
	}}
	args := []Expr{arg}
	if base != nil {
		args = append(args, base)
	}
	return &Func{Def: def, Args: args, T: rowType}, nil
}
