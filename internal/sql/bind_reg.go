package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// sysCatalog returns the catalog's objects by oid, or nil when the catalog
// has no system catalogs.
func (b *binder) sysCatalog() *expr.SysCatalog {
	if sc, ok := b.cat.(SystemCatalog); ok {
		return sc.SysCatalog()
	}
	return nil
}

// regIn is the conversion of a value of kind from to the reg* kind k: a
// name (text) looked up, an oid (or an integer) named; nil when from has
// none.
func regIn(sc *expr.SysCatalog, k, from value.Kind) func(value.Value) (value.Value, error) {
	switch {
	case from == value.Unknown || isString(from):
		return func(v value.Value) (value.Value, error) { return sc.RegIn(k, v.String()) }
	case from.IsInteger() || from == k || from.IsOid() && value.CanCast(from, k, true):
		// one reg* type to another only through oid, but regproc and
		// regprocedure, regoper and regoperator, as in PostgreSQL
		return func(v value.Value) (value.Value, error) {
			o, err := value.Cast(v, value.OidType, true)
			if err != nil {
				return value.Null, err
			}
			return sc.RegOut(k, o.OID()), nil
		}
	}
	return nil
}

// regCast binds a cast of e to the reg* kind k: a name (text) is looked
// up, an oid (or an integer) named. A constant is resolved now, as
// PostgreSQL resolves 'name'::regclass when it plans the statement; a
// computed one when the statement runs, in the catalog the statement was
// bound with. The catalog changes under a materialized view without a
// change to its tables: a view cannot cast to a reg* type.
func (b *binder) regCast(e expr.Expr, k value.Kind, c *pg_query.TypeCast) (expr.Expr, error) {
	arg, loc := c.Arg, c.Location
	sc := b.sysCatalog()
	if sc == nil {
		return nil, b.refuse(c.TypeName.Location, "type %s is not supported here", k)
	}
	if b.forView {
		return nil, b.refuse(c.TypeName.Location, "a cast to %s reads the system catalog and cannot be maintained in a materialized view", k).
			WithHint("cast to oid, or compare names")
	}
	if p := untypedParam(e); p != nil {
		// $1::regtype: the parameter is the name, read as text (and
		// named in the catalog when the statement runs; PostgreSQL's
		// parameter is of the reg* type, which its input names: the
		// slot's Reg, which clients are told).
		var err error
		if e, err = expr.Coerce(e, value.TextType, true); err != nil {
			return nil, err
		}
		p.Reg = k
	}
	from := e.Type().Kind
	in := regIn(sc, k, from)
	if in == nil {
		return nil, b.stmt.errf(loc, pgerr.CannotCoerce, "cannot cast type %s to %s", e.Type(), k)
	}
	t := value.Type{Kind: k, Mod: -1}
	if cst, ok := e.(*expr.Const); ok {
		if cst.V.IsNull() {
			return &expr.Const{V: value.Null, T: t}, nil
		}
		v, err := in(cst.V)
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(arg, loc)))
		}
		return &expr.Const{V: v, T: t}, nil
	}
	def := &expr.FuncDef{Name: k.String(), Strict: true, Params: []value.Kind{value.Unknown}, Result: t,
		Eval: func(a []value.Value) (value.Value, error) { return in(a[0]) }}
	return &expr.Func{Def: def, Args: []expr.Expr{e}, T: t}, nil
}

// checkRegColumn refuses a table column of a reg* type: a stored value
// would have to be named again in the catalog as it is when read, which
// the binder that made it no longer sees. oid is a column type, and so is
// regconfig: its configurations are built in and never change.
func (b *binder) checkRegColumn(t value.Type, loc int32) error {
	if k := t.Kind.Elem(); k == value.RegConfig || t.Kind == value.RegConfig {
		return nil
	}
	if t.Kind.IsReg() || t.Kind.Elem().IsReg() {
		return b.refuse(loc, "a table column of type %s is not supported", t).WithHint("store the oid (type oid), and cast it when reading")
	}
	return nil
}

// regConfigSchema is the error of a constant's cast to regconfig: one
// naming a configuration of a schema that does not exist is 3F000, as
// PostgreSQL looks the schema up first; err otherwise.
func (b *binder) regConfigSchema(e expr.Expr, err error) error {
	cst, ok := e.(*expr.Const)
	sc := b.sysCatalog()
	if !ok || sc == nil || pgerr.Code(err) != pgerr.UndefinedObject || cst.V.IsNull() {
		return err
	}
	parts, perr := expr.RelationParts(cst.V.String())
	if perr != nil || len(parts) != 2 || parts[0] == "pg_catalog" {
		return err
	}
	if _, known := sc.OIDs[value.RegNamespace][parts[0]]; !known && sc.OIDs[value.RegNamespace] != nil {
		return pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", parts[0])
	}
	return err
}

// checkVoidColumn refuses a column of type void, trigger, event_trigger
// or cstring, as PostgreSQL's CheckAttributeType does (42P16, without a
// position).
func checkVoidColumn(name string, t value.Type) error {
	if t.Kind == value.Void || t.Kind == value.Cstring || t.Kind.IsValueless() {
		return pgerr.New(pgerr.InvalidTableDef, "column %q has pseudo-type %s", name, t)
	}
	if t.Kind == value.ArrayOf(value.Cstring) {
		return pgerr.New(pgerr.InvalidTableDef, "column %q has pseudo-type cstring", name) // its element's
	}
	return nil
}

// pseudoTypeColumn is err, the error of a column's type that does not
// resolve, unless the type is one of PostgreSQL's other pseudo-types
// (internal, language_handler, anyelement, …), which CheckAttributeType
// refuses as such (42P16).
func pseudoTypeColumn(cd *pg_query.ColumnDef, err error) error {
	tn := cd.TypeName
	if pgerr.Code(err) != pgerr.UndefinedObject || len(tn.ArrayBounds) > 0 || len(tn.Names) == 0 || len(tn.Names) > 2 {
		return err
	}
	if len(tn.Names) == 2 && tn.Names[0].GetString_().Sval != "pg_catalog" {
		return err
	}
	name := tn.Names[len(tn.Names)-1].GetString_().Sval
	for _, t := range expr.BuiltinCatalog().Types {
		if t.Type == "p" && t.Name == name {
			return pgerr.New(pgerr.InvalidTableDef, "column %q has pseudo-type %s", cd.Colname, name)
		}
	}
	return err
}

// voidDistinctFromNull binds x IS [NOT] DISTINCT FROM NULL, for x of a
// type without equality (void, trigger), as PostgreSQL binds it for any
// type: the test whether x itself is NULL.
func voidDistinctFromNull(a *pg_query.A_Expr, l, r expr.Expr) (expr.Expr, bool) {
	if k := l.Type().Kind; k != value.Void && !k.IsValueless() {
		return nil, false
	}
	if c := a.Rexpr.GetAConst(); c == nil || !c.Isnull {
		return nil, false
	}
	return &expr.IsNull{E: l, Not: a.Kind == pg_query.A_Expr_Kind_AEXPR_DISTINCT}, true
}

// noVoidEquality refuses = between void (or trigger) values (IN, IS
// DISTINCT FROM), which have no operator in PostgreSQL (42883).
func (b *binder) noVoidEquality(l, r value.Type, loc int32) error {
	if l.Kind != value.Void && r.Kind != value.Void && !l.Kind.IsValueless() && !r.Kind.IsValueless() {
		return nil
	}
	return b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s = %s", l, r).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}
