package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// A call of a SQL function is bound as the function's body, rewritten
// into the calling statement's tree, as PostgreSQL inlines SQL functions:
//
//   - a scalar function whose body is one expression without FROM (SELECT
//     $1 + 1) becomes that expression, each parameter replaced by its
//     argument cast to the parameter's type;
//   - any other becomes a query over the row of its arguments, (SELECT
//     $1 + 1) AS f(x) for f(x int), and its body, LATERAL to that row:
//     a scalar subquery for a scalar call, a LATERAL subquery in FROM for
//     a call in FROM. The body reads a parameter as a column of that row,
//     by name or as $n, so that a column of the body's own tables takes
//     precedence over a parameter of the same name, as in PostgreSQL.
//
// Views then maintain the body like the query it is (its tables become
// the view's dependencies), and the subqueries are decorrelated.

// userCall is a call resolved to a SQL function.
type userCall struct {
	fn *Function
	// args are, per parameter, the node of its argument (the call's or
	// the parameter's default); volatile marks those calling a volatile
	// function, which must be evaluated once.
	args     []*pg_query.Node
	volatile []bool
	loc      int32
	// cat is the catalog of the call, whose set-returning functions the
	// body's select list may call.
	cat Catalog
}

// lookupFunctions returns the SQL functions of a call's name: none when
// the catalog holds none, or the name is qualified by another schema.
func (b *binder) lookupFunctions(names []*pg_query.Node) []*Function {
	fc, ok := b.cat.(FunctionCatalog)
	if !ok || len(names) > 2 {
		return nil
	}
	if len(names) == 2 && names[0].GetString_().GetSval() != "public" && names[0].GetString_().GetSval() != userSRFMark {
		// Another schema's, named so where QualifyNames did not pass
		// (a function's body): its key.
		if k, ok := b.otherSchemaKey(names); ok {
			return fc.Functions(k)
		}
		return nil
	}
	return fc.Functions(names[len(names)-1].GetString_().GetSval())
}

// resolveUserCall picks among fns the function a call with args resolves
// to, by PostgreSQL's rules for overloads, named arguments and defaults;
// ok is false when none takes the arguments (a built-in function of the
// name may). The arguments are bound in s for their types only.
func (b *binder) resolveUserCall(s *scope, fns []*Function, args []*pg_query.Node, loc int32) (*userCall, bool, error) {
	return b.resolveCall(s, fns, args, loc, false)
}

