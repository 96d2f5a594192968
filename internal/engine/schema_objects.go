package engine

import (
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// The types, domains, functions, procedures and aggregates of a schema
// other than public are keyed "s.name", as its relations are
// (sql.QualifyNames writes the names statements give them as keys). DROP
// SCHEMA lists them with its relations and, with CASCADE, drops them
// after the relations, each as its own DROP would.

// schemaRoutine is a function, procedure or aggregate of a schema.
type schemaRoutine struct {
	fn  *sql.Function
	agg *sql.Aggregate
}

// describe names the routine as PostgreSQL's dependency lines do.
func (r schemaRoutine) describe() string {
	if r.agg != nil {
		return "function " + r.agg.Signature()
	}
	kind := "function "
	if r.fn.Procedure {
		kind = "procedure "
	}
	return kind + r.fn.Signature()
}

// schemaRoutines lists the schema's functions, procedures and aggregates
// by key.
func (e *Engine) schemaRoutines(name string) []schemaRoutine {
	p := name + "."
	var out []schemaRoutine
	for _, k := range sortedKeys(e.aggs) {
		if strings.HasPrefix(k, p) {
			for _, a := range e.aggs[k] {
				out = append(out, schemaRoutine{agg: a})
			}
		}
	}
	for _, k := range sortedKeys(e.funcs) {
		if strings.HasPrefix(k, p) {
			for _, f := range e.funcs[k] {
				out = append(out, schemaRoutine{fn: f})
			}
		}
	}
	return out
}

// schemaTypes lists the schema's domains, then its other types, in the
// order they can be dropped: composite types, range types, then enums
// (a multirange goes with its range).
func (e *Engine) schemaTypes(name string) (domains, types []string) {
	p := name + "."
	for k := range e.domains.byName {
		if strings.HasPrefix(k, p) {
			domains = append(domains, k)
		}
	}
	sort.Strings(domains)
	rank := func(t value.Type) int {
		switch {
		case t.Enum() != nil:
			return 2
		case t.UserRange() != nil:
			return 1
		}
		return 0
	}
	for k, t := range e.userTypes {
		if strings.HasPrefix(k, p) && t.Kind != value.UserMultirange {
			types = append(types, k)
		}
	}
	sort.Slice(types, func(i, j int) bool {
		ri, rj := rank(e.userTypes[types[i]]), rank(e.userTypes[types[j]])
		if ri != rj {
			return ri < rj
		}
		return types[i] < types[j]
	})
	return domains, types
}

// schemaObjectLines names the schema's types and routines, for DROP
// SCHEMA's dependency lines and notices.
func (e *Engine) schemaObjectLines(name string) []string {
	var out []string
	domains, types := e.schemaTypes(name)
	for _, t := range types {
		out = append(out, "type "+t)
	}
	for _, d := range domains {
		out = append(out, "type "+d)
	}
	for _, r := range e.schemaRoutines(name) {
		out = append(out, r.describe())
	}
	for _, o := range e.schemaOperators(name) {
		out = append(out, "operator "+o.Signature())
	}
	return out
}

// schemaOperators lists the schema's operators, by name.
func (e *Engine) schemaOperators(name string) []*sql.Operator {
	var out []*sql.Operator
	for _, k := range sortedKeys(e.opers) {
		for _, o := range e.opers[k] {
			if o.Schema == name {
				out = append(out, o)
			}
		}
	}
	return out
}

// dropSchemaObjects drops the schema's routines, domains and types, as
// DROP … CASCADE of each would; notices gathers what else goes.
func (e *Engine) dropSchemaObjects(name string, notices []string) ([]string, error) {
	add := func(r Result, err error) error {
		for _, n := range r.Notices {
			if !strings.Contains(n, "does not exist") {
				notices = append(notices, n)
			}
		}
		return err
	}
	for _, o := range e.schemaOperators(name) {
		ref := o.Ref()
		if err := add(e.dropOperators(&sql.DropOperator{Ops: []sql.OperRef{ref}, IfExists: true, Cascade: true})); err != nil {
			return nil, err
		}
	}
	for _, r := range e.schemaRoutines(name) {
		if r.agg == nil {
			continue
		}
		ts := make([]value.Type, len(r.agg.Args))
		doms := make([]*expr.Domain, len(r.agg.Args))
		for i, p := range r.agg.Args {
			ts[i], doms[i] = p.Type, p.Domain
		}
		d := &sql.DropAggregate{Aggs: []sql.FuncRef{{Name: r.agg.Name, Args: ts, Domains: doms}}, IfExists: true, Cascade: true}
		if err := add(e.dropAggregates(d)); err != nil {
			return nil, err
		}
	}
	for _, r := range e.schemaRoutines(name) {
		if r.fn == nil {
			continue
		}
		f := r.fn
		ref := sql.FuncRef{Name: f.Name, Args: []value.Type{}}
		for i, p := range f.Params {
			if !f.Procedure || i >= len(f.ArgModes) || f.ArgModes[i] != 'o' {
				ref.Args = append(ref.Args, p.Type)
				ref.Polys = append(ref.Polys, p.Poly)
			}
		}
		d := &sql.DropFunction{Procedure: f.Procedure, Funcs: []sql.FuncRef{ref}, IfExists: true, Cascade: true}
		if err := add(e.dropFunctions(d)); err != nil {
			return nil, err
		}
	}
	domains, types := e.schemaTypes(name)
	if len(domains) > 0 {
		if err := add(e.dropDomain(&sql.DropDomain{Names: domains, IfExists: true, Cascade: true})); err != nil {
			return nil, err
		}
	}
	for _, t := range types {
		if err := add(e.dropTypes(&sql.DropType{Names: []string{t}, IfExists: true, Cascade: true})); err != nil {
			return nil, err
		}
	}
	return notices, nil
}

// splitObject is the schema and the name of a type's or a routine's key;
// an array type's "_s.name" is schema s's "_name".
func (e *Engine) splitObject(key string) (string, string) {
	if len(key) > 1 && key[0] == '_' {
		if sc, n := e.splitKey(key[1:]); sc != "public" {
			return sc, "_" + n
		}
	}
	return e.splitKey(key)
}

// objectText is the type or routine keyed key as regtype and regproc
// print it: qualified by its schema when the search path does not hold
// it.
func (o *catalogObjects) objectText(key string, path []string) string {
	sc, n := o.e.splitKey(key)
	if sc == "public" || slices.Contains(path, sc) {
		return expr.QuoteIdent(n)
	}
	return expr.QuoteIdent(sc) + "." + expr.QuoteIdent(n)
}

// A key "s.name" is a relation, type or routine of schema s; public's
// keep their names. A name of public that contains a dot would read as
// another schema's key when its part before the dot names a schema, and
// a schema whose name contains a dot would split wrongly: the engine
// refuses both (0A000) rather than confuse them, which keeps the keys of
// every database file as they were.

// dottedPublicName refuses (0A000) a name created or renamed to in
// public whose part before a dot names an existing schema.
func (e *Engine) dottedPublicName(name string) error {
	if i := strings.IndexByte(name, '.'); i > 0 && e.schemas[name[:i]] != nil {
		return pgerr.New(pgerr.FeatureNotSupported, "a name %q in schema public is not supported while schema %s exists", name, name[:i]).
			WithDetail("The engine keys the objects of schema %s as %s.name.", name[:i], name[:i]).
			WithHint("choose a name without a dot, or create it in schema %s as %s", name[:i], name)
	}
	return nil
}

// schemaNameFree refuses (0A000) a new schema name containing a dot, or
// one that would take over the names of public that begin with it and a
// dot.
func (e *Engine) schemaNameFree(name string) error {
	if strings.Contains(name, ".") {
		return pgerr.New(pgerr.FeatureNotSupported, "a schema name containing a dot is not supported: %q", name)
	}
	p := name + "."
	taken := func(k string) bool { return strings.HasPrefix(k, p) }
	for _, m := range []func() []string{
		func() []string { return sortedKeys(e.tables) }, func() []string { return sortedKeys(e.views) },
		func() []string { return sortedKeys(e.named) }, func() []string { return sortedKeys(e.seqs) },
		func() []string { return sortedKeys(e.indexes) }, func() []string { return sortedKeys(e.userTypes) },
		func() []string { return sortedKeys(e.domains.byName) }, func() []string { return sortedKeys(e.funcs) },
		func() []string { return sortedKeys(e.aggs) },
	} {
		for _, k := range m() {
			if taken(k) {
				return pgerr.New(pgerr.FeatureNotSupported, "a schema named %s is not supported while schema public holds %q", name, k).
					WithDetail("The engine keys the objects of schema %s as %s.name.", name, name).
					WithHint("rename %q to a name without a dot first", k)
			}
		}
	}
	return nil
}

// MarkRestoring marks the session as the one a store runs the statements
// it recorded in, at open: those name a relation of a schema that ALTER
// TABLE changed by its key, "s.name", which a statement may not write.
func (s *Session) MarkRestoring() { s.restoring = true }
