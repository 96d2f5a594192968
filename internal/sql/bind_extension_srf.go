package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// An installed extension's set-returning functions (hstore's each, skeys
// and svals) run where the built-in ones do, in FROM and in a select list.
// The rewrite of the select list knows set-returning functions by name,
// before binding; the calls of an installed extension's are marked for it
// as a user function's are (markUserSRFs), in the schema extSRFMark, when
// no user function has the name.

// extSRFMark is the schema of the marked calls; no schema has its name.
const extSRFMark = "$extsrf"

// isExtSRF reports whether a call's name is one markExtSRF marked.
func isExtSRF(f *pg_query.FuncCall) bool {
	return len(f.Funcname) == 2 && f.Funcname[0].GetString_().GetSval() == extSRFMark
}

// markExtSRF marks f when an installed extension has a set-returning
// function of its name; it reports whether it did.
func markExtSRF(cat Catalog, f *pg_query.FuncCall, name string) bool {
	if extSRFDefs(cat, name) == nil {
		return false
	}
	f.Funcname = []*pg_query.Node{pg_query.MakeStrNode(extSRFMark), pg_query.MakeStrNode(name)}
	return true
}

// extSRFDefs are the installed extensions' set-returning functions of a
// name.
func extSRFDefs(cat Catalog, name string) []*expr.FuncDef {
	ec, ok := cat.(ExtensionCatalog)
	if !ok {
		return nil
	}
	fns, _ := ec.ExtensionFuncs(name)
	var out []*expr.FuncDef
	for _, d := range fns {
		if d.Rows != nil {
			out = append(out, d)
		}
	}
	return out
}

// srfRecordColumns names the columns of the record a set-returning call
// yields in a select list, nil for one of a single value
// (expr.SRFRecordColumns, or an extension's function's RowNames).
func srfRecordColumns(cat Catalog, f *pg_query.FuncCall) []string {
	if !isExtSRF(f) {
		return expr.SRFRecordColumns(opName(f.Funcname))
	}
	for _, d := range extSRFDefs(cat, opName(f.Funcname)) {
		if len(d.RowNames) > 1 {
			return d.RowNames
		}
	}
	return nil
}

// bindExtensionSRF binds a marked call of an extension's set-returning
// function in FROM. A view may read an immutable one (a FlatMap of each
// row); a volatile one is refused there.
func (b *binder) bindExtensionSRF(f *pg_query.FuncCall, coldefs []*pg_query.Node) (*expr.SRF, error) {
	name := opName(f.Funcname)
	if isCrosstab(f) {
		return b.bindCrosstab(f, coldefs)
	}
	if isConnectby(f) {
		return b.bindConnectby(f, coldefs)
	}
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	args := make([]expr.Expr, len(fargs))
	ts := make([]value.Type, len(fargs))
	for i, a := range fargs {
		if args[i], err = b.bindExpr(b.argScope(), a); err != nil {
			return nil, err
		}
		ts[i] = args[i].Type()
	}
	def, params, err := expr.ResolveExtensionSRF(name, ts, extSRFDefs(b.cat, name))
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	if def.Volatile && b.forView {
		return nil, b.refuse(f.Location, "volatile function %s() cannot be maintained in a view", name).
			WithHint(volatileHint)
	}
	for i := range args {
		if args[i], err = b.coerce(args[i], params[i], f.Location); err != nil {
			return nil, err
		}
	}
	if len(coldefs) > 0 {
		return nil, b.stmt.errf(coldefLoc(coldefs), pgerr.SyntaxError, "a column definition list is only allowed for functions returning \"record\"")
	}
	b.usedExtensionFunc(def)
	return expr.ExtensionSRF(def, args), nil
}

// uninstalledExtensionSRF is the error for a call in FROM of a
// set-returning function of an extension that is not installed: 42883, as
// in a PostgreSQL database without it; of one of an installed extension
// that is not provided, 0A000; nil for another name.
func (b *binder) uninstalledExtensionSRF(name string, f *pg_query.FuncCall) error {
	if _, missing := b.extensionFuncs(name); missing != "" {
		return errMissingExtensionFunc(name, missing).At(b.stmt.SQL, int(f.Location))
	}
	for _, x := range expr.Extensions() {
		for _, d := range x.FuncsNamed(name) {
			if d.Rows == nil {
				continue
			}
			args := make([]expr.Expr, len(f.Args))
			for i, a := range f.Args {
				e, err := b.bindExpr(b.argScope(), a)
				if err != nil {
					return err
				}
				args[i] = e
			}
			return pgerr.Wrap(expr.NoSuchFunction(name, args)).At(b.stmt.SQL, int(f.Location))
		}
	}
	return nil
}
