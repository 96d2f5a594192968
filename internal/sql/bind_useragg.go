package sql

import (
	"fmt"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A call of a user-defined aggregate is an aggregate call, which the
// binder must tell from a function call by the name alone, before it
// knows the catalog (aggCall). markUserAggregates therefore marks the
// calls of a statement whose name is a user aggregate's: their name is
// qualified by userAggSchema. A built-in aggregate's name stays the
// built-in's, as pg_catalog comes first in PostgreSQL's search path.
//
// The aggregate's functions are bound at each call over a row of their
// own, (state, arguments…): the transition function as
// sfunc(state, arguments…), the final function as ffunc(state), so that
// a built-in, SQL or PL/pgSQL function runs as any call of it does. The
// fold (plan.UserAgg) is computed from each group's inputs.

// userAggSchema qualifies the name of a call of a user aggregate.
const userAggSchema = "\x00user aggregate"

// The columns of the row the functions are bound over.
const (
	aggStateCol  = "aggstate$"
	aggArgPrefix = "aggarg$"
)

// markUserAggregates marks the calls of user aggregates under n.
func markUserAggregates(cat Catalog, n *pg_query.Node) {
	ac, ok := cat.(AggregateCatalog)
	if !ok || n == nil || !ac.AnyAggregates() {
		return
	}
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		f := n.GetFuncCall()
		if f == nil || len(f.Funcname) > 2 || len(f.Funcname) == 2 && f.Funcname[0].GetString_().GetSval() != "public" {
			return
		}
		name := FuncName(f.Funcname)
		if plan.IsAggName(name) || len(ac.Aggregates(name)) == 0 {
			return
		}
		f.Funcname = []*pg_query.Node{pg_query.MakeStrNode(userAggSchema), pg_query.MakeStrNode(name)}
	})
}

// markViewUserAggregates returns a view's query with the calls of user
// aggregates marked: a copy when there are some, since the view's tree
// is shared.
func markViewUserAggregates(cat Catalog, q *Stmt) *Stmt {
	ac, ok := cat.(AggregateCatalog)
	if !ok || !ac.AnyAggregates() {
		return q
	}
	found := false
	walkNodes(q.Node.ProtoReflect(), func(n *pg_query.Node) {
		if f := n.GetFuncCall(); f != nil && !found && len(f.Funcname) <= 2 && len(ac.Aggregates(FuncName(f.Funcname))) > 0 {
			found = true
		}
	})
	if !found {
		return q
	}
	cp := *q
	cp.Node = proto.Clone(q.Node).(*pg_query.Node)
	markUserAggregates(cat, cp.Node)
	return &cp
}

// markFunctionBody marks the calls of user aggregates in the body of the
// SQL function CREATE FUNCTION binds, whose text is parsed apart from the
// statement.
func markFunctionBody(cat Catalog) func(Bound, error) (Bound, error) {
	return func(bd Bound, err error) (Bound, error) {
		if cf, ok := bd.(*CreateFunction); ok && err == nil && cf.Func.Body != nil {
			markUserAggregates(cat, selectNode(cf.Func.Body))
			for _, n := range cf.Func.Earlier {
				markUserAggregates(cat, n)
			}
		}
		return bd, err
	}
}

// isUserAggCall reports whether f is a marked call of a user aggregate.
func isUserAggCall(f *pg_query.FuncCall) bool {
	return len(f.Funcname) == 2 && f.Funcname[0].GetString_().GetSval() == userAggSchema
}