// resolveCall is resolveUserCall for a call that may be marked VARIADIC
// (variadic): its last argument is then the array of a VARIADIC
// parameter; else a VARIADIC parameter takes the trailing arguments.
func (b *binder) resolveCall(s *scope, fns []*Function, args []*pg_query.Node, loc int32, variadic bool) (*userCall, bool, error) {
	types := make([]value.Type, len(args))
	doms := make([]*expr.Domain, len(args))
	known := make([]bool, len(args))
	names := make([]string, len(args))
	nodes := make([]*pg_query.Node, len(args))
	vol := make([]bool, len(args))
	for i, a := range args {
		nodes[i] = a
		if na := a.GetNamedArgExpr(); na != nil {
			names[i], nodes[i] = na.Name, na.Arg
		}
		e, err := b.bindExpr(s, nodes[i])
		if err != nil {
			return nil, false, err
		}
		types[i] = e.Type()
		doms[i], known[i] = b.exprDomainKnown(s, e)
		expr.Walk(e, func(x expr.Expr) bool {
			if f, ok := x.(*expr.Func); ok && f.Def.Volatile {
				vol[i] = true
			}
			return true
		})
	}
	var sigs [][]value.Kind
	var sigDoms [][]bool
	var slots [][]int
	var cands []*Function
	var spread []bool
	var polys []polyBinding
	for _, fn := range fns {
		slot, expand, ok := fn.variadicArgs(names, variadic)
		if !ok {
			continue
		}
		sig := make([]value.Kind, len(args))
		var declared []Poly
		var sigDom []bool
		for i, p := range slot {
			sig[i] = fn.Params[p].Type.Kind
			if fn.Params[p].Domain != nil && !(expand && p == len(fn.Params)-1) {
				if sigDom == nil {
					sigDom = make([]bool, len(args))
				}
				sigDom[i] = true
			}
			if expand && p == len(fn.Params)-1 {
				sig[i] = sig[i].Elem()
			}
			if pp := fn.Params[p].Poly; pp != PolyNone {
				// Any type goes to a pseudo-type, which bindPoly checks;
				// it counts as no exact match in the narrowing.
				if declared == nil {
					declared = make([]Poly, len(args))
				}
				if expand && p == len(fn.Params)-1 {
					pp = elemPoly(pp)
				}
				declared[i], sig[i] = pp, value.Unknown
			}
		}
		var pb polyBinding
		if declared != nil {
			if pb, ok = bindPoly(declared, types); !ok {
				continue
			}
			pb.recordArgs(declared, slot, types)
		}
		spread = append(spread, expand)
		polys = append(polys, pb)
		sigs, slots, cands = append(sigs, sig), append(slots, slot), append(cands, fn)
		sigDoms = append(sigDoms, sigDom)
	}
	if i := domainUnknownAt(cands, slots, known); i >= 0 {
		return nil, false, b.refuse(nodeLoc(nodes[i], loc), "argument %d of %s is a column whose domain is not known here, and the functions of the name differ in the domains they take", i+1, fns[0].Name).
			WithHint("cast the argument to the type of the function meant: x::d or x::%s", types[i])
	}
	best := exactDomainMatch(cands, slots, spread, types, doms)
	if best == nil {
		best = expr.BestSignaturesOfDomains(types, sigs, sigDoms)
	}
	switch len(best) {
	case 0:
		return nil, false, nil
	case 1:
	default:
		return nil, false, b.stmt.errf(loc, CodeAmbiguousFunction, "function %s is not unique", callTypes(fns[0].Name, types, doms)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	fn, slot := cands[best[0]], slots[best[0]]
	if fu, ok := b.cat.(FunctionUser); ok {
		fu.UseFunction(fn)
	}
	if fn.Polymorphic() {
		inst, err := fn.instance(&polys[best[0]])
		if err != nil {
			return nil, false, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		fn = inst
	}
	c := &userCall{fn: fn, args: make([]*pg_query.Node, len(fn.Params)), volatile: make([]bool, len(fn.Params)), loc: loc, cat: b.cat}
	for i, p := range slot {
		if spread[best[0]] && p == len(fn.Params)-1 {
			c.args[p] = spreadArgs(fn.Params[p].TypeName, nodes[i:], loc)
			for _, v := range vol[i:] {
				c.volatile[p] = c.volatile[p] || v
			}
			break
		}
		c.args[p], c.volatile[p] = nodes[i], vol[i]
	}
	for p, a := range c.args {
		if a == nil {
			d := proto.Clone(fn.Params[p].Default).(*pg_query.Node)
			setLocations(d.ProtoReflect(), loc)
			c.args[p] = d
		}
	}
	return c, true, nil
}

// bindArgs maps the arguments of a call, positional then named (names[i]
// empty for a positional one), to f's parameters: slot[i] is argument
// i's parameter. ok is false when they do not fit, or a parameter left
// has no default.
func (f *Function) bindArgs(names []string) (slot []int, ok bool) {
	if len(names) > len(f.Params) {
		return nil, false
	}
	filled := make([]bool, len(f.Params))
	slot = make([]int, len(names))
	for i, n := range names {
		p := i
		if n != "" {
			p = -1
			for j, q := range f.Params {
				if q.Name == n {
					p = j
				}
			}
			if p < 0 || filled[p] {
				return nil, false
			}
		}
		filled[p], slot[i] = true, p
	}
	for p, done := range filled {
		if !done && f.Params[p].Default == nil {
			return nil, false
		}
	}
	return slot, true
}

// CallSignature prints a call's argument types as PostgreSQL's messages
// about calls do: f(integer, unknown).
func CallSignature(name string, ts []value.Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// bindUserCall binds a call in an expression of a SQL function of its
// name; ok is false when no SQL function takes its arguments.
func (b *binder) bindUserCall(s *scope, f *pg_query.FuncCall) (expr.Expr, bool, error) {
	fns := b.lookupFunctions(f.Funcname)
	if len(fns) == 0 {
		return nil, false, nil
	}
	name := fns[0].Name
	switch {
	case f.Over != nil:
		return nil, true, b.stmt.errf(f.Location, pgerr.WrongObjectType, "OVER specified, but %s is not a window function nor an aggregate function", name)
	case f.AggDistinct:
		return nil, true, b.stmt.errf(f.Location, pgerr.WrongObjectType, "DISTINCT specified, but %s is not an aggregate function", name)
	case f.AggStar:
		return nil, true, b.stmt.errf(f.Location, pgerr.WrongObjectType, "%s(*) specified, but %s is not an aggregate function", name, name)
	case f.AggFilter != nil:
		return nil, true, b.stmt.errf(f.Location, pgerr.WrongObjectType, "FILTER specified, but %s is not an aggregate function", name)
	case len(f.AggOrder) > 0:
		return nil, true, b.stmt.errf(f.Location, pgerr.WrongObjectType, "ORDER BY specified, but %s is not an aggregate function", name)
	}
	if b.tableDef {
		return b.userCallInTableDef(s, fns, f) // bind_tabledef_call.go
	}
	c, ok, err := b.resolveCall(s, fns, f.Args, f.Location, f.FuncVariadic)
	if !ok && err == nil && (f.FuncVariadic || namedCall(f.Args)) {
		return nil, true, b.noVariadicMatch(s, name, f)
	}
	if !ok || err != nil {
		return nil, ok || err != nil, err
	}
	if c.fn.Language == LangPLpgSQL {
		e, err := b.routineCall(s, c, f.Location)
		return e, true, err
	}
	if c.fn.Set {
		return nil, true, b.refuse(f.Location, "set-returning function %s() in an expression is not supported", name).
			WithHint("call it in FROM: SELECT … FROM %s(…)", name)
	}
	if c.fn.AnyRecord {
		if c.fn.Set {
			return nil, true, b.refuse(f.Location, "set-returning function %s() in an expression is not supported", name).
				WithHint("call it in FROM with a column definition list: SELECT … FROM %s(…) AS x(a type, …)", name)
		}
		if c, err = b.anyRecordExpr(c); err != nil {
			return nil, true, err
		}
	}
	if e, ok, err := b.volatileCodeCall(s, c); ok {
		return e, true, err
	}
	var n *pg_query.Node
	if c.fn.outRecord() || c.fn.recordOf() {
		n = &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
			SubLinkType: pg_query.SubLinkType_EXPR_SUBLINK, Subselect: c.recordQuery(!b.forView), Location: f.Location}}}
	} else if n = c.inline(); n == nil {
		n = &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
			SubLinkType: pg_query.SubLinkType_EXPR_SUBLINK, Subselect: c.rowsQuery(true, !b.forView), Location: f.Location}}}
	}
	defer b.asInvoker()()
	e, err := b.bindExpr(s, n)
	return e, true, err
}

