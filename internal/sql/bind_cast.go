package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// User-defined casts (CREATE CAST). A cast converts values of a source
// type to a target type by a function, WITH FUNCTION f(source), or by
// the types' text forms, WITH INOUT. It is used by explicit casts (x::t,
// CAST(x AS t)), and, AS ASSIGNMENT or AS IMPLICIT, where a value is
// stored into a column of the target type; AS IMPLICIT also where a value
// is converted to a known type (a CASE branch, an argument whose
// parameter is chosen). Function and operator resolution do not choose a
// candidate through a user cast: a call that only one would fit is
// refused (0A000). A cast from or to a domain is accepted and ignored,
// with PostgreSQL's warning. WITHOUT FUNCTION (a binary-coercible cast)
// is accepted between the string types (bind_cast_binary.go).

// UserCast is a cast CREATE CAST made.
type UserCast struct {
	// Source and Target are the types' names as PostgreSQL prints them
	// (CastKey), the key of the cast.
	Source, Target string
	// TargetType is the target, for a cast that applies (not a domain's).
	TargetType value.Type
	// Func is the cast function, FuncSig its signature as DROP FUNCTION
	// names it (f(integer)); nil for WITH INOUT. Builtin is the function
	// when it is a built-in or extension one.
	Func    *FuncRef
	FuncSig string
	Builtin *expr.FuncDef
	// Context is 'e' (explicit only), 'a' (AS ASSIGNMENT) or 'i' (AS
	// IMPLICIT), as pg_cast.castcontext.
	Context byte
	// Ignored marks a cast from or to a domain.
	Ignored bool
	// Binary marks a cast WITHOUT FUNCTION (binary-coercible), which
	// converts as WITH INOUT does (bind_cast_binary.go).
	Binary bool
	// SourceType is the source, as TargetType the target.
	SourceType value.Type
	// Text is the CREATE CAST statement kept for the cast (set by the
	// catalog that keeps it), written again when a type it names is
	// renamed.
	Text string
}

// DepKey is the key under which a view's use of the cast is recorded.
func (c *UserCast) DepKey() string { return "cast (" + c.Source + " AS " + c.Target + ")" }

// Describe names the cast as PostgreSQL's messages do.
func (c *UserCast) Describe() string { return "cast from " + c.Source + " to " + c.Target }

// CreateCast is CREATE CAST.
type CreateCast struct {
	Cast *UserCast
	// Warning is PostgreSQL's WARNING for a cast that will be ignored.
	Warning string
}

// DropCast is DROP CAST [IF EXISTS] (source AS target) [CASCADE].
type DropCast struct {
	Source, Target string
	IfExists       bool
	Cascade        bool
	// Missing is the notice of DROP CAST IF EXISTS of a type that does
	// not exist ("" when both exist).
	Missing string
	// Written are the types as the statement wrote them, for the notice
	// of IF EXISTS (drop_missing.go).
	Written [2]string
	// Builtin is set when the pair has a built-in cast.
	Builtin bool
}

func (*CreateCast) bound() {}
func (*DropCast) bound()   {}

// CastCatalog is a Catalog with user-defined casts.
type CastCatalog interface {
	// UserCast returns the cast from source to target, by CastKey.
	UserCast(source, target string) (*UserCast, bool)
	// HasUserCasts reports whether there is any, HasCastTo whether there
	// is one to target.
	HasUserCasts() bool
	HasCastTo(target string) bool
	// ImplicitCastFrom returns an implicit cast from source, nil for none.
	ImplicitCastFrom(source string) *UserCast
}

// CastUser is a Catalog told of each user cast a statement applies.
type CastUser interface {
	UseCast(c *UserCast)
}

// CastKey is a type's name as a cast's source or target: its own name
// for a user type or a domain, its kind's without modifier otherwise.
func CastKey(t value.Type) string {
	if t.Enum() != nil || t.UserRange() != nil || t.Kind == value.Record {
		return t.String()
	}
	return value.Type{Kind: t.Kind, Mod: -1}.String()
}

// castType resolves a type name of CREATE or DROP CAST: its key, the
// type, and whether it is a domain.
func (b *binder) castType(tn *pg_query.TypeName) (string, value.Type, bool, error) {
	d, err := b.typeDomain(tn)
	if err != nil {
		return "", value.Type{}, false, err
	}
	if d != nil {
		return d.Name(), d.Def().Base, true, nil
	}
	if len(tn.Names) == 1 {
		if rel, ok := b.cat.Relation(tn.Names[0].GetString_().GetSval()); ok && rel.Kind == KindComposite {
			return rel.RowType.String(), rel.RowType, false, nil
		}
	}
	t, err := b.typeFromName(tn)
	if err != nil {
		return "", value.Type{}, false, err
	}
	return CastKey(t), t, false, nil
}