// bindUserAggArgs binds the arguments of a call of a user aggregate,
// resolves the aggregate among those of its name by their types, and
// sets the call's Arg and User.
func (b *binder) bindUserAggArgs(as *aggScope, call *plan.AggCall, f *pg_query.FuncCall) error {
	name := FuncName(f.Funcname)
	ac, _ := b.cat.(AggregateCatalog)
	var aggs []*Aggregate
	if ac != nil {
		aggs = ac.Aggregates(name)
	}
	var args []expr.Expr
	types := []value.Type{}
	if !f.AggStar {
		for _, a := range f.Args {
			e, err := b.bindExpr(as.input, a)
			if err != nil {
				return err
			}
			args = append(args, e)
			types = append(types, e.Type())
		}
	}
	var sigs [][]value.Kind
	var cands []*Aggregate
	for _, a := range aggs {
		if len(a.Args) != len(args) {
			continue
		}
		sig := make([]value.Kind, len(args))
		for i, p := range a.Args {
			sig[i] = p.Type.Kind
		}
		sigs, cands = append(sigs, sig), append(cands, a)
	}
	best := b.aggOfArgDomains(as.input, cands, args)
	if best == nil {
		best = expr.BestSignatures(types, sigs)
	}
	best = preferBaseParams(cands, best, types)
	switch {
	case len(best) == 0:
		return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s does not exist", CallSignature(name, types)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	case len(best) > 1:
		return b.stmt.errf(f.Location, CodeAmbiguousFunction, "function %s is not unique", CallSignature(name, types)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	agg := cands[best[0]]
	if b.forView && len(agg.Args) == 0 {
		return b.refuse(f.Location, "aggregate %s without arguments is not supported in a materialized view", name)
	}
	for i, p := range agg.Args {
		var err error
		if args[i], err = b.coerce(args[i], p.Type, nodeLoc(f.Args[i], f.Location)); err != nil {
			return err
		}
		if p.Domain != nil && !SameDomain(b.exprDomain(as.input, args[i]), p.Domain) {
			// A value passed as the domain is checked against it.
			args[i] = &expr.DomainCheck{E: args[i], Domain: p.Domain}
		}
	}
	u, err := b.userAggFold(agg, f.Location)
	if err != nil {
		return err
	}
	switch len(args) {
	case 0:
	case 1:
		call.Arg = args[0]
	default:
		call.Arg = expr.NewRowCons(args)
	}
	call.User = u
	if au, ok := b.cat.(AggregateUser); ok {
		au.UseAggregate(agg)
	}
	return nil
}

// userAggFold binds an aggregate's functions into its fold; errors are
// PostgreSQL's at CREATE AGGREGATE, located at loc.
func (b *binder) userAggFold(a *Aggregate, loc int32) (*plan.UserAgg, error) {
	u := &plan.UserAgg{Sig: a.Signature(), NArgs: len(a.Args), Init: value.Null, Result: a.SType.Type}
	cols := []plan.Column{{Name: aggStateCol, Type: a.SType.Type}}
	refs := []string{aggStateCol}
	for i, p := range a.Args {
		c := aggArgPrefix + strconv.Itoa(i+1)
		cols = append(cols, plan.Column{Name: c, Type: p.Type})
		refs = append(refs, c)
	}
	if err := b.aggTransDomains(a); err != nil {
		return nil, err
	}
	var err error
	u.Trans, u.TransStrict, err = b.bindAggFunction(a.SFunc, cols, refs, loc)
	if err != nil {
		return nil, err
	}
	if u.Trans.Type().Kind != a.SType.Type.Kind {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "return type of transition function %s is not %s", FuncName(a.SFunc), a.SType.Type)
	}
	if a.HasInit {
		lit := &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{
			Arg:      &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Val: &pg_query.A_Const_Sval{Sval: &pg_query.String{Sval: a.InitCond}}, Location: -1}}},
			TypeName: proto.Clone(a.SType.TypeName).(*pg_query.TypeName), Location: -1}}}
		e, err := (&binder{cat: b.cat, stmt: b.stmt}).bindExpr(&scope{}, lit)
		if err != nil {
			return nil, pgerr.Wrap(err).At("", -1)
		}
		if u.Init, err = e.Eval(nil); err != nil {
			return nil, err
		}
	} else if u.TransStrict && (len(a.Args) == 0 || a.Args[0].Type.Kind != a.SType.Type.Kind) {
		return nil, pgerr.New(CodeInvalidFunctionDef, "must not omit initial value when transition function is strict and transition type is not compatible with input type")
	}
	if a.FinalFunc != nil {
		if u.Final, u.FinalStrict, err = b.bindAggFunction(a.FinalFunc, cols[:1], refs[:1], loc); err != nil {
			return nil, err
		}
		u.Result = u.Final.Type()
	}
	return u, nil
}

// internalAggFuncs are PostgreSQL's functions behind operators that
// aggregate definitions name as their transition functions (int4pl,
// float8larger, textcat, …), as the SQL each stands for, over exactly
// the argument types of its name.
var internalAggFuncs = map[string]struct {
	sql   string
	kinds []value.Kind
}{}

