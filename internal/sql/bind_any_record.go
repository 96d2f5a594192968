package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A SQL function RETURNS record (or SETOF record) without OUT parameters
// returns its body's row as an anonymous record whose fields only a call
// knows, as in PostgreSQL: in FROM a column definition list names and
// types them (f(…) AS x(a int, b text); 42601 without one), the body's
// columns checked against it as CREATE checks a declared result (42P13);
// in an expression the call is a record of the body's columns, whose
// fields a query cannot select (42703, and 42809 expanding it, as
// PostgreSQL cannot either), named after the columns for row_to_json. Either way the call is an instance of the
// function whose result columns are the record's fields, bound as a
// function of OUT parameters is (bind_out_record.go).

// anyRecordResult makes f's result the record of its body's row.
func anyRecordResult(f *Function) error {
	f.AnyRecord, f.BaseType = true, true
	f.Cols = []plan.Column{{Name: f.Name, Type: value.RecordType}}
	f.ColTypes = []*pg_query.TypeName{recordTypeName()}
	return nil
}

// recordTypeName is the type name record.
func recordTypeName() *pg_query.TypeName {
	return &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode("record")}, Typemod: -1, Location: -1}
}

// recordInstance returns c for an instance of its function whose result
// columns are cols, of type names types: a column definition list's
// (coldefs set), or the body's own.
func (c *userCall) recordInstance(cols []plan.Column, types []*pg_query.TypeName, coldefs bool) *userCall {
	g := *c.fn
	g.AnyRecord, g.BaseType, g.recordList, g.anyInstance = false, false, coldefs, true
	g.Cols, g.ColTypes = cols, types
	ic := *c
	ic.fn = &g
	return &ic
}

// anyRecordFrom returns the instance of call c in FROM that column
// definition list coldefs makes, the body checked against it.
func (b *binder) anyRecordFrom(c *userCall, coldefs []*pg_query.Node, loc int32) (*userCall, error) {
	names, ts, err := b.recordColdefs(coldefs, loc)
	if err != nil {
		return nil, err
	}
	cols := make([]plan.Column, len(names))
	types := make([]*pg_query.TypeName, len(names))
	for i, n := range names {
		cols[i] = plan.Column{Name: n, Type: ts[i]}
		types[i] = polyTypeName(ts[i])
	}
	ic := c.recordInstance(cols, types, true)
	if err := CheckFunctionBody(b.cat, ic.fn); err != nil {
		return nil, err
	}
	return ic, nil
}

// anyRecordExpr returns the instance of call c in an expression: the
// body's columns (recordQuery makes their record unregistered).
func (b *binder) anyRecordExpr(c *userCall) (*userCall, error) {
	got, err := bodyColumns(b.cat, c.fn)
	if err != nil {
		return nil, err
	}
	cols := make([]plan.Column, len(got))
	types := make([]*pg_query.TypeName, len(got))
	for i, col := range got {
		t := col.Type
		if t.Kind == value.Unknown {
			t = value.TextType
		}
		cols[i] = plan.Column{Name: col.Name, Type: t}
		types[i] = polyTypeName(t)
	}
	return c.recordInstance(cols, types, false), nil
}

// recordOf reports whether f is an instance of a function returning
// record, whose call is the record of its columns.
func (f *Function) recordOf() bool {
	return f.anyInstance
}

// unregisteredFields reports whether t is the record of a call of a
// function returning record, whose fields a query cannot select.
func unregisteredFields(t value.Type) bool {
	d := t.RecordDesc()
	return d != nil && t.Kind == value.Record && d.Unregistered
}
