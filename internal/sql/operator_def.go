package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Operator is a user-defined operator (CREATE OPERATOR): a name for a
// call of its function, which a use binds as that call (inlined, for a
// SQL function), so that a view over it is maintained as the function
// is.
type Operator struct {
	Name string
	// Schema is the operator's schema, "" for public
	// (bind_operator_schema.go).
	Schema string
	// Left is nil for a prefix operator.
	Left, Right *FuncParam
	// Func is the function's name as written.
	Func []*pg_query.Node
	// Commutator and Negator are kept for pg_operator.
	Commutator, Negator string
}

// Signature prints the operator as PostgreSQL's regoperator does:
// ===(integer,integer), or ===(NONE,integer) for a prefix operator.
func (o *Operator) Signature() string {
	l := "NONE"
	if o.Left != nil {
		l = o.Left.TypeString()
	}
	name := o.Name
	if o.Schema != "" {
		name = o.Schema + "." + name
	}
	return name + "(" + l + "," + o.Right.TypeString() + ")"
}

// DepKey is the key under which a view's dependence on the operator is
// kept, beside the functions' signatures.
func (o *Operator) DepKey() string { return "operator " + o.Signature() }

// OperatorCatalog is a Catalog that holds user-defined operators.
type OperatorCatalog interface {
	Operators(name string) []*Operator
}

// OperatorUser is a Catalog told of every user-defined operator a
// statement uses.
type OperatorUser interface {
	UseOperator(o *Operator)
}

// CreateOperator is CREATE OPERATOR.
type CreateOperator struct{ Op *Operator }

// DropOperator is DROP OPERATOR name(left, right) [, …].
type DropOperator struct {
	Ops      []OperRef
	IfExists bool
	Cascade  bool
}

// OperRef names an operator by its argument types; Left is nil for NONE.
type OperRef struct {
	Name string
	// Schema is the schema named ("" for none: the search path's).
	Schema      string
	Left, Right *value.Type
	// LeftDomain and RightDomain are the domains Left and Right name,
	// nil for another type.
	LeftDomain, RightDomain *expr.Domain
	// Written is how DROP wrote its name, for the NOTICE of IF EXISTS
	// (drop_missing.go); Missing is that NOTICE when its schema or one of
	// its types does not exist, and the ref names nothing.
	Written, Missing string
}

func (*CreateOperator) bound() {}
func (*DropOperator) bound()   {}

