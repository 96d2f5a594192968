package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/plan"
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
	id := fn.Signature() + " AS (" + strings.Join(types, ", ") + ")"
	if g.instances == nil {
		g.instances = &polyInstances{}
	}
	g.instances.mu.Lock()
	defer g.instances.mu.Unlock()
	if inst := g.instances.byID[id]; inst != nil {
		return inst, nil // its compiled body
	}
	inst := *fn
	inst.Generic, inst.instances, inst.Compiled, inst.instID = g, nil, nil, id
	inst.RecordCols = cols
	if g.instances.byID == nil {
		g.instances.byID = map[string]*Function{}
	}
	g.instances.byID[id] = &inst
	return &inst, nil
}
