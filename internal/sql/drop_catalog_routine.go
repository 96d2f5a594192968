package sql

// DROP FUNCTION, PROCEDURE, ROUTINE and AGGREGATE of a name in schema
// pg_catalog, which holds PostgreSQL's built-in routines only: one that
// exists cannot be dropped (2BP01, or 42809 for the wrong kind), one that
// does not is skipped with IF EXISTS (a NOTICE) or is 42883, as there.

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// pgCatalogProcs lists PostgreSQL 15's pg_catalog routines, a line each:
// prokind, proname and oidvectortypes(proargtypes), tab-separated, as
// psql -At -F '\t' prints
//
//	SELECT prokind, proname, oidvectortypes(proargtypes) FROM pg_proc
//	WHERE pronamespace = 'pg_catalog'::regnamespace ORDER BY 2, 3, 1
//
//go:embed pg_catalog_procs.tsv
var pgCatalogProcs string

// catalogProc is a built-in routine: its kind (f, a, w, p) and its
// argument types as format_type prints them, joined by ", ".
type catalogProc struct{ kind, args string }

var (
	catalogProcsOnce sync.Once
	catalogProcs     map[string][]catalogProc
)

// catalogProcsNamed returns the built-in routines of a name.
func catalogProcsNamed(name string) []catalogProc {
	catalogProcsOnce.Do(func() {
		catalogProcs = map[string][]catalogProc{}
		for _, line := range strings.Split(strings.TrimSpace(pgCatalogProcs), "\n") {
			f := strings.SplitN(line, "\t", 3)
			if len(f) == 3 {
				catalogProcs[f[1]] = append(catalogProcs[f[1]], catalogProc{f[0], f[2]})
			}
		}
	})
	return catalogProcs[name]
}

// dropCatalogRoutine binds one routine a DROP of kind (function,
// procedure, routine or aggregate) names in pg_catalog: a ref that only
// carries the NOTICE of IF EXISTS, or the error PostgreSQL gives.
func (b *binder) dropCatalogRoutine(ow *pg_query.ObjectWithArgs, kind string, ifExists bool) (FuncRef, error) {
	name := ow.Objname[len(ow.Objname)-1].GetString_().GetSval()
	written := nameListString(ow.Objname)
	cands := catalogProcsNamed(name)
	if ow.ArgsUnspecified && kind != "aggregate" {
		if kind == "procedure" {
			cands = nil // none of pg_catalog's is a procedure
		}
		switch len(cands) {
		case 0:
			if ifExists {
				return FuncRef{Missing: fmt.Sprintf("%s %s() does not exist, skipping", kind, written)}, nil
			}
			what := kind
			if kind == "routine" {
				what = "function"
			}
			return FuncRef{}, pgerr.New(pgerr.UndefinedFunction, "could not find a %s named %q", what, written)
		case 1:
			return FuncRef{}, builtinDropError(kind, written, name, cands[0])
		}
		return FuncRef{}, pgerr.New(CodeAmbiguousFunction, "%s name %q is not unique", kind, written).
			WithHint("Specify the argument list to select the %s unambiguously.", kind)
	}
	tns := dropArgTypes(ow)
	sig, tn, err := b.catalogArgs(tns)
	if err != nil {
		if n, ok := skipMissing(err, tn.Names, tn); ok && ifExists {
			return FuncRef{Missing: n}, nil
		}
		return FuncRef{}, err
	}
	for _, c := range cands {
		if c.args == sig {
			return FuncRef{}, builtinDropError(kind, written, name, c)
		}
	}
	if ifExists {
		return FuncRef{Missing: fmt.Sprintf("%s %s(%s) does not exist, skipping", kind, written, typeNameListString(tns))}, nil
	}
	what := kind
	switch {
	case kind == "routine":
		what = "function"
	case kind == "aggregate" && sig == "":
		sig = "*"
	}
	return FuncRef{}, pgerr.New(pgerr.UndefinedFunction, "%s %s(%s) does not exist", what, written, sig)
}

// catalogArgs prints the argument types a DROP lists as pg_catalog's
// list names them; on an error, tn is the type name that failed.
func (b *binder) catalogArgs(tns []*pg_query.TypeName) (sig string, tn *pg_query.TypeName, err error) {
	args := make([]string, len(tns))
	for i, tn := range tns {
		_, t, poly, err := b.paramType(tn)
		if err != nil {
			return "", tn, err
		}
		args[i] = value.Type{Kind: t.Kind, Mod: -1}.String()
		if poly != PolyNone {
			args[i] = poly.String()
		}
	}
	return strings.Join(args, ", "), nil, nil
}

// builtinDropped is the error of a DROP naming a built-in routine
// unqualified, with its argument types: PostgreSQL finds pg_catalog's
// first, as its search path starts there. It is nil when the DROP names
// none, or its types do not resolve (its binding reports them).
func (b *binder) builtinDropped(ow *pg_query.ObjectWithArgs, kind string) error {
	if len(ow.Objname) != 1 || ow.ArgsUnspecified {
		return nil
	}
	name := ow.Objname[0].GetString_().GetSval()
	cands := catalogProcsNamed(name)
	if len(cands) == 0 {
		return nil
	}
	sig, _, err := b.catalogArgs(dropArgTypes(ow))
	if err != nil {
		return nil
	}
	for _, c := range cands {
		if c.args == sig {
			return builtinDropError(kind, name, name, c)
		}
	}
	return nil
}

// builtinDropError is the error of dropping the built-in routine c.
func builtinDropError(kind, written, name string, c catalogProc) error {
	switch {
	case kind == "procedure":
		return pgerr.New(pgerr.WrongObjectType, "%s(%s) is not a procedure", written, c.args)
	case kind == "function" && c.kind == "a":
		return pgerr.New(pgerr.WrongObjectType, "%q is an aggregate function", written).
			WithHint("Use DROP AGGREGATE to drop aggregate functions.")
	case kind == "aggregate" && c.kind != "a":
		return pgerr.New(pgerr.WrongObjectType, "function %s(%s) is not an aggregate", written, c.args)
	}
	return pgerr.New(pgerr.DependentObjects, "cannot drop function %s(%s) because it is required by the database system", name, c.args)
}

// inCatalogSchema reports whether names are qualified by pg_catalog.
func inCatalogSchema(names []*pg_query.Node) bool {
	return len(names) == 2 && names[0].GetString_().GetSval() == "pg_catalog"
}