func init() {
	ops := map[string]string{"pl": "(%s) + (%s)", "mi": "(%s) - (%s)", "mul": "(%s) * (%s)", "div": "(%s) / (%s)",
		"larger": "greatest(%s, %s)", "smaller": "least(%s, %s)"}
	for prefix, k := range map[string]value.Kind{"int2": value.Int2, "int4": value.Int4, "int8": value.Int8, "float4": value.Float4, "float8": value.Float8} {
		for op, text := range ops {
			internalAggFuncs[prefix+op] = struct {
				sql   string
				kinds []value.Kind
			}{text, []value.Kind{k, k}}
		}
	}
	for op, text := range map[string]string{"add": ops["pl"], "sub": ops["mi"], "mul": ops["mul"], "div": ops["div"], "larger": ops["larger"], "smaller": ops["smaller"]} {
		internalAggFuncs["numeric_"+op] = struct {
			sql   string
			kinds []value.Kind
		}{text, []value.Kind{value.Numeric, value.Numeric}}
	}
	for name, text := range map[string]string{"textcat": "(%s) || (%s)", "text_larger": ops["larger"], "text_smaller": ops["smaller"]} {
		internalAggFuncs[name] = struct {
			sql   string
			kinds []value.Kind
		}{text, []value.Kind{value.Text, value.Text}}
	}
	internalAggFuncs["int8inc"] = struct {
		sql   string
		kinds []value.Kind
	}{"(%s) + 1", []value.Kind{value.Int8}}
}

// nonStrictBuiltins are the built-in functions, of those a transition
// function may be, that PostgreSQL calls with NULL arguments; the others
// are strict.
var nonStrictBuiltins = map[string]bool{"array_append": true, "array_prepend": true, "array_cat": true,
	"concat": true, "concat_ws": true, "num_nulls": true, "num_nonnulls": true, "coalesce": true,
	"json_build_array": true, "jsonb_build_array": true, "json_build_object": true, "jsonb_build_object": true}

// bindAggFunction binds a call of the function names over the columns
// cols, passed in order, and reports whether the function is strict.
func (b *binder) bindAggFunction(names []*pg_query.Node, cols []plan.Column, refs []string, loc int32) (expr.Expr, bool, error) {
	name := FuncName(names)
	quoted := make([]string, len(refs))
	for i, r := range refs {
		quoted[i] = quoteIdent(r)
	}
	types := make([]value.Type, len(cols))
	for i, c := range cols {
		types[i] = c.Type
	}
	missing := func() error {
		return pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", CallSignature(name, types))
	}
	var text string
	strict, user := true, false
	if in, ok := internalAggFuncs[name]; ok && len(names) == 1 {
		if len(in.kinds) != len(cols) {
			return nil, false, missing()
		}
		for i, k := range in.kinds {
			if cols[i].Type.Kind != k {
				return nil, false, missing()
			}
		}
		args := make([]any, len(quoted))
		for i, q := range quoted {
			args[i] = q
		}
		text = fmt.Sprintf(in.sql, args...)
	} else {
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = quoteIdent(n.GetString_().GetSval())
		}
		text = strings.Join(parts, ".") + "(" + strings.Join(quoted, ", ") + ")"
		// A user function's strictness is its declaration's; a built-in's
		// its definition's, when the call binds to one.
		fns := b.lookupFunctions(names)
		found := false
		for _, fn := range fns {
			if len(fn.Params) != len(cols) {
				continue
			}
			exact := true
			for i, p := range fn.Params {
				exact = exact && p.Type.Kind == cols[i].Type.Kind
			}
			if exact {
				strict, found = fn.Strict, true
			}
		}
		if len(fns) > 0 && !found {
			return nil, false, missing()
		}
		user = found
	}
	r, err := pg_query.Parse("SELECT " + text)
	if err != nil {
		return nil, false, missing()
	}
	n := r.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val
	setLocations(n.ProtoReflect(), loc)
	nb := &binder{rlsOpen: b.rlsOpen, cat: b.cat, stmt: b.stmt, stmtClock: b.stmtClock, forView: b.forView}
	e, err := nb.bindExpr(newScope("", cols), n)
	if err != nil {
		if pgerr.Code(err) == pgerr.UndefinedFunction {
			return nil, false, missing()
		}
		return nil, false, err
	}
	if !user && nonStrictBuiltins[name] {
		strict = false
	}
	return e, strict, nil
}
