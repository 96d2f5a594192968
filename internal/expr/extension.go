package expr

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Extension is one of PostgreSQL's extensions as the engine provides it:
// its functions, implemented here, exist in a database only once CREATE
// EXTENSION has installed it there, so they are kept apart from the
// built-in catalog. Missing names the extension's functions that are not
// provided: a call of one is refused (0A000) rather than reported as a
// function that does not exist.
type Extension struct {
	Name, Version, Comment string
	// Relocatable is pg_extension.extrelocatable; Schema the schema it
	// must live in, "" when it may go in any.
	Relocatable bool
	Schema      string
	Funcs       []*FuncDef
	Missing     []string
	// Operators are the extension's operators, each a call of one of
	// Funcs.
	Operators []ExtOperator
	// Types are the extension's types, which exist once it is installed.
	Types []value.Type
}

// ExtOperator is an extension's operator: a call of Func. Left is
// value.Unknown for a prefix operator.
type ExtOperator struct {
	Name        string
	Left, Right value.Kind
	Func        string
	// Commutator is kept for pg_operator.
	Commutator string
}

// extensions are the extensions provided, by name: plpgsql, which
// every database has from the start, and those of ext_*.go.
var extensions = map[string]*Extension{
	"plpgsql": {Name: "plpgsql", Version: "1.0", Comment: "PL/pgSQL procedural language", Schema: "pg_catalog"},
}

// registerExtension adds x, marking its functions as its own.
func registerExtension(x *Extension) {
	for _, f := range x.Funcs {
		f.Ext = x.Name
		if f.Session != nil && f.Eval == nil {
			f.Eval = func([]value.Value) (value.Value, error) {
				return value.Value{}, pgerr.New(pgerr.FeatureNotSupported, "function %s reads the session's settings and is supported in a session's statements only", f.Name)
			}
		}
	}
	extensions[x.Name] = x
}

// LookupExtension returns the extension of a name the engine provides.
func LookupExtension(name string) (*Extension, bool) {
	x, ok := extensions[name]
	return x, ok
}

// Extensions returns the extensions provided, sorted by name.
func Extensions() []*Extension {
	out := make([]*Extension, 0, len(extensions))
	for _, x := range extensions {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b *Extension) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// FuncsNamed returns x's functions of a name.
func (x *Extension) FuncsNamed(name string) []*FuncDef {
	var out []*FuncDef
	for _, f := range x.Funcs {
		if f.Name == name {
			out = append(out, f)
		}
	}
	return out
}

// IsMissing reports whether name is a function of x that is not provided.
func (x *Extension) IsMissing(name string) bool { return slices.Contains(x.Missing, name) }

// Signature is a function's name and parameter types as PostgreSQL's
// regprocedure prints them: digest(text,text).
func (d *FuncDef) Signature() string {
	names := make([]string, len(d.Params))
	for i, k := range d.Params {
		names[i] = typeName(k)
	}
	return d.Name + "(" + strings.Join(names, ",") + ")"
}

// ResolveFuncWith is ResolveFunc among the built-in functions of a name
// and extra, the functions of the installed extensions: an extension's
// function with the parameters of a built-in one is hidden by it, as
// pg_catalog comes first in PostgreSQL's search path.
func ResolveFuncWith(name string, args []value.Type, extra []*FuncDef) (def *FuncDef, params []value.Type, result value.Type, err error) {
	if len(extra) == 0 {
		return ResolveFunc(name, args)
	}
	name = strings.ToLower(name)
	defs := slices.Clone(catalog[name])
	for _, x := range extra {
		if x.Rows != nil || x.Eval == nil && x.Session == nil {
			// Called in FROM or a select list only (ExtensionSRF), or
			// bound apart (hstore's functions over records).
			continue
		}
		if !slices.ContainsFunc(catalog[name], func(d *FuncDef) bool { return slices.Equal(d.Params, x.Params) }) {
			defs = append(defs, x)
		}
	}
	return resolveAmong(name, defs, args)
}

// ExtensionSRF is a call of an extension's set-returning function def
// with args, coerced to its parameters; a strict one gives no row when an
// argument is NULL.
func ExtensionSRF(def *FuncDef, args []Expr) *SRF {
	cols := def.RowTypes
	if cols == nil {
		cols = []value.Type{def.Result}
	}
	gen := def.Rows
	if def.Strict {
		gen = func(a []value.Value, emit func(value.Row) error) error {
			for _, v := range a {
				if v.IsNull() {
					return nil
				}
			}
			return def.Rows(a, emit)
		}
	}
	return &SRF{Name: def.Name, Args: args, Cols: cols, Names: def.RowNames, Gen: gen}
}

// ResolveExtensionSRF resolves a call of a set-returning function among
// defs, an installed extension's of a name, as PostgreSQL resolves a
// function's call.
func ResolveExtensionSRF(name string, args []value.Type, defs []*FuncDef) (def *FuncDef, params []value.Type, err error) {
	var srfs []*FuncDef
	for _, d := range defs {
		if d.Rows != nil {
			srfs = append(srfs, d)
		}
	}
	def, params, _, err = resolveAmong(strings.ToLower(name), srfs, args)
	return def, params, err
}