func (b *binder) userCast(source, target string) (*UserCast, bool) {
	if cc, ok := b.cat.(CastCatalog); ok {
		return cc.UserCast(source, target)
	}
	return nil, false
}

func (b *binder) bindCreateCast(cs *pg_query.CreateCastStmt) (Bound, error) {
	src, st, sdom, err := b.castType(cs.Sourcetype)
	if err != nil {
		return nil, err
	}
	dst, tt, ddom, err := b.castType(cs.Targettype)
	if err != nil {
		return nil, err
	}
	if src == dst {
		return nil, pgerr.New(codeInvalidObjectDef, "source data type and target data type are the same")
	}
	c := &UserCast{Source: src, Target: dst, TargetType: tt, SourceType: st, Context: 'e', Ignored: sdom || ddom}
	switch cs.Context {
	case pg_query.CoercionContext_COERCION_ASSIGNMENT:
		c.Context = 'a'
	case pg_query.CoercionContext_COERCION_IMPLICIT:
		c.Context = 'i'
	}
	switch {
	case cs.Func != nil:
		if err := b.castFunction(c, cs.Func, st, tt); err != nil {
			return nil, err
		}
	case !cs.Inout:
		if err := b.binaryCast(c, st, tt, sdom, ddom, cs.Sourcetype.Location); err != nil {
			return nil, err
		}
	}
	if _, ok := b.userCast(src, dst); ok || (!c.Ignored && (builtinCast(st, tt) || pgCastExists(st, tt))) {
		return nil, pgerr.New(pgerr.DuplicateObject, "cast from type %s to type %s already exists", src, dst)
	}
	cc := &CreateCast{Cast: c}
	if sdom {
		cc.Warning = "cast will be ignored because the source data type is a domain"
	} else if ddom {
		cc.Warning = "cast will be ignored because the target data type is a domain"
	}
	return cc, nil
}

// codeInvalidObjectDef is SQLSTATE 42P17, invalid_object_definition.
const codeInvalidObjectDef = "42P17"

// castFunction resolves and checks WITH FUNCTION f(args): a function of
// the types named, taking the source (or a type it converts to without
// a function) and returning the target, with PostgreSQL's errors.
func (b *binder) castFunction(c *UserCast, ow *pg_query.ObjectWithArgs, st, tt value.Type) error {
	name, err := b.functionName(ow.Objname)
	if err != nil {
		return err
	}
	ref := &FuncRef{Name: name, Args: []value.Type{}}
	for _, tn := range dropArgTypes(ow) {
		_, t, _, err := b.paramType(tn)
		if err != nil {
			return err
		}
		ref.Args = append(ref.Args, t)
	}
	var result value.Type
	var set bool
	found := false
	for _, f := range b.lookupFunctions(ow.Objname) {
		if f.Procedure || len(f.Params) != len(ref.Args) {
			continue
		}
		same := true
		for i, p := range f.Params {
			same = same && p.Poly == PolyNone && CastKey(p.Type) == CastKey(ref.Args[i])
		}
		if !same {
			continue
		}
		found, set = true, f.Set
		result = value.RecordType
		if len(f.Cols) == 1 && f.BaseType {
			result = f.Cols[0].Type
		}
		c.FuncSig = f.Signature()
	}
	if !found {
		exts, _ := b.extensionFuncs(name)
		def, _, res, err := expr.ResolveFuncWith(name, ref.Args, exts)
		if err == nil && len(def.Params) == len(ref.Args) {
			exact := true
			for i, k := range def.Params {
				exact = exact && k == ref.Args[i].Kind
			}
			if exact && !def.Variadic {
				found, result, c.Builtin = true, res, def
				c.FuncSig = def.Signature()
				b.usedExtensionFunc(def)
			}
		}
	}
	if !found {
		return pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", CallSignature(name, ref.Args))
	}
	c.Func = ref
	switch {
	case len(ref.Args) < 1 || len(ref.Args) > 3:
		return pgerr.New(codeInvalidObjectDef, "cast function must take one to three arguments")
	case len(ref.Args) >= 2 && ref.Args[1].Kind != value.Int4:
		return pgerr.New(codeInvalidObjectDef, "second argument of cast function must be type %s", "integer")
	case len(ref.Args) == 3 && ref.Args[2].Kind != value.Bool:
		return pgerr.New(codeInvalidObjectDef, "third argument of cast function must be type %s", "boolean")
	case CastKey(ref.Args[0]) != CastKey(st) && !binaryCoercible(st, ref.Args[0]):
		return pgerr.New(codeInvalidObjectDef, "argument of cast function must match or be binary-coercible from source data type")
	case CastKey(result) != CastKey(tt) && !binaryCoercible(result, tt):
		return pgerr.New(codeInvalidObjectDef, "return data type of cast function must match or be binary-coercible to target data type")
	case set:
		return pgerr.New(codeInvalidObjectDef, "cast function must not return a set")
	}
	return nil
}