// userFunctionFrom rewrites a SQL function called in FROM into a LATERAL
// subquery; ok is false when the item calls no SQL function. lat is the
// scope of the FROM items before it.
func (b *binder) userFunctionFrom(rf *pg_query.RangeFunction, lat *scope) (*pg_query.Node, bool, error) {
	if len(rf.Functions) != 1 {
		return nil, false, nil
	}
	items := rf.Functions[0].GetList().GetItems()
	if len(items) == 0 {
		return nil, false, nil
	}
	f := items[0].GetFuncCall()
	if f == nil {
		return nil, false, nil
	}
	fns := b.lookupFunctions(f.Funcname)
	if len(fns) == 0 {
		return nil, false, nil
	}
	saved := b.outers
	if lat != nil {
		b.outers = append([]*scope{lat}, saved...)
	}
	c, ok, err := b.resolveCall(&scope{}, fns, f.Args, f.Location, f.FuncVariadic)
	b.outers = saved
	if !ok || err != nil {
		return nil, ok || err != nil, err
	}
	if c.fn.Trigger {
		return nil, true, b.stmt.errf(f.Location, pgerr.DatatypeMismatch, "function %q in FROM has unsupported return type %s", c.fn.Name, c.fn.TriggerType())
	}
	if c.fn.Language == LangPLpgSQL {
		return nil, false, nil // a table function (routineSRF)
	}
	coldefs := rf.Coldeflist
	if len(items) > 1 && len(items[1].GetList().GetItems()) > 0 {
		coldefs = items[1].GetList().GetItems()
	}
	if c.fn.AnyRecord {
		if c, err = b.anyRecordFrom(c, coldefs, f.Location); err != nil {
			return nil, true, err
		}
		coldefs = nil
	}
	switch {
	case rf.Ordinality:
		return nil, true, b.refuse(f.Location, "WITH ORDINALITY over SQL function %s() is not supported", c.fn.Name)
	case len(coldefs) > 0:
		return nil, true, b.stmt.errf(f.Location, pgerr.SyntaxError, "a column definition list is redundant for a function returning a named composite type")
	}
	var q *pg_query.Node
	switch {
	case c.fn.Set:
		q = c.rowsQuery(false, false)
	case c.fn.recordOf():
		// An instance whose columns a column definition list gives: its
		// record, cast to record (which keeps its type) for the fields
		// of a subquery's record to be known (unregisteredColumn).
		sub := &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
			SubLinkType: pg_query.SubLinkType_EXPR_SUBLINK, Subselect: c.recordQuery(!b.forView), Location: f.Location}}}
		q = selectNode(&pg_query.SelectStmt{TargetList: []*pg_query.Node{resTarget(castNode(sub, recordTypeName()), c.fn.Name)}})
	default:
		// One row, NULL when the body returns none: the scalar call.
		q = selectNode(&pg_query.SelectStmt{TargetList: []*pg_query.Node{resTarget(&pg_query.Node{Node: &pg_query.Node_FuncCall{FuncCall: f}}, c.fn.Cols[0].Name)}})
	}
	// The fields of the one record: of a composite type, or of the OUT
	// parameters (NULL fields when the body gives no row).
	composite := c.fn.BaseType && isRowType(c.fn.Cols[0].Type) || c.fn.outRecord() || c.fn.recordOf() && !c.fn.Set
	if composite {
		q = fieldsQuery(q)
	}
	alias := rf.Alias
	switch {
	case alias == nil:
		alias = &pg_query.Alias{Aliasname: c.fn.Name}
	case c.fn.BaseType && !composite && len(alias.Colnames) == 0:
		alias = &pg_query.Alias{Aliasname: alias.Aliasname, Colnames: []*pg_query.Node{pg_query.MakeStrNode(alias.Aliasname)}}
	}
	return &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Lateral: true, Subquery: q, Alias: alias}}}, true, nil
}