// bindCreateOperator binds CREATE OPERATOR; its function must take the
// argument types exactly.
func (b *binder) bindCreateOperator(d *pg_query.DefineStmt) (Bound, error) {
	schema, err := b.operatorSchema(d.Defnames)
	if err != nil {
		return nil, err
	}
	o := &Operator{Name: FuncName(d.Defnames[len(d.Defnames)-1:]), Schema: schema}
	typ := func(de *pg_query.DefElem) (*FuncParam, error) {
		tn, t, err := b.functionType(de.Arg.GetTypeName())
		if err != nil {
			return nil, err
		}
		dom, err := b.paramDomain(tn, PolyNone)
		if err != nil {
			return nil, err
		}
		return &FuncParam{Type: t, TypeName: tn, Domain: dom}, nil
	}
	for _, n := range d.Definition {
		de := n.GetDefElem()
		var err error
		switch strings.ToLower(de.Defname) {
		case "leftarg":
			o.Left, err = typ(de)
		case "rightarg":
			o.Right, err = typ(de)
		case "function", "procedure":
			o.Func = defFuncName(de)
		case "commutator":
			o.Commutator = defText(de)
		case "negator":
			o.Negator = defText(de)
		case "restrict", "join", "hashes", "merges":
			// Planner hints.
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case o.Func == nil:
		return nil, pgerr.New(CodeInvalidFunctionDef, "operator function must be specified")
	case o.Left == nil && o.Right == nil:
		return nil, pgerr.New(CodeInvalidFunctionDef, "operator argument types must be specified")
	case o.Right == nil:
		return nil, pgerr.New(CodeInvalidFunctionDef, "operator right argument type must be specified").
			WithDetail("Postfix operators are not supported.")
	}
	if _, err := b.bindOperatorCall(o, nil, nil, -1); err != nil {
		return nil, err
	}
	return &CreateOperator{Op: o}, nil
}

// operArgs are an operator's argument columns and types.
func (o *Operator) operArgs() []FuncParam {
	if o.Left == nil {
		return []FuncParam{*o.Right}
	}
	return []FuncParam{*o.Left, *o.Right}
}

// bindOperatorCall binds a use of o over l and r (nil l for a prefix
// operator) as a call of its function; with r nil, over columns of the
// argument types, to check the function at CREATE.
func (b *binder) bindOperatorCall(o *Operator, l, r expr.Expr, loc int32) (expr.Expr, error) {
	params := o.operArgs()
	// PostgreSQL looks the function up by the declared types exactly, a
	// domain being a type of its own.
	written := make([]string, len(params))
	for i, p := range params {
		written[i] = p.TypeString()
	}
	missing := pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", FuncName(o.Func), strings.Join(written, ", "))
	if fns := b.lookupFunctions(o.Func); len(fns) > 0 {
		found := false
		for _, fn := range fns {
			if len(fn.Params) != len(params) {
				continue
			}
			exact := true
			for i, p := range fn.Params {
				exact = exact && p.Type.Kind == params[i].Type.Kind && SameDomain(p.Domain, params[i].Domain)
			}
			found = found || exact
		}
		if !found {
			return nil, missing
		}
	}
	var cols []plan.Column
	var args []expr.Expr
	if r == nil {
		for i, p := range params {
			cols = append(cols, plan.Column{Name: aggArgPrefix + string(rune('1'+i)), Type: p.Type})
		}
	} else {
		if l != nil {
			args = append(args, l)
		}
		args = append(args, r)
		for i, a := range args {
			cols = append(cols, plan.Column{Name: aggArgPrefix + string(rune('1'+i)), Type: a.Type()})
		}
	}
	refs := make([]string, len(cols))
	for i, c := range cols {
		refs[i] = c.Name
	}
	e, _, err := b.bindAggFunction(o.Func, cols, refs, loc)
	if err != nil {
		if pgerr.Code(err) == pgerr.UndefinedFunction {
			return nil, missing
		}
		return nil, err
	}
	if args == nil {
		return e, nil
	}
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if c, ok := x.(*expr.Col); ok && c.Idx >= 0 && c.Idx < len(args) && strings.HasPrefix(c.Name, aggArgPrefix) {
			return args[c.Idx]
		}
		return x
	}), nil
}

// userOperator binds l op r (l nil for a prefix operator) when a
// user-defined operator of the name takes the operands' types: exactly,
// or, when no built-in operator has the name, by PostgreSQL's implicit
// conversions; ok is false when none does.
func (b *binder) userOperator(s *scope, op string, l, r expr.Expr, builtin bool, loc int32) (e expr.Expr, ok bool, err error) {
	oc, has := b.cat.(OperatorCatalog)
	if !has {
		return nil, false, nil
	}
	ops := b.visibleOperators(oc.Operators(op))
	return b.userOperatorAmong(s, op, ops, l, r, builtin, loc)
}