// binaryCoercible reports whether PostgreSQL converts from to to without
// a function: among the string types, here.
func binaryCoercible(from, to value.Type) bool {
	return isString(from.Kind) && isString(to.Kind) && from.Kind != value.Char
}

// builtinCast reports whether PostgreSQL has a cast of its own (in
// pg_cast) from st to tt: one between built-in types that is not an I/O
// conversion to or from a string type, nor an array's.
func builtinCast(st, tt value.Type) bool {
	user := func(t value.Type) bool { return t.Enum() != nil || t.UserRange() != nil || t.Kind == value.Record }
	if user(st) || user(tt) || isString(st.Kind) != isString(tt.Kind) || st.Kind.IsArray() || tt.Kind.IsArray() {
		return false // an array's conversion is no pg_cast row
	}
	return value.CanCast(st.Kind, tt.Kind, true)
}

func (b *binder) bindDropCast(ds *pg_query.DropStmt) (Bound, error) {
	items := ds.Objects[0].GetList().GetItems()
	d := &DropCast{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	var types [2]value.Type
	var doms [2]bool
	for i, it := range items[:2] {
		tn := it.GetTypeName()
		key, t, dom, err := b.castType(tn)
		if err != nil {
			if n, ok := skipMissing(err, tn.Names, tn); ok && d.IfExists {
				d.Missing = n
				return d, nil
			}
			return nil, err
		}
		types[i], doms[i] = t, dom
		d.Written[i] = typeNameString(tn)
		if i == 0 {
			d.Source = key
		} else {
			d.Target = key
		}
	}
	d.Builtin = !doms[0] && !doms[1] && builtinCast(types[0], types[1])
	return d, nil
}

// castFor is the user cast that applies to a value of type from
// converted to the type named by target's key in context ('e', 'a' or
// 'i'); nil when none does.
func (b *binder) castFor(from value.Type, target string, context byte) *UserCast {
	cc, ok := b.cat.(CastCatalog)
	if !ok || !cc.HasUserCasts() || from.Kind == value.Unknown {
		return nil
	}
	c, ok := cc.UserCast(CastKey(from), target)
	if !ok || c.Ignored {
		return nil
	}
	switch {
	case context == 'e',
		context == 'a' && c.Context != 'e',
		context == 'i' && c.Context == 'i':
	default:
		return nil
	}
	if cu, ok := b.cat.(CastUser); ok {
		cu.UseCast(c)
	}
	return c
}

// userTypeCast applies a user cast to an explicit cast of c's argument,
// ok false when none applies. A cast function is called as a call of it
// written in the statement would be (a SQL function inlined).
func (b *binder) userTypeCast(s *scope, c *pg_query.TypeCast) (expr.Expr, bool, error) {
	cc, ok := b.cat.(CastCatalog)
	if !ok || !cc.HasUserCasts() {
		return nil, false, nil
	}
	if d, _ := b.typeDomain(c.TypeName); d != nil {
		return nil, false, nil // a cast to a domain is to its base type, then checked
	}
	target, t, _, err := b.castType(c.TypeName)
	if err != nil || !cc.HasCastTo(target) {
		return nil, false, nil // the cast's own binding reports an error
	}
	// The argument is bound here for its type, and again by the call of
	// the cast's function or by the cast without one.
	arg, err := b.bindExpr(s, c.Arg)
	if err != nil {
		return nil, false, err
	}
	uc := b.castFor(arg.Type(), target, 'e')
	if uc == nil {
		return nil, false, nil
	}
	if uc.Func == nil || uc.Builtin != nil {
		out, err := b.applyCast(uc, arg, t, true, c.Location)
		return out, true, err
	}
	call := &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode(uc.Func.Name)}, Args: []*pg_query.Node{c.Arg}, Location: c.Location}
	if len(uc.Func.Args) >= 2 {
		call.Args = append(call.Args, pg_query.MakeAConstIntNode(-1, c.Location))
	}
	if len(uc.Func.Args) == 3 {
		call.Args = append(call.Args, &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{
			Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: true}}, Location: c.Location}}})
	}
	out, err := b.bindFuncCall(s, call)
	if err != nil {
		return nil, true, err
	}
	if out.Type() != t {
		if out, err = expr.Coerce(out, t, true); err != nil {
			return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(c.Location))
		}
	}
	return out, true, nil
}

