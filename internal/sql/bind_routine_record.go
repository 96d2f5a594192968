package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A PL/pgSQL function RETURNS record (or SETOF record) without OUT
// parameters returns records whose fields only a call knows, as in
// PostgreSQL: in FROM a column definition list names and types them
// (f() AS x(a int, b text); 42601 without one), and the function runs as
// one returning a composite type of those fields, so that each record it
// returns is checked against them as PostgreSQL checks it (42804
// returned record type does not match expected record type, structure of
// query does not match function result type). In an expression the call
// is the record the body returns.

// recordRoutine returns the instance of fn, a PL/pgSQL function returning
// record, whose result columns are the column definition list coldefs: one
// per list, kept among fn's instances for the engine to find by its
// RoutineSig.
func (b *binder) recordRoutine(fn *Function, coldefs []*pg_query.Node, loc int32) (*Function, error) {
	names, ts, err := b.recordColdefs(coldefs, loc)
	if err != nil {
		return nil, err
	}
	return recordRoutineOf(fn, names, ts), nil
}

// recordRoutineOf is recordRoutine of the columns names typed ts.
func recordRoutineOf(fn *Function, names []string, ts []value.Type) *Function {
	cols := make([]plan.Column, len(names))
	types := make([]string, len(names))
	for i, n := range names {
		cols[i] = plan.Column{Name: n, Type: ts[i]}
		types[i] = ts[i].String()
	}
	g := fn
	if fn.Generic != nil {
		g = fn.Generic
	}
	id := fn.instanceKey() + " AS (" + strings.Join(types, ", ") + ")"
	if g.instances == nil {
		g.instances = &polyInstances{}
	}
	g.instances.mu.Lock()
	defer g.instances.mu.Unlock()
	if inst := g.instances.byID[id]; inst != nil {
		return inst // its compiled body
	}
	inst := *fn
	inst.Generic, inst.instances, inst.Compiled, inst.instID = g, nil, nil, id
	inst.RecordCols = cols
	if g.instances.byID == nil {
		g.instances.byID = map[string]*Function{}
	}
	g.instances.byID[id] = &inst
	return &inst
}

// sqlRecordRoutine is recordRoutine for a SQL function returning SETOF
// record that runs as code (c's function, run as fn): as PostgreSQL, it
// checks the body's columns against the column definition list as CREATE
// checks a declared result (42P13), and the rows take the listed types by
// assignment casts. The instance returns the body's own types; convert
// are the listed ones, to cast its rows to (convertedRows).
func (b *binder) sqlRecordRoutine(c *userCall, fn *Function, coldefs []*pg_query.Node, loc int32) (*Function, []value.Type, error) {
	if _, err := b.anyRecordFrom(c, coldefs, loc); err != nil {
		return nil, nil, err
	}
	names, ts, err := b.recordColdefs(coldefs, loc)
	if err != nil {
		return nil, nil, err
	}
	got, err := bodyColumns(b.cat, c.fn)
	if err != nil || len(got) != len(ts) {
		return recordRoutineOf(fn, names, ts), nil, err
	}
	body := make([]value.Type, len(got))
	for i, col := range got {
		body[i] = col.Type
		if body[i].Kind == value.Unknown {
			body[i] = value.TextType
		}
	}
	inst := *recordRoutineOf(fn, names, body)
	inst.RecordCols = slices.Clone(inst.RecordCols)
	for i := range inst.RecordCols {
		inst.RecordCols[i].Name = names[i] // the cached instance's may be another call's
	}
	return &inst, ts, nil
}

// convertedRows casts each row gen emits to ts, by assignment casts.
func convertedRows(gen func([]value.Value, func(value.Row) error) error, ts []value.Type) func([]value.Value, func(value.Row) error) error {
	return func(args []value.Value, emit func(value.Row) error) error {
		return gen(args, func(r value.Row) error {
			out := make(value.Row, len(r))
			for i, v := range r {
				if i >= len(ts) {
					out[i] = v
					continue
				}
				// The body was checked to convert by assignment (above):
				// the kind as a cast gives it, then the modifier as an
				// assignment applies it.
				c, err := value.Cast(v, value.Type{Kind: ts[i].Kind, Mod: -1}, true)
				if err == nil {
					c, err = value.Coerce(c, ts[i], false)
				}
				if err != nil {
					return err
				}
				out[i] = c
			}
			return emit(out)
		})
	}
}
