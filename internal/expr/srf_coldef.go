package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Column definition lists. A function in FROM that returns the
// pseudo-type record (unnest of an array of ROW(…), json(b)_populate_record
// of an anonymous record) takes its columns from the list, f(…) AS x(a
// int, b text). PostgreSQL checks the record the function returns against
// the list when it runs (tupledesc_match): as many fields as columns, each
// binary-coercible to its column's type; here the record's type is known
// when binding, so the check is too, and its error is raised when
// PostgreSQL would raise it.

// RowMismatch returns PostgreSQL's error for a function whose records
// have fields of types got under a column definition list of types want,
// nil when they match.
func RowMismatch(got, want []value.Type) error {
	mismatch := func(detail string, args ...any) error {
		return pgerr.New(pgerr.DatatypeMismatch, "function return row and query-specified return row do not match").
			WithDetail(detail, args...)
	}
	if len(got) != len(want) {
		return mismatch("Returned row contains %d attributes, but query expects %d.", len(got), len(want))
	}
	for i := range got {
		if !binaryCoercible(got[i], want[i]) {
			return mismatch("Returned type %s at ordinal position %d, but query expects %s.", formatType(got[i]), i+1, formatType(want[i]))
		}
	}
	return nil
}

// formatType is format_type_be's name of t: without its modifier.
func formatType(t value.Type) string {
	if t.Kind == value.Record || t.Kind == value.ArrayOf(value.Record) {
		return t.String()
	}
	return value.Type{Kind: t.Kind, Mod: -1}.String()
}

// binaryCoercible reports whether a value of type from is one of type to
// as it is (PostgreSQL's IsBinaryCoercible over the types there are here).
func binaryCoercible(from, to value.Type) bool {
	switch {
	case from.Kind == to.Kind:
		return from.Kind != value.Record || to.IsAnonymousRecord() || from == to
	case from.Kind == value.Text || from.Kind == value.Varchar:
		return to.Kind == value.Text || to.Kind == value.Varchar || to.Kind == value.Char
	case from.Kind == value.Bit || from.Kind == value.Varbit:
		return to.Kind == value.Bit || to.Kind == value.Varbit
	}
	return false
}

// RecordColumns is f, a function whose one column is an anonymous record
// (unnest of an array of ROW(…)), with that record's fields as the columns
// names of types cols: a NULL record is a row of NULLs. The first record
// that is not NULL fails with RowMismatch when the types of its fields,
// got, do not match the list, as PostgreSQL checks the first record a
// function returns; records whose fields are not known when binding (got
// nil) are checked by their width alone.
func RecordColumns(f *SRF, got []value.Type, names []string, cols []value.Type) *SRF {
	var mismatch error
	if got != nil {
		mismatch = RowMismatch(got, cols)
	}
	mixed := pgerr.New(pgerr.DatatypeMismatch, "rows returned by function are not all of the same row type")
	if len(f.Args) == 1 && mixedRows(f.Args[0]) {
		// PostgreSQL reads every record before it checks the first.
		mismatch = mixed
	}
	out := &SRF{Name: f.Name, Args: f.Args, Cols: cols, Names: names}
	out.Gen = func(args []value.Value, emit func(value.Row) error) error {
		if len(args) == 1 && mixedValues(args[0]) {
			return mixed // an array read from a column or a function
		}
		return f.Gen(args, func(r value.Row) error {
			row := make(value.Row, len(cols))
			if v := r[0]; !v.IsNull() {
				if mismatch != nil {
					return mismatch
				}
				fs := v.Fields()
				if len(fs) != len(cols) {
					return RowMismatch(make([]value.Type, len(fs)), cols)
				}
				copy(row, fs)
			}
			return emit(row)
		})
	}
	return out
}

// Renamed is f with the columns of a column definition list: names and
// types cols, whose values f's are as they are (binary-coercible). It
// fails with mismatch, when not nil, whenever f runs and fails(args)
// says it would return a record.
func Renamed(f *SRF, names []string, cols []value.Type, mismatch error, fails func(args []value.Value) bool) *SRF {
	out := &SRF{Name: f.Name, Args: f.Args, Cols: cols, Names: names, Gen: f.Gen}
	if mismatch != nil {
		out.Gen = func(args []value.Value, emit func(value.Row) error) error {
			if fails(args) {
				return mismatch
			}
			return f.Gen(args, emit)
		}
	}
	return out
}

// mixedRows reports whether arr, ARRAY[ROW(…), …], holds records of
// different row types, which PostgreSQL's unnest returns only to fail
// under a column definition list: fields of different types (a string
// literal's unknown beside text too), or different widths. NULL elements
// have no type.
func mixedRows(arr Expr) bool {
	f, ok := arr.(*Func)
	if !ok || f.Def.Name != "array" {
		return false
	}
	var first []value.Type
	for _, a := range f.Args {
		e := a
		if c, ok := e.(*Cast); ok {
			e = c.E
		}
		if c, ok := e.(*Const); ok && c.V.IsNull() {
			continue
		}
		ft := recordFieldTypes(a)
		switch {
		case ft == nil:
			return false
		case first == nil:
			first = ft
		case len(ft) != len(first):
			return true
		}
		for i := range ft {
			if !sameFieldType(ft[i], first[i]) {
				return true
			}
		}
	}
	return false
}

// mixedValues reports whether arr, an array of records, holds records of
// different row types as far as their values tell: of different widths,
// or with values of different kinds in a field (a NULL field has none).
func mixedValues(arr value.Value) bool {
	if arr.Kind() != value.ArrayOf(value.Record) {
		return false
	}
	var kinds []value.Kind // each field's, Unknown until a value has one
	for _, e := range arr.Elems() {
		if e.IsNull() {
			continue
		}
		fs := e.Fields()
		if kinds == nil {
			kinds = make([]value.Kind, len(fs))
		} else if len(fs) != len(kinds) {
			return true
		}
		for i, f := range fs {
			switch {
			case f.IsNull():
			case kinds[i] == value.Unknown:
				kinds[i] = f.Kind()
			case kinds[i] != f.Kind():
				return true
			}
		}
	}
	return false
}
