package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Extensions (CREATE EXTENSION) install the functions of one of the
// extensions the engine provides (expr.Extension) into the database:
// before, a call of one is a function that does not exist, as in a
// PostgreSQL database without the extension. plpgsql is installed from
// the start and stays. A view's calls of an extension's functions are
// recorded in funcDeps under sql.ExtensionDepKey, so that DROP EXTENSION
// refuses (2BP01) or, with CASCADE, drops the views; a column default
// that calls one is a dependency too. The store keeps an extension as its
// statement, run again at open before the tables, whose defaults may call
// its functions.

// KindExtension is the kind of a stored extension, recorded under
// "extension " and its name.
const KindExtension RelKind = "extension"

// extensionState is the engine's installed extensions.
type extensionState struct {
	// exts are the installed extensions by name, plpgsql aside.
	exts map[string]*installedExt
}

// installedExt is an installed extension: what it is and where it went.
type installedExt struct {
	x      *expr.Extension
	schema string
	seq    int // creation order, for the catalog's oids
}

// builtinExtension is the extension installed from the start.
const builtinExtension = "plpgsql"

// ExtensionFuncs implements sql.ExtensionCatalog.
func (e *Engine) ExtensionFuncs(name string) ([]*expr.FuncDef, string) {
	var out []*expr.FuncDef
	missing := ""
	for _, ie := range e.exts {
		out = append(out, ie.x.FuncsNamed(name)...)
		if ie.x.IsMissing(name) {
			missing = ie.x.Name
		}
	}
	return out, missing
}

// ExtensionFuncs implements sql.ExtensionCatalog.
func (r *recorder) ExtensionFuncs(name string) ([]*expr.FuncDef, string) {
	if ec, ok := r.cat.(sql.ExtensionCatalog); ok {
		return ec.ExtensionFuncs(name)
	}
	return nil, ""
}

// UseExtensionFunc implements sql.ExtensionUser.
func (r *recorder) UseExtensionFunc(d *expr.FuncDef) { r.use(sql.ExtensionDepKey(d)) }

// ExtensionFuncs implements sql.ExtensionCatalog.
func (v viewRecorder) ExtensionFuncs(name string) ([]*expr.FuncDef, string) {
	return v.r.ExtensionFuncs(name)
}

// UseExtensionFunc implements sql.ExtensionUser.
func (v viewRecorder) UseExtensionFunc(d *expr.FuncDef) { v.r.UseExtensionFunc(d) }

// extensionInstalled reports whether an extension of the name is
// installed.
func (e *Engine) extensionInstalled(name string) bool {
	return name == builtinExtension || e.exts[name] != nil
}

// extensionStoreName is the name the store keeps an extension under.
func extensionStoreName(name string) string { return "extension " + name }

