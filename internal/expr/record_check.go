package expr

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// RecordCheck is PostgreSQL's rule for comparing two records (=, <>, <,
// IN, IS DISTINCT FROM, ANY) whose fields are not of the same types: the
// fields are compared in order, and the comparison fails with 42804 when
// it reaches the first pair of different types (an int with a bigint as
// much as with a text: records compare field by field with each type's
// own operator), or finds all fields equal in records of different
// widths. A comparison decided before that pair does not fail.
type RecordCheck struct {
	// Col is the position of the first pair of different types, or the
	// narrower width when the types agree up to it (Widths).
	Col    int
	L, R   value.Type // the pair's types
	Widths bool
	// Untyped is set when the pair agrees but is of type unknown (string
	// literals or NULLs of row constructors nested in compared rows),
	// which has no equality operator, nor, for an ordering comparison
	// (Ordering), a comparison function: 42883.
	Untyped, Ordering bool
	// Elems is set for arrays of records, whose elements each have their
	// own row type in PostgreSQL (ARRAY[ROW(1, 'a'::text), ROW(2, 3)]):
	// checkElems compares them pair by pair, each field by its value's
	// kind; LF and RF are the arrays' field types, for NULL fields and
	// string literals.
	Elems  bool
	LF, RF []value.Type
	// EachElem is set for a record compared with each element of an
	// array of records (op ANY, op ALL): checkPair compares the pair.
	EachElem bool
}

// NewRecordCheck returns the check of comparing l with r, two record
// expressions; nil when their fields agree, or when either's are not
// known. A string literal or NULL in a row constructor is a field of type
// unknown, as in PostgreSQL: ROW(1, 'x') compared with a table's row whose
// second column is text fails. Two arrays of records are always checked,
// element by element (Elems).
func NewRecordCheck(l, r Expr) *RecordCheck {
	lf, rf := recordFieldTypes(l), recordFieldTypes(r)
	if l.Type().Kind == value.ArrayOf(value.Record) && r.Type().Kind == value.ArrayOf(value.Record) {
		return &RecordCheck{Elems: true, LF: lf, RF: rf}
	}
	if lf == nil || rf == nil {
		return nil
	}
	for i := 0; i < len(lf) && i < len(rf); i++ {
		if !sameFieldType(lf[i], rf[i]) {
			return &RecordCheck{Col: i, L: lf[i], R: rf[i]}
		}
		if lf[i].Kind == value.Unknown {
			return &RecordCheck{Col: i, L: lf[i], R: rf[i], Untyped: true}
		}
	}
	if len(lf) != len(rf) {
		return &RecordCheck{Col: min(len(lf), len(rf)), Widths: true}
	}
	return nil
}

// recordFieldTypes returns the field types of a record expression, nil
// when they are not known.
func recordFieldTypes(e Expr) []value.Type {
	if c, ok := e.(*Cast); ok && c.E.Type().Kind == c.To.Kind {
		e = c.E // a comparison's coercion to the other side's record type
	}
	out := fieldTypesOf(e.Type())
	if out == nil {
		return nil
	}
	if f, ok := e.(*Func); ok && f.Def.Name == "array" && len(f.Args) > 0 {
		e = f.Args[0] // ARRAY[ROW(…), …]: its first row's literals
	}
	if r, ok := e.(*RowCons); ok && r.Untyped != nil && len(r.Untyped) == len(out) {
		for i, u := range r.Untyped {
			if u {
				out[i] = value.UnknownType
			}
		}
	}
	return out
}

// fieldTypesOf returns the field types of a record type or of an array
// of records' elements, nil when they are not known.
func fieldTypesOf(t value.Type) []value.Type {
	if t.Kind == value.ArrayOf(value.Record) {
		t = t.ElemType()
	}
	d := t.RecordDesc()
	if t.Kind != value.Record || d == nil {
		return nil
	}
	out := make([]value.Type, len(d.Fields))
	for i, f := range d.Fields {
		out[i] = f.Type
	}
	return out
}

// OrderRecordCheck returns the check of ordering two values of type t,
// as a sort, DISTINCT, GROUP BY or a set operation compares them: nil
// unless t is record or an array of records, whose values may each have
// a row type of their own (ARRAY[ROW(1, 2)] and ARRAY[ROW(1, 2.5)] in one
// column), told by their values' kinds.
func OrderRecordCheck(t value.Type) *RecordCheck {
	f := fieldTypesOf(t)
	switch t.Kind {
	case value.Record:
		return &RecordCheck{EachElem: true, LF: f, RF: f, Ordering: true}
	case value.ArrayOf(value.Record):
		return &RecordCheck{Elems: true, LF: f, RF: f, Ordering: true}
	}
	return nil
}

// sameFieldType reports whether two fields are of one type as PostgreSQL
// tells types apart: by kind, modifiers aside; records by their type name
// (anonymous records are all one type).
func sameFieldType(a, b value.Type) bool {
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == value.Record || a.Kind == value.ArrayOf(value.Record) {
		return recordName(a) == recordName(b)
	}
	return true
}