// userOperatorAmong is userOperator over the operators ops.
func (b *binder) userOperatorAmong(s *scope, op string, ops []*Operator, l, r expr.Expr, builtin bool, loc int32) (e expr.Expr, ok bool, err error) {
	if len(ops) == 0 {
		return nil, false, nil
	}
	var types []value.Type
	if l != nil {
		types = append(types, l.Type())
	}
	types = append(types, r.Type())
	var sigs [][]value.Kind
	var cands, exacts []*Operator
	var exactSigs [][]value.Kind
	for _, o := range ops {
		if (o.Left == nil) != (l == nil) {
			continue
		}
		var sig []value.Kind
		exact := true
		for i, p := range o.operArgs() {
			sig = append(sig, p.Type.Kind)
			exact = exact && operandMatches(p.Type.Kind, types, i)
		}
		if exact {
			exacts, exactSigs = append(exacts, o), append(exactSigs, sig)
			continue
		}
		if !builtin {
			sigs, cands = append(sigs, sig), append(cands, o)
		}
	}
	if len(exacts) > 0 {
		i := b.operatorOfOperandDomains(s, exacts, l, r)
		cands, sigs = []*Operator{exacts[i]}, [][]value.Kind{exactSigs[i]}
	}
	best := expr.BestSignatures(types, sigs)
	switch {
	case len(best) == 0 && builtin:
		return nil, false, nil
	case len(best) == 0:
		lt := ""
		if l != nil {
			lt = l.Type().String() + " "
		}
		hint := "No operator matches the given name and argument types. You might need to add explicit type casts."
		if l == nil {
			hint = "No operator matches the given name and argument type. You might need to add an explicit type cast."
		}
		return nil, true, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s%s %s", lt, op, r.Type()).WithHint("%s", hint)
	case len(best) > 1:
		lt := ""
		if l != nil {
			lt = l.Type().String() + " "
		}
		return nil, true, b.stmt.errf(loc, CodeAmbiguousFunction, "operator is not unique: %s%s %s", lt, op, r.Type()).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	}
	o := cands[best[0]]
	params := o.operArgs()
	// A record parameter (hstore's #=) takes any row type as it is.
	if l != nil && (params[0].Type.Kind != value.Record || params[0].Type.Mod > 0 || l.Type().Kind != value.Record) {
		if l, err = b.coerce(l, params[0].Type, loc); err != nil {
			return nil, true, err
		}
	}
	if r, err = b.coerce(r, params[len(params)-1].Type, loc); err != nil {
		return nil, true, err
	}
	if ou, has := b.cat.(OperatorUser); has {
		ou.UseOperator(o)
	}
	e, err = b.bindOperatorCall(o, l, r, loc)
	return e, true, err
}

// bindDropOperator binds DROP OPERATOR.
func (b *binder) bindDropOperator(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropOperator{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, o := range ds.Objects {
		ref, err := b.operatorRef(o.GetObjectWithArgs(), d.IfExists)
		if err != nil {
			return nil, err
		}
		d.Ops = append(d.Ops, ref)
	}
	return d, nil
}

// bindUserOperatorExpr binds an operator expression whose operator has
// user-defined ones of its name: one taking the operands' types exactly
// first, then the built-in operators, then the user-defined ones by
// implicit conversions.
func (b *binder) bindUserOperatorExpr(s *scope, a *pg_query.A_Expr) (expr.Expr, bool, error) {
	oc, has := b.cat.(OperatorCatalog)
	if !has || a.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(a.Name) > 2 {
		return nil, false, nil
	}
	op := opName(a.Name)
	if len(a.Name) == 2 || len(b.visibleOperators(oc.Operators(op))) == 0 {
		return nil, false, nil
	}
	var l expr.Expr
	var err error
	if a.Lexpr != nil {
		if l, err = b.bindExpr(s, a.Lexpr); err != nil {
			return nil, true, err
		}
	}
	r, err := b.bindExpr(s, a.Rexpr)
	if err != nil {
		return nil, true, err
	}
	if e, ok, err := b.userOperator(s, op, l, r, true, a.Location); ok {
		return e, true, err
	}
	e, err := b.bindAExpr(s, a)
	if c := pgerr.Code(err); c != pgerr.UndefinedFunction && c != pgerr.FeatureNotSupported {
		return e, true, err
	}
	if e, ok, uerr := b.userOperator(s, op, l, r, false, a.Location); ok {
		return e, true, uerr
	}
	return nil, true, err
}

// operandMatches reports whether operand i of types matches an operator's
// parameter kind exactly, as PostgreSQL takes an unknown literal: as the
// other operand's type, or, when both are unknown, as text (the string
// category that PostgreSQL prefers for unknown literals).
func operandMatches(k value.Kind, types []value.Type, i int) bool {
	t := types[i].Kind
	if t == k {
		return true
	}
	if t != value.Unknown || len(types) != 2 {
		return false
	}
	other := types[1-i].Kind
	return other == k || other == value.Unknown && k == value.Text
}