func (e *Engine) createExtension(c *sql.CreateExtension) (Result, error) {
	name := c.Ext.Name
	if e.extensionInstalled(name) {
		if c.IfNotExists {
			return Result{Tag: "CREATE EXTENSION", Notices: []string{fmt.Sprintf("extension %q already exists, skipping", name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateObject, "extension %q already exists", name)
	}
	if err := e.storeCreate(extensionStoreName(name), KindExtension,
		fmt.Sprintf("CREATE EXTENSION %s SCHEMA %s", expr.QuoteIdent(name), expr.QuoteIdent(c.Schema))); err != nil {
		return Result{}, err
	}
	if e.exts == nil {
		e.exts = map[string]*installedExt{}
	}
	seq := 0
	for _, ie := range e.exts {
		seq = max(seq, ie.seq+1)
	}
	e.exts[name] = &installedExt{x: c.Ext, schema: c.Schema, seq: seq}
	return Result{Tag: "CREATE EXTENSION"}, nil
}

func (e *Engine) alterExtension(a *sql.AlterExtension) (Result, error) {
	var x *expr.Extension
	if ie := e.exts[a.Name]; ie != nil {
		x = ie.x
	} else if a.Name == builtinExtension {
		x, _ = expr.LookupExtension(a.Name)
	} else {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "extension %q does not exist", a.Name)
	}
	if a.Version != "" && a.Version != x.Version {
		return Result{}, pgerr.New(pgerr.InvalidParameter, "extension %q has no update path from version %q to version %q", x.Name, x.Version, a.Version)
	}
	return Result{Tag: "ALTER EXTENSION", Notices: []string{fmt.Sprintf("version %q of extension %q is already installed", x.Version, x.Name)}}, nil
}

func (e *Engine) dropExtensions(d *sql.DropExtension) (Result, error) {
	var notices []string
	var gone []*installedExt
	for _, name := range d.Names {
		if name == builtinExtension {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP EXTENSION plpgsql is not supported: the PL/pgSQL language is built in")
		}
		ie := e.exts[name]
		if ie == nil {
			if d.IfExists {
				notices = append(notices, fmt.Sprintf("extension %q does not exist, skipping", name))
				continue
			}
			return Result{}, pgerr.New(pgerr.UndefinedObject, "extension %q does not exist", name)
		}
		if !slices.Contains(gone, ie) {
			gone = append(gone, ie)
		}
	}
	// The column defaults that call the extensions' functions, then the
	// views.
	var lines, views []string
	for _, ie := range gone {
		for _, dep := range e.extensionDefaults(ie.x.Name) {
			if d.Cascade {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP EXTENSION … CASCADE of extension %s, which the default of column %s of table %s calls, is not supported", ie.x.Name, dep.col, dep.table).
					WithHint("drop the column's default first: ALTER TABLE %s ALTER COLUMN %s DROP DEFAULT", dep.table, dep.col)
			}
			lines = append(lines, fmt.Sprintf("default value for column %s of table %s depends on function %s", dep.col, dep.table, dep.fn))
		}
		for _, dep := range e.extensionTypeColumns(ie.x) {
			if d.Cascade {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP EXTENSION … CASCADE of extension %s, whose type %s column %s of table %s has, is not supported", ie.x.Name, dep.fn, dep.col, dep.table).
					WithHint("drop the column first: ALTER TABLE %s DROP COLUMN %s", dep.table, dep.col)
			}
			lines = append(lines, fmt.Sprintf("column %s of table %s depends on type %s", dep.col, dep.table, dep.fn))
		}
		for _, dep := range e.exclusionsOnExtension(ie.x.Name) {
			if d.Cascade {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP EXTENSION … CASCADE of extension %s, which constraint %s of table %s needs, is not supported", ie.x.Name, dep.col, dep.table).
					WithHint("drop the constraint first: ALTER TABLE %s DROP CONSTRAINT %s", dep.table, dep.col)
			}
			lines = append(lines, fmt.Sprintf("constraint %s on table %s depends on operator class %s for access method gist", dep.col, dep.table, dep.fn))
		}
		// A view that uses an operator depends on it, as PostgreSQL
		// says, rather than on its function.
		viaOp := map[string]bool{}
		for _, o := range ie.x.Operators {
			for _, v := range e.callers(extOperatorSig(o)) {
				lines = append(lines, fmt.Sprintf("%s %s depends on %s", e.kindName(v), v, extOperatorSig(o)))
				viaOp[v+" "+o.Func] = true
				if !slices.Contains(views, v) {
					views = append(views, v)
				}
			}
		}
		for _, f := range ie.x.Funcs {
			for _, v := range e.callers(sql.ExtensionDepKey(f)) {
				if viaOp[v+" "+f.Name] {
					continue
				}
				lines = append(lines, fmt.Sprintf("%s %s depends on function %s", e.kindName(v), v, f.Signature()))
				if !slices.Contains(views, v) {
					views = append(views, v)
				}
			}
		}
	}
	if len(lines) > 0 && !d.Cascade {
		return Result{}, &pgerr.Error{Code: pgerr.DependentObjects,
			Message: fmt.Sprintf("cannot drop extension %s because other objects depend on it", gone[0].x.Name),
			Detail:  strings.Join(lines, "\n"),
			Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	sort.Strings(views)
	notices, err := e.dropCascaded(notices, views)
	if err != nil {
		return Result{}, err
	}
	if e.store != nil && len(gone) > 0 {
		keys := make([]string, len(gone))
		for i, ie := range gone {
			keys[i] = extensionStoreName(ie.x.Name)
		}
		if err := e.store.Drop(keys); err != nil {
			return Result{}, err
		}
	}
	for _, ie := range gone {
		delete(e.exts, ie.x.Name)
	}
	return Result{Tag: "DROP EXTENSION", Notices: notices}, nil
}

// extDefault is a column default that calls an extension's function.
type extDefault struct{ table, col, fn string }

// extensionDefaults are the column defaults of the tables that call a
// function of the extension named, by table and column.
func (e *Engine) extensionDefaults(ext string) []extDefault {
	var out []extDefault
	for _, t := range e.tables {
		if t.temp {
			continue
		}
		for _, c := range t.def.Cols {
			fn := ""
			expr.Walk(c.Default, func(x expr.Expr) bool {
				if f, ok := x.(*expr.Func); ok && f.Def.Ext == ext && fn == "" {
					fn = f.Def.Signature()
				}
				return fn == ""
			})
			if fn != "" {
				out = append(out, extDefault{t.def.Name, c.Name, fn})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].table < out[j].table || out[i].table == out[j].table && out[i].col < out[j].col
	})
	return out
}

// extensionMember is DROP FUNCTION's error for a function of an
// installed extension, which goes with the extension only; nil when ref
// names none.
func (e *Engine) extensionMember(ref sql.FuncRef) error {
	for _, ie := range e.exts {
		for _, f := range ie.x.FuncsNamed(ref.Name) {
			if ref.Args != nil && !slices.EqualFunc(f.Params, ref.Args, func(k value.Kind, t value.Type) bool { return k == t.Kind }) {
				continue
			}
			return pgerr.New(pgerr.DependentObjects, "cannot drop function %s because extension %s requires it", f.Signature(), ie.x.Name).
				WithHint("You can drop extension %s instead.", ie.x.Name)
		}
	}
	return nil
}

// extOperators returns the operators of a name of the installed
// extensions, each bound as a call of its function as a user operator is.
func (e *Engine) extOperators(name string) []*sql.Operator {
	var out []*sql.Operator
	for _, ie := range e.exts {
		for _, o := range ie.x.Operators {
			if o.Name != name {
				continue
			}
			out = append(out, extOperator(o))
		}
	}
	return out
}

// extOperatorSig is an extension operator's dependency key, as a user
// operator's (sql.Operator.DepKey): operator %(text,text).
func extOperatorSig(o expr.ExtOperator) string { return extOperator(o).DepKey() }

// extOperator is an extension's operator as a user operator.
func extOperator(o expr.ExtOperator) *sql.Operator {
	op := &sql.Operator{Name: o.Name, Right: &sql.FuncParam{Type: value.Type{Kind: o.Right, Mod: -1}},
		Func: []*pg_query.Node{pg_query.MakeStrNode(o.Func)}}
	if o.Left != value.Unknown {
		op.Left = &sql.FuncParam{Type: value.Type{Kind: o.Left, Mod: -1}}
	}
	return op
}

// ExtensionType implements sql.ExtensionTypeCatalog.
func (e *Engine) ExtensionType(name string) (value.Type, bool) {
	for _, ie := range e.exts {
		for _, t := range ie.x.Types {
			if t.String() == name {
				return t, true
			}
		}
	}
	return value.Type{}, false
}

// ExtensionType implements sql.ExtensionTypeCatalog.
func (r *recorder) ExtensionType(name string) (value.Type, bool) {
	if ec, ok := r.cat.(sql.ExtensionTypeCatalog); ok {
		return ec.ExtensionType(name)
	}
	return value.Type{}, false
}

// ExtensionType implements sql.ExtensionTypeCatalog.
func (v viewRecorder) ExtensionType(name string) (value.Type, bool) { return v.r.ExtensionType(name) }

// extOperatorOf returns the installed extension whose operator has a name
// and argument types, and the operator's signature; "" when none has.
func (e *Engine) extOperatorOf(name string, left, right *value.Type) (ext, sig string) {
	if right == nil {
		return "", ""
	}
	l := value.Unknown
	if left != nil {
		l = left.Kind
	}
	for _, ie := range e.exts {
		for _, o := range ie.x.Operators {
			if o.Name == name && o.Left == l && o.Right == right.Kind {
				return ie.x.Name, strings.TrimPrefix(extOperatorSig(o), "operator ")
			}
		}
	}
	return "", ""
}

// extCatalogOperators are the installed extensions' operators as
// pg_operator lists them, by extension name.
func (e *Engine) extCatalogOperators() []catOper {
	var out []catOper
	for _, name := range sortedKeys(e.exts) {
		for _, o := range e.exts[name].x.Operators {
			sig := strings.TrimPrefix(extOperatorSig(o), "operator ")
			c := catOper{oid: objectOID("operator", sig), name: o.Name, code: o.Func, com: o.Commutator, sig: sig,
				left: e.typeOID(value.Type{Kind: o.Left, Mod: -1}, nil), right: e.typeOID(value.Type{Kind: o.Right, Mod: -1}, nil)}
			for _, f := range e.exts[name].x.FuncsNamed(o.Func) {
				c.result = e.typeOID(f.Result, nil)
			}
			out = append(out, c)
		}
	}
	return out
}

// extensionTypeColumns are the table columns of a type of x (or arrays of
// it), by table and column; fn holds the type's name.
func (e *Engine) extensionTypeColumns(x *expr.Extension) []extDefault {
	var out []extDefault
	for _, t := range e.tables {
		for _, c := range t.def.Cols {
			for _, xt := range x.Types {
				if c.Type.Kind == xt.Kind || c.Type.Kind == value.ArrayOf(xt.Kind) {
					out = append(out, extDefault{t.def.Name, c.Name, xt.String()})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].table < out[j].table || out[i].table == out[j].table && out[i].col < out[j].col
	})
	return out
}

// extTypeOID is the oid of an extension's type (or of its array type),
// 0 for another type. PostgreSQL gives each its oid when the extension
// is created; here it is a function of the name, as a domain's.
func extTypeOID(t value.Type) uint32 {
	switch {
	case t.Kind == value.HStore:
		return objectOID("type", "hstore")
	case t.Kind == value.ArrayOf(value.HStore):
		return objectOID("type", "_hstore")
	case t.Kind == value.CIText:
		return objectOID("type", "citext")
	case t.Kind == value.ArrayOf(value.CIText):
		return objectOID("type", "_citext")
	}
	return 0
}

// extCatalogTypes are the installed extensions' types and their array
// types, as pg_type lists them.
func (e *Engine) extCatalogTypes() []catType {
	var out []catType
	for _, name := range sortedKeys(e.exts) {
		ie := e.exts[name]
		nsp := schemaOID(ie.schema)
		for _, t := range ie.x.Types {
			arr := value.Type{Kind: value.ArrayOf(t.Kind), Mod: -1}
			oid, aoid := extTypeOID(t), extTypeOID(arr)
			out = append(out, catType{oid: oid, array: aoid, name: t.String(), nsp: nsp, kind: t.Kind, typtype: 'b'},
				catType{oid: aoid, name: "_" + t.String(), nsp: nsp, kind: arr.Kind, typtype: 'b', base: oid})
		}
	}
	return out
}
