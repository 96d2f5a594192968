package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

var _ Expr = (*RowCons)(nil)

// RowCons is a row constructor used as a value, ROW(a, b) or (a, b), and a
// table's row used as one (SELECT t FROM t): a record of its arguments'
// values. Names are the fields' names: the columns' for a table's row,
// f1, f2, … for ROW(…), as in PostgreSQL. Build it with NewRowCons or
// NewRecordCons, which give it its type.
type RowCons struct {
	Args  []Expr
	Names []string
	// Table is the relation whose row this is, "" for ROW(…): printed as
	// its name.
	Table string
	// NullIfAllNull makes the record NULL when every field is: the row of
	// an outer join's null-extended side.
	NullIfAllNull bool
	// T is the record type: its fields are Names with the types of Args.
	T value.Type
	// Untyped marks the fields that were string literals or NULL, of
	// PostgreSQL's type unknown, which record comparisons tell from the
	// text they are read as (NewRecordCheck); nil when none was.
	Untyped []bool
}

// NewRowCons returns ROW(args…) with PostgreSQL's field names f1, f2, ….
func NewRowCons(args []Expr) *RowCons {
	names := make([]string, len(args))
	for i := range args {
		names[i] = "f" + itoa(i+1)
	}
	return NewRecordCons(args, names, "", "", false)
}

// NewRecordCons returns the record of args with these field names: the
// row of relation table (its name or alias, "" for ROW(…)), whose type is
// named typeName for a table's or view's row type and anonymous when
// typeName is "".
func NewRecordCons(args []Expr, names []string, table, typeName string, nullIfAllNull bool) *RowCons {
	fields := make([]value.RecordField, len(args))
	for i, a := range args {
		fields[i] = value.RecordField{Name: names[i], Type: a.Type()}
	}
	return &RowCons{Args: args, Names: names, Table: table, NullIfAllNull: nullIfAllNull,
		T: value.RecordTypeOf(typeName, fields)}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

func (r *RowCons) Type() value.Type { return r.T }
func (r *RowCons) Volatile() bool   { return anyVolatile(r.Args) }
func (*RowCons) expr()              {}

func (r *RowCons) String() string {
	if r.Table != "" {
		return r.Table
	}
	return "ROW(" + list(r.Args) + ")"
}

// Eval allocates the record's fields: a record is a value of its own,
// kept by whatever holds it.
func (r *RowCons) Eval(row value.Row) (value.Value, error) {
	fs := make([]value.Value, len(r.Args))
	null := r.NullIfAllNull
	for i, a := range r.Args {
		v, err := a.Eval(row)
		if err != nil {
			return value.Null, err
		}
		fs[i] = v
		null = null && v.IsNull()
	}
	if null {
		return value.Null, nil
	}
	return value.NewRecord(fs), nil
}

// Field returns the constructor's field called name, and its position;
// nil when there is none.
func (r *RowCons) Field(name string) (Expr, int) {
	for i, n := range r.Names {
		if n == name {
			return r.Args[i], i
		}
	}
	return nil, -1
}

// NewRecordNullTest returns e IS [NOT] NULL for a record e: IS NULL when
// every field is NULL, IS NOT NULL when none is (value.RecordNullTest).
func NewRecordNullTest(e Expr, not bool) Expr {
	word := " IS NULL"
	if not {
		word = " IS NOT NULL"
	}
	return &Func{Def: &FuncDef{Name: strings.TrimSpace(word), Eval: func(a []value.Value) (value.Value, error) {
		return value.NewBool(value.RecordNullTest(a[0], not)), nil
	}, Print: func(args []Expr) string { return operand(args[0]) + word }}, Args: []Expr{e}, T: value.BoolType}
}
