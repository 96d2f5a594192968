package expr

import (
	"slices"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// SRF is a call of a set-returning function in FROM: unnest,
// generate_series over any type with a step, generate_subscripts. Gen
// produces its rows from the evaluated arguments, passing each to emit,
// which may stop it with an error (a memory budget).
type SRF struct {
	Name string
	Args []Expr
	Cols []value.Type
	// Names are the columns' names when they are not the function's
	// (json_each's key and value).
	Names []string
	Gen   func(args []value.Value, emit func(value.Row) error) error
}

func (f *SRF) String() string { return f.Name + "(" + list(f.Args) + ")" }

// Run evaluates the arguments over row and generates the rows.
func (f *SRF) Run(row value.Row, emit func(value.Row) error) error {
	args := make([]value.Value, len(f.Args))
	for i, a := range f.Args {
		v, err := a.Eval(row)
		if err != nil {
			return err
		}
		args[i] = v
	}
	return f.Gen(args, emit)
}

// IsSRF reports whether name is a set-returning function: one ResolveSRF
// knows, or json(b)_populate_recordset and json(b)_to_recordset, whose
// columns the binder finds (ResolveJSONRecord).
func IsSRF(name string) bool {
	switch strings.ToLower(name) {
	case "unnest", "generate_series", "generate_subscripts", "regexp_matches", "regexp_split_to_table", "string_to_table",
		"json_populate_recordset", "jsonb_populate_recordset", "json_to_recordset", "jsonb_to_recordset",
		"ts_parse", "ts_token_type", "ts_debug", "ts_stat", "pg_listening_channels", "aclexplode":
		return true
	}
	if _, ok := sysInfoSRFs[strings.ToLower(name)]; ok {
		return true
	}
	return jsonSRFs[strings.ToLower(name)] != nil || isJSONPathSRF(strings.ToLower(name)) || srfExtra[strings.ToLower(name)] != nil
}

// srfExtra are the set-returning functions of a file of their own
// (pg_get_keywords), by name: each resolves a call, false when the
// arguments do not fit.
var srfExtra = map[string]func(args []Expr) (*SRF, bool){}

// ResolveSRF types a call of a set-returning function; args are bound,
// and coerced here to the signature's types.
func ResolveSRF(name string, args []Expr) (*SRF, error) {
	name = strings.ToLower(name)
	ts := make([]value.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	missing := func() error {
		return pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(name, ts)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if jsonSRFs[name] != nil {
		return resolveJSONSRF(name, args, ts, missing)
	}
	if isJSONPathSRF(name) {
		return resolveJSONPathSRF(name, args, missing)
	}
	if f, ok, err := resolveSysInfoSRF(name, args, missing); ok {
		return f, err
	}
	if r := srfExtra[name]; r != nil {
		if f, ok := r(args); ok {
			return f, nil
		}
		return nil, missing()
	}
	switch name {
	case "pg_listening_channels":
		// The binder gives it its one argument, the session's channels
		// (NotifyCall).
		if len(args) != 1 {
			return nil, missing()
		}
		return &SRF{Name: name, Args: args, Cols: []value.Type{value.TextType}, Gen: unnest}, nil
	case "unnest":
		if len(args) == 0 {
			return nil, missing()
		}
		if len(args) == 1 && ts[0].Kind == value.TSVector {
			return unnestTSVector(args), nil
		}
		if len(args) == 1 && ts[0].Kind.IsMultirange() {
			return unnestMultirange(args), nil
		}
		if slices.ContainsFunc(ts, func(t value.Type) bool { return t.Kind == value.TSVector || t.Kind.IsMultirange() }) {
			return unnestZip(args)
		}
		f := &SRF{Name: name, Args: args}
		for _, t := range ts {
			if !t.Kind.IsArray() {
				if t.Kind == value.Unknown {
					// unnest(anyarray) and unnest(tsvector) both fit.
					return nil, (&pgerr.Error{Code: codeAmbiguous, Message: "function " + signature(name, ts) + " is not unique"}).
						WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
				}
				return nil, missing()
			}
			f.Cols = append(f.Cols, t.ElemType())
		}
		f.Gen = unnest
		return f, nil
	case "generate_subscripts":
		if len(args) < 2 || len(args) > 3 || !ts[0].Kind.IsArray() {
			return nil, missing()
		}
		f := &SRF{Name: name, Args: args, Cols: []value.Type{value.Int4Type}, Gen: generateSubscripts}
		for i := 1; i < len(args); i++ {
			want := value.Int4Type
			if i == 2 {
				want = value.BoolType
			}
			c, err := Coerce(args[i], want, false)
			if err != nil {
				return nil, missing()
			}
			f.Args[i] = c
		}
		return f, nil
	case "generate_series":
		return resolveSeries(name, args, ts, missing)
	case "regexp_matches", "regexp_split_to_table", "string_to_table":
		return resolveRegexpSRF(name, args, missing)
	case "ts_parse", "ts_token_type":
		return resolveTSearchSRF(name, args, missing)
	case "ts_debug":
		return resolveTSDebug(args, missing)
	case "ts_stat":
		return resolveTSStat(args, missing)
	}
	return nil, missing()
}

func resolveSeries(name string, args []Expr, ts []value.Type, missing func() error) (*SRF, error) {
	if len(args) < 2 || len(args) > 3 {
		return nil, missing()
	}
	t, err := CommonType(ts[:2], "generate_series")
	if err != nil {
		return nil, missing()
	}
	step := t
	switch k := t.Kind; {
	case k == value.Int2 || k == value.Int4 || k == value.Unknown && (len(ts) < 3 || ts[2].Kind.IsInteger()):
		t, step = value.Int4Type, value.Int4Type
		if len(ts) > 2 && (ts[2].Kind == value.Int8 || ts[2].Kind == value.Numeric) {
			t, step = plain(ts[2].Kind), plain(ts[2].Kind)
		}
	case k == value.Int8 || k == value.Numeric:
		if len(ts) > 2 && ts[2].Kind == value.Numeric {
			t = value.NumericType
		}
		step = t
	case k.IsFloat():
		t, step = value.NumericType, value.NumericType
	case k == value.Date || k == value.TimestampTZ:
		// Dates read as timestamptz, PostgreSQL's preferred time type.
		t, step = value.TimestampTZType, value.IntervalType
	case k == value.Timestamp || k == value.Unknown:
		t, step = value.Type{Kind: k, Mod: -1}, value.IntervalType
		if k == value.Unknown {
			t = value.TimestampTZType
		}
	default:
		return nil, missing()
	}
	if t.Kind.IsDateTime() && len(args) < 3 {
		return nil, missing()
	}
	out := make([]Expr, len(args))
	for i, a := range args {
		want := t
		if i == 2 {
			want = step
		}
		c, err := Coerce(a, want, false)
		if err != nil {
			return nil, missing()
		}
		out[i] = c
	}
	return &SRF{Name: name, Args: out, Cols: []value.Type{t}, Gen: series}, nil
}

// unnest zips its arrays, padding the shorter ones with NULLs.
func unnest(args []value.Value, emit func(value.Row) error) error {
	n := 0
	for _, a := range args {
		n = max(n, len(a.Elems()))
	}
	for i := 0; i < n; i++ {
		row := make(value.Row, len(args))
		for j, a := range args {
			if es := a.Elems(); i < len(es) {
				row[j] = es[i]
			}
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// generateSubscripts is generate_subscripts(a, d [, reverse]): the
// subscripts of a's dimension d, none when a has no such dimension or
// any argument is NULL (the function is strict).
func generateSubscripts(args []value.Value, emit func(value.Row) error) error {
	for _, a := range args {
		if a.IsNull() {
			return nil
		}
	}
	dims, d := args[0].Dims(), args[1].Int()
	if d < 1 || d > int64(len(dims)) {
		return nil
	}
	lo, hi := int64(dims[d-1].Lower), int64(dims[d-1].Lower+dims[d-1].Len-1)
	rev := len(args) > 2 && args[2].Bool()
	for i := lo; i <= hi; i++ {
		j := i
		if rev {
			j = hi + lo - i
		}
		if err := emit(value.Row{value.NewInt(value.Int4, j)}); err != nil {
			return err
		}
	}
	return nil
}

// series is generate_series(start, stop[, step]) over numbers or times:
// from start while not past stop, in step's direction.
func series(args []value.Value, emit func(value.Row) error) error {
	return seriesBy(args, emit, value.Add)
}

// ZoneSeries is generate_series over timestamptz with its steps of days
// and months taken in the zone c's statement runs in (value.AddZone).
func ZoneSeries(c *StmtClock) func([]value.Value, func(value.Row) error) error {
	return func(args []value.Value, emit func(value.Row) error) error {
		z := zoneOf(c)
		return seriesBy(args, emit, func(a, b value.Value) (value.Value, error) { return value.AddZone(a, b, false, z) })
	}
}

func seriesBy(args []value.Value, emit func(value.Row) error, add func(a, b value.Value) (value.Value, error)) error {
	for _, a := range args {
		if a.IsNull() {
			return nil
		}
	}
	start, stop := args[0], args[1]
	var step value.Value
	if len(args) > 2 {
		step = args[2]
	} else {
		step = value.NewInt(start.Kind(), 1)
		if start.Kind() == value.Numeric {
			step = value.NewInt(value.Int4, 1)
			var err error
			if step, err = value.Cast(step, value.NumericType, false); err != nil {
				return err
			}
		}
	}
	if start.Kind() == value.Numeric {
		// NaN and the infinities are refused by name before the step's
		// zero, as PostgreSQL's generate_series_numeric refuses them.
		for i, what := range []string{"start value", "stop value", "step size"} {
			if i == 2 && len(args) < 3 {
				break
			}
			if isNaN(args[i]) {
				return pgerr.New(pgerr.InvalidParameter, "%s cannot be NaN", what)
			}
			if d := args[i].Decimal(); d != nil && d.Form == apd.Infinite {
				return pgerr.New(pgerr.InvalidParameter, "%s cannot be infinity", what)
			}
		}
	}
	next, err := add(start, step)
	if err != nil {
		return err
	}
	dir := value.Compare(next, start)
	if dir == 0 {
		return pgerr.New(pgerr.InvalidParameter, "step size cannot equal zero")
	}
	for cur := start; ; {
		if c := value.Compare(cur, stop); c == dir {
			return nil
		}
		if err := emit(value.Row{cur}); err != nil {
			return err
		}
		nxt, err := add(cur, step)
		if err != nil {
			return nil // the next value would overflow: past stop
		}
		cur = nxt
	}
}

func isNaN(vs ...value.Value) bool {
	for _, v := range vs {
		if d := v.Decimal(); d != nil && (d.Form == apd.NaN || d.Form == apd.NaNSignaling) {
			return true
		}
	}
	return false
}