// rowsQuery is the query a call stands for: its body over the row of its
// arguments,
//
//	SELECT CAST(r.c AS t), … FROM (SELECT CAST(a AS t1) AS p1, …) AS f,
//	LATERAL (body) AS r(c, …) [WHERE f.p1 IS NOT NULL AND …]
//
// the WHERE for a STRICT function. For a scalar call a body ordered
// without LIMIT gives its first row, and so does any body with first (a
// query run once: the first row the body's plan yields, as PostgreSQL
// takes the first its execution yields); without first an unordered
// body giving several rows is 21000, as a view cannot tell which row
// comes first.
func (c *userCall) rowsQuery(scalar, first bool) *pg_query.Node {
	fn := c.fn
	body := proto.Clone(fn.Body).(*pg_query.SelectStmt)
	setLocations(body.ProtoReflect(), c.loc)
	if scalar && (first || len(body.SortClause) > 0) && body.LimitCount == nil {
		body.LimitCount = pg_query.MakeAConstIntNode(1, -1)
		body.LimitOption = pg_query.LimitOption_LIMIT_OPTION_COUNT
	}
	out := &pg_query.SelectStmt{}
	var names []string
	for i, col := range fn.Cols {
		name := "c" + strconv.Itoa(i+1)
		names = append(names, name)
		out.TargetList = append(out.TargetList, resTarget(castNode(columnRef(c.loc, bodyRel, name), fn.ColTypes[i]), col.Name))
	}
	out.FromClause = c.bodyFrom(body, names)
	if fn.Strict && len(fn.Params) > 0 {
		var conds []*pg_query.Node
		for i := range fn.Params {
			conds = append(conds, &pg_query.Node{Node: &pg_query.Node_NullTest{NullTest: &pg_query.NullTest{
				Arg: columnRef(c.loc, fn.Name, fn.paramCol(i)), Nulltesttype: pg_query.NullTestType_IS_NOT_NULL, Location: c.loc}}})
		}
		out.WhereClause = andNodes(conds)
	}
	return selectNode(out)
}