// applyCast converts a bound value by a cast: its result then takes the
// target's modifier (varchar(5)) explicitly, or, for an assignment or an
// implicit conversion, as an assignment does (22001 for a string too
// long).
func (b *binder) applyCast(uc *UserCast, e expr.Expr, t value.Type, explicit bool, loc int32) (expr.Expr, error) {
	var out expr.Expr
	var err error
	switch {
	case uc.Func == nil:
		if out, err = expr.Coerce(e, value.TextType, true); err == nil {
			out, err = castResult(out, t, explicit)
		}
	case uc.Builtin != nil:
		args := []expr.Expr{e}
		if len(uc.Func.Args) >= 2 {
			args = append(args, &expr.Const{V: value.NewInt(value.Int4, -1), T: value.Int4Type})
		}
		if len(uc.Func.Args) == 3 {
			args = append(args, &expr.Const{V: value.NewBool(true), T: value.BoolType})
		}
		if args[0], err = expr.Coerce(e, uc.Func.Args[0], true); err != nil {
			break
		}
		if uc.Builtin.Volatile && b.forView {
			return nil, b.refuse(loc, "volatile function %s() cannot be maintained in a view", uc.Builtin.Name).WithHint(volatileHint)
		}
		out = &expr.Func{Def: uc.Builtin, Args: args, T: uc.Builtin.Result}
		if out.Type() != t {
			out, err = castResult(out, t, explicit)
		}
	default:
		if out, err = b.callCastFunction(uc, e, loc); err != nil {
			return nil, err
		}
		if out.Type() != t {
			out, err = castResult(out, t, explicit)
		}
	}
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	return out, nil
}

// refuseImplicitCastCall refuses a call that found no function (err,
// 42883) when an argument has an implicit user cast, which PostgreSQL
// would consider and the resolution here does not.
func (b *binder) refuseImplicitCastCall(name string, ts []value.Type, err error, loc int32) error {
	cc, ok := b.cat.(CastCatalog)
	if !ok || !cc.HasUserCasts() || pgerr.Code(err) != pgerr.UndefinedFunction {
		return nil
	}
	for _, t := range ts {
		if c := cc.ImplicitCastFrom(CastKey(t)); c != nil {
			return b.refuse(loc, "function %s: resolving a call through the implicit %s is not supported", CallSignature(name, ts), c.Describe()).
				WithHint("cast the argument explicitly: CAST(… AS %s)", c.Target)
		}
	}
	return nil
}

// callCastFunction calls a cast's SQL or PL/pgSQL function on a value
// already bound, as a call of it in the statement would: the argument is
// a ParamRef standing for the value (binder.prebound). A SQL function
// whose body is not one expression would read the value from a subquery,
// out of the scope it was bound in, and is refused.
func (b *binder) callCastFunction(uc *UserCast, e expr.Expr, loc int32) (expr.Expr, error) {
	if b.tableDef {
		return nil, b.refuse(loc, "the %s by SQL function %s in a table's definition is not supported", uc.Describe(), uc.FuncSig).
			WithHint("write the expression itself")
	}
	var fn *Function
	for _, f := range b.lookupFunctions([]*pg_query.Node{pg_query.MakeStrNode(uc.Func.Name)}) {
		if f.Signature() == uc.FuncSig {
			fn = f
		}
	}
	if fn == nil {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", uc.FuncSig)
	}
	if b.prebound == nil {
		b.prebound = map[int32]expr.Expr{}
	}
	key := int32(-1000000 - len(b.prebound))
	b.prebound[key] = e
	args := []*pg_query.Node{{Node: &pg_query.Node_ParamRef{ParamRef: &pg_query.ParamRef{Number: 1, Location: key}}}}
	if len(uc.Func.Args) >= 2 {
		args = append(args, pg_query.MakeAConstIntNode(-1, loc))
	}
	if len(uc.Func.Args) == 3 {
		args = append(args, &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{
			Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: true}}, Location: loc}}})
	}
	s := b.argScope()
	c, ok, err := b.resolveCall(s, []*Function{fn}, args, loc, false)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", uc.FuncSig)
	case c.fn.Language == LangPLpgSQL:
		return b.routineCall(s, c, loc)
	}
	n := c.inline()
	if n == nil {
		return nil, b.refuse(loc, "the %s by SQL function %s, whose body is not one expression, in an assignment or an implicit conversion is not supported", uc.Describe(), uc.FuncSig).
			WithHint("write the cast explicitly: CAST(… AS %s)", uc.Target)
	}
	return b.bindExpr(s, n)
}

// castResult converts a cast's result to the target type itself (its
// modifier, or a kind the function's result converts to): explicitly for
// an explicit cast, else as an assignment converts, where it can.
func castResult(out expr.Expr, t value.Type, explicit bool) (expr.Expr, error) {
	from := out.Type().Kind
	return expr.Coerce(out, t, explicit || from != t.Kind && !value.CanCast(from, t.Kind, false))
}
