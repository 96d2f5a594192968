package expr

import "github.com/deltaview/deltaview/internal/value"

var _ Expr = (*FieldSelect)(nil)

// FieldSelect is (e).name of a record e whose type knows its fields: the
// field at Idx, NULL when the record is NULL. It keeps no state.
type FieldSelect struct {
	E    Expr
	Idx  int
	Name string
	T    value.Type
}

// NewFieldSelect returns the field of e's record type called name, and
// false when the type has no such field or does not know its fields.
func NewFieldSelect(e Expr, name string) (*FieldSelect, bool) {
	d := e.Type().RecordDesc()
	if d == nil || e.Type().Kind != value.Record {
		return nil, false
	}
	f, i := d.Field(name)
	if i < 0 {
		return nil, false
	}
	return &FieldSelect{E: e, Idx: i, Name: name, T: f.Type}, true
}

// FieldSelects returns every field of e's record type, in order, as
// (e).* expands it; nil when the type does not know its fields.
func FieldSelects(e Expr) []*FieldSelect {
	d := e.Type().RecordDesc()
	if d == nil || e.Type().Kind != value.Record {
		return nil
	}
	out := make([]*FieldSelect, len(d.Fields))
	for i, f := range d.Fields {
		out[i] = &FieldSelect{E: e, Idx: i, Name: f.Name, T: f.Type}
	}
	return out
}

func (f *FieldSelect) Type() value.Type { return f.T }
func (f *FieldSelect) Volatile() bool   { return f.E.Volatile() }
func (*FieldSelect) expr()              {}
func (f *FieldSelect) String() string   { return "(" + f.E.String() + ")." + f.Name }

func (f *FieldSelect) Eval(row value.Row) (value.Value, error) {
	v, err := f.E.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	if fs := v.Fields(); f.Idx < len(fs) {
		return fs[f.Idx], nil
	}
	return value.Null, nil
}