// bodyRel is the name of the body's rows in the query of a call.
const bodyRel = "$r"

// bodyFrom is the FROM list of a call's query: the row of its arguments
// named after the function, and body LATERAL to it as bodyRel(cols…),
// body's $n made references to the row's columns.
func (c *userCall) bodyFrom(body *pg_query.SelectStmt, cols []string) []*pg_query.Node {
	fn := c.fn
	if c.cat != nil {
		// The statement's set-returning calls were moved to FROM before
		// binding; the body's are moved now.
		n := selectNode(body)
		markUserSRFs(c.cat, n)
		rewriteSelectSRF(c.cat, n)
	}
	var from []*pg_query.Node
	if len(fn.Params) > 0 {
		row := &pg_query.SelectStmt{}
		for i := range fn.Params {
			row.TargetList = append(row.TargetList, resTarget(c.arg(i), fn.paramCol(i)))
		}
		from = append(from, &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
			Subquery: selectNode(row), Alias: &pg_query.Alias{Aliasname: fn.Name}}}})
		walkNodesPruned(body.ProtoReflect(), func(n *pg_query.Node) bool {
			if pr := n.GetParamRef(); pr != nil && pr.Number >= 1 && int(pr.Number) <= len(fn.Params) {
				n.Node = columnRef(pr.Location, fn.Name, fn.paramCol(int(pr.Number)-1)).Node
				return false
			}
			return true
		})
	}
	alias := &pg_query.Alias{Aliasname: bodyRel}
	for _, name := range cols {
		alias.Colnames = append(alias.Colnames, pg_query.MakeStrNode(name))
	}
	return append(from, &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Lateral: len(fn.Params) > 0, Subquery: selectNode(body), Alias: alias}}})
}

func columnRef(loc int32, names ...string) *pg_query.Node {
	fields := make([]*pg_query.Node, len(names))
	for i, n := range names {
		fields[i] = pg_query.MakeStrNode(n)
	}
	return pg_query.MakeColumnRefNode(fields, loc)
}

