package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Functions returning a composite outside FROM. In FROM a function whose
// result is a record of several columns (json(b)_populate_recordset)
// expands to those columns; in a select list each of its rows is one
// value, a record of type t, and a call that runs out before a longer one
// beside it is NULL, not a record of NULLs (PostgreSQL's ProjectSet).
// json(b)_to_record(set) take their record's columns from a column
// definition list, which only FROM has: elsewhere PostgreSQL fails when a
// call runs (0A000, no position), so a query whose rows never reach the
// call succeeds.

// RecordValues is srf with each of its rows made one record value of type
// t, its one column.
func RecordValues(srf *SRF, t value.Type) *SRF {
	gen := srf.Gen
	return &SRF{Name: srf.Name, Args: srf.Args, Cols: []value.Type{t}, Names: []string{srf.Name}, Gen: func(args []value.Value, emit func(value.Row) error) error {
		return gen(args, func(r value.Row) error {
			return emit(value.Row{value.NewRecord(append([]value.Value(nil), r...))})
		})
	}}
}

// errNoRowType is PostgreSQL's error for json(b)_to_record(set) called
// where no column definition list gives the record's columns.
func errNoRowType(name string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "could not determine row type for result of %s", name).
		WithHint("Provide a non-null record argument, or call the function in the FROM clause using a column definition list.")
}

// jsonRecordArg checks the one argument of json(b)_to_record(set), of the
// function's json kind or an untyped literal, and coerces it.
func jsonRecordArg(name string, args []Expr) (Expr, error) {
	k := value.JSON
	if strings.HasPrefix(name, "jsonb") {
		k = value.JSONB
	}
	if len(args) != 1 || args[0].Type().Kind != k && args[0].Type().Kind != value.Unknown {
		return nil, NoSuchFunction(name, args)
	}
	return Coerce(args[0], plain(k), false)
}

// JSONToRecordValue is json(b)_to_record(j) as a value: NULL for a NULL
// document (the function is strict), else PostgreSQL's 0A000.
func JSONToRecordValue(name string, args []Expr) (Expr, error) {
	name = strings.ToLower(name)
	arg, err := jsonRecordArg(name, args)
	if err != nil {
		return nil, err
	}
	def := &FuncDef{Name: name, Result: value.RecordType, Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		return value.Null, errNoRowType(name)
	}}
	return &Func{Def: def, Args: []Expr{arg}, T: value.RecordType}, nil
}

// JSONToRecordSetValues is json(b)_to_recordset(j) in a select list: a
// column of records that fails with PostgreSQL's 0A000 whenever it runs,
// for a NULL document too (the function is not strict).
func JSONToRecordSetValues(name string, args []Expr) (*SRF, error) {
	name = strings.ToLower(name)
	arg, err := jsonRecordArg(name, args)
	if err != nil {
		return nil, err
	}
	return &SRF{Name: name, Args: []Expr{arg}, Cols: []value.Type{value.RecordType}, Names: []string{name}, Gen: func([]value.Value, func(value.Row) error) error {
		return errNoRowType(name)
	}}, nil
}

// NoSuchFunctionOf is NoSuchFunction for a call whose first argument's
// type is a row type named first ("" for none): json(b)_populate_record(t,
// …).
func NoSuchFunctionOf(name, first string, args []Expr) error {
	if first == "" {
		return NoSuchFunction(name, args)
	}
	ts := make([]value.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	rest := strings.TrimPrefix(signature(name, ts), name+"(")
	if len(args) > 0 {
		rest = ", " + rest
	}
	return pgerr.New(pgerr.UndefinedFunction, "function %s(%s%s does not exist", name, first, rest).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}