func recordName(t value.Type) string {
	if d := t.RecordDesc(); d != nil {
		return d.Name
	}
	return ""
}

// Check returns the error of comparing records a and b (neither NULL),
// nil when a pair of fields before the check's position differs (NULL
// after every value and equal to NULL, as records compare).
func (c *RecordCheck) Check(a, b value.Value) error {
	if c == nil {
		return nil
	}
	if c.Elems {
		return c.checkElems(a, b)
	}
	if c.EachElem {
		err, _ := c.checkPair(a, b)
		return err
	}
	x, y := a.Fields(), b.Fields()
	for i := 0; i < c.Col && i < len(x) && i < len(y); i++ {
		if value.Compare(x[i], y[i]) != 0 {
			return nil
		}
	}
	return c.err()
}

// err is the check's error, whatever the records.
func (c *RecordCheck) err() error {
	switch {
	case c.Widths:
		return pgerr.New(pgerr.DatatypeMismatch, "cannot compare record types with different numbers of columns")
	case c.Untyped && c.Ordering:
		return pgerr.New(pgerr.UndefinedFunction, "could not identify a comparison function for type unknown")
	case c.Untyped:
		return pgerr.New(pgerr.UndefinedFunction, "could not identify an equality operator for type unknown")
	}
	return pgerr.New(pgerr.DatatypeMismatch, "cannot compare dissimilar column types %s and %s at record column %d",
		value.Type{Kind: c.L.Kind, Mod: -1}, value.Type{Kind: c.R.Kind, Mod: -1}, c.Col+1)
}

// SubqueryRecordCheck returns the error of comparing x, a record, with the
// records y of a subquery's column (op ANY, op ALL, IN), nil when their
// fields agree or are not known. PostgreSQL fails as its plan compares a
// pair of records that reaches a pair of fields of different types; this
// is checked when binding, for any rows: the error whenever a comparison
// could reach such a pair. hashed is for IN and = ANY, whose subquery
// PostgreSQL hashes: a field of type unknown in y has no hash function
// (42883), and records of different widths never hash alike, so they
// compare unequal without error. ordering is for <, <=, > and >=.
func SubqueryRecordCheck(x, y Expr, hashed, ordering bool) error {
	c := NewRecordCheck(x, y)
	if c == nil || c.Elems {
		return nil // arrays' records are told apart by their values
	}
	if hashed {
		yf := recordFieldTypes(y)
		for _, t := range yf {
			if t.Kind == value.Unknown {
				return pgerr.New(pgerr.UndefinedFunction, "could not identify a hash function for type unknown")
			}
		}
		if len(yf) != len(recordFieldTypes(x)) {
			return nil
		}
	}
	c.Ordering = ordering
	return c.err()
}

// checkElems is Check of two arrays of records, compared element by
// element as PostgreSQL compares arrays: arrays of different dimensions
// are unequal without a comparison, a NULL element decides against a
// value, and the first pair of records that differs decides.
func (c *RecordCheck) checkElems(a, b value.Value) error {
	if !c.Ordering && !slices.Equal(a.Dims(), b.Dims()) {
		return nil
	}
	x, y := a.Elems(), b.Elems()
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i].IsNull() || y[i].IsNull() {
			if x[i].IsNull() && y[i].IsNull() {
				continue
			}
			return nil
		}
		if err, decided := c.checkPair(x[i], y[i]); err != nil || decided {
			return err
		}
	}
	return nil
}

// checkPair checks two records of arrays as Check does, each field of the
// type of its value (the array's field type where it is NULL or was a
// string literal); decided is set when the pair differs.
func (c *RecordCheck) checkPair(x, y value.Value) (err error, decided bool) {
	xf, yf := x.Fields(), y.Fields()
	for j := 0; j < len(xf) && j < len(yf); j++ {
		lt, lok := elemFieldType(xf[j], c.LF, j)
		rt, rok := elemFieldType(yf[j], c.RF, j)
		p := &RecordCheck{Col: j, L: lt, R: rt, Ordering: c.Ordering}
		if lok && rok && !sameFieldType(lt, rt) {
			return p.err(), true
		}
		if p.L.Kind == value.Unknown {
			p.Untyped = true
			return p.err(), true
		}
		if value.Compare(xf[j], yf[j]) != 0 {
			return nil, true
		}
	}
	if len(xf) != len(yf) {
		return (&RecordCheck{Widths: true}).err(), true
	}
	return nil, false
}

// elemFieldType is the type of field j of an array's record, which holds
// v: the array's field type for a string literal or a NULL (ok is false
// for a NULL past the array's fields), else v's kind, with the array's
// modifier when of that kind (a nested record's row type).
func elemFieldType(v value.Value, fields []value.Type, j int) (t value.Type, ok bool) {
	if j < len(fields) && (fields[j].Kind == value.Unknown || v.IsNull() || fields[j].Kind == v.Kind()) {
		return fields[j], true
	}
	return value.Type{Kind: v.Kind(), Mod: -1}, !v.IsNull()
}