// inline returns the expression a scalar call stands for when its body
// is one expression without FROM, nil otherwise: the body's expression,
// each parameter replaced by its argument (a volatile argument only when
// used once), under CASE WHEN for a STRICT function.
func (c *userCall) inline() *pg_query.Node {
	fn := c.fn
	body := fn.Body
	if len(body.TargetList) != 1 || len(body.FromClause) > 0 || body.WhereClause != nil || len(body.GroupClause) > 0 ||
		body.HavingClause != nil || len(body.WindowClause) > 0 || len(body.ValuesLists) > 0 || len(body.SortClause) > 0 ||
		body.LimitCount != nil || body.LimitOffset != nil || len(body.DistinctClause) > 0 || body.WithClause != nil ||
		body.Op > pg_query.SetOperation_SETOP_NONE || len(body.LockingClause) > 0 {
		return nil
	}
	val := body.TargetList[0].GetResTarget().GetVal()
	if val == nil || val.GetColumnRef().GetFields() != nil && val.GetColumnRef().GetFields()[0].GetAStar() != nil {
		return nil
	}
	uses := make([]int, len(fn.Params))
	simple := true
	walkNodes(val.ProtoReflect(), func(n *pg_query.Node) {
		switch {
		case n.GetSubLink() != nil:
			simple = false
		case n.GetFuncCall() != nil:
			call := n.GetFuncCall()
			name := opName(call.Funcname)
			if call.Over != nil || isAggregateName(name) || expr.IsSRF(name) || call.AggStar {
				simple = false
			}
		case n.GetParamRef() != nil:
			if p := int(n.GetParamRef().Number) - 1; p >= 0 && p < len(uses) {
				uses[p]++
			} else {
				simple = false
			}
		case n.GetColumnRef() != nil:
			if p := fn.paramRef(n.GetColumnRef()); p >= 0 {
				uses[p]++
			} else {
				simple = false
			}
		}
	})
	if !simple {
		return nil
	}
	for p, u := range uses {
		if fn.Strict {
			u++
		}
		if u > 1 && c.volatile[p] {
			return nil
		}
	}
	e := proto.Clone(val).(*pg_query.Node)
	setLocations(e.ProtoReflect(), c.loc)
	walkNodesPruned(e.ProtoReflect(), func(n *pg_query.Node) bool {
		p := -1
		if pr := n.GetParamRef(); pr != nil {
			p = int(pr.Number) - 1
		} else if cr := n.GetColumnRef(); cr != nil {
			p = fn.paramRef(cr)
		}
		if p < 0 {
			return true
		}
		n.Node = c.arg(p).Node
		return false
	})
	if fn.Strict && len(fn.Params) > 0 {
		var conds []*pg_query.Node
		for p := range fn.Params {
			conds = append(conds, &pg_query.Node{Node: &pg_query.Node_NullTest{NullTest: &pg_query.NullTest{
				Arg: c.arg(p), Nulltesttype: pg_query.NullTestType_IS_NULL, Location: c.loc}}})
		}
		cond := conds[0]
		if len(conds) > 1 {
			cond = &pg_query.Node{Node: &pg_query.Node_BoolExpr{BoolExpr: &pg_query.BoolExpr{Boolop: pg_query.BoolExprType_OR_EXPR, Args: conds, Location: c.loc}}}
		}
		e = &pg_query.Node{Node: &pg_query.Node_CaseExpr{CaseExpr: &pg_query.CaseExpr{
			Args: []*pg_query.Node{{Node: &pg_query.Node_CaseWhen{CaseWhen: &pg_query.CaseWhen{
				Expr: cond, Result: &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true, Location: c.loc}}}, Location: c.loc}}}},
			Defresult: e, Location: c.loc}}}
	}
	return castNode(e, fn.ColTypes[0])
}

// paramRef returns the parameter a column reference of the body names
// (x, or f.x with f the function's name), or -1.
func (f *Function) paramRef(cr *pg_query.ColumnRef) int {
	var parts []string
	for _, fl := range cr.Fields {
		if fl.GetString_() == nil {
			return -1
		}
		parts = append(parts, fl.GetString_().Sval)
	}
	if len(parts) == 2 && parts[0] == f.Name {
		parts = parts[1:]
	}
	if len(parts) != 1 {
		return -1
	}
	for i, p := range f.Params {
		if p.Name != "" && p.Name == parts[0] {
			return i
		}
	}
	return -1
}

// arg is parameter p's argument cast to its type, a fresh copy; the
// cast's errors point at the argument.
func (c *userCall) arg(p int) *pg_query.Node {
	a := castNode(proto.Clone(c.args[p]).(*pg_query.Node), c.fn.Params[p].TypeName)
	a.GetTypeCast().Location = nodeLoc(c.args[p], c.loc)
	return a
}

func castNode(n *pg_query.Node, tn *pg_query.TypeName) *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{
		Arg: n, TypeName: proto.Clone(tn).(*pg_query.TypeName), Location: -1}}}
}

func resTarget(val *pg_query.Node, name string) *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Name: name, Val: val, Location: -1}}}
}

func selectNode(s *pg_query.SelectStmt) *pg_query.Node {
	if s.Op == pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		s.Op = pg_query.SetOperation_SETOP_NONE
	}
	return &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: s}}
}

func andNodes(conds []*pg_query.Node) *pg_query.Node {
	if len(conds) == 1 {
		return conds[0]
	}
	return &pg_query.Node{Node: &pg_query.Node_BoolExpr{BoolExpr: &pg_query.BoolExpr{Boolop: pg_query.BoolExprType_AND_EXPR, Args: conds, Location: -1}}}
}
