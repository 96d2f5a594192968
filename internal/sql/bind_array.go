package sql

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bindArrayExpr binds ARRAY[e, …]: the elements take their common type;
// when that is an array type, the elements are sub-arrays and the result
// has one more dimension (ARRAY[[1,2],[3,4]], ARRAY[a, b] of arrays). to
// is the array type a cast around the constructor gives (Unknown without
// one); an empty ARRAY[] needs it, and nested ARRAY[…] take it too.
func (b *binder) bindArrayExpr(s *scope, a *pg_query.A_ArrayExpr, to value.Type) (expr.Expr, error) {
	if to.Kind.IsArray() {
		for _, n := range a.Elements {
			if n.GetAArrayExpr() != nil {
				return b.bindSubArrays(s, a, to)
			}
		}
	}
	if len(a.Elements) == 0 {
		if !to.Kind.IsArray() {
			return nil, b.stmt.errf(a.Location, pgerr.IndeterminateDatatype, "cannot determine type of empty array").
				WithHint(`Explicitly cast to the desired type, for example ARRAY[]::integer[].`)
		}
		return &expr.Const{V: value.NewArray(to.Kind, nil), T: to}, nil
	}
	es, t, err := b.bindCommon(s, a.Elements, "ARRAY", a.Location)
	if err != nil {
		return nil, err
	}
	if t.Kind == value.Void || t.Kind.IsValueless() {
		return nil, b.stmt.errf(a.Location, pgerr.UndefinedObject, "could not find array type for data type %s", t)
	}
	if t.Kind == value.ArrayOf(value.Record) {
		return expr.NewArrayCons(es, t), nil // keeping its records' type
	}
	if t.Kind.IsVector() {
		// A vector has an array type of its own: ARRAY[v, …] is a
		// one-dimensional int2vector[], not a stack of int2 arrays.
		return expr.NewArrayCons(es, value.ArrayType(t.Kind)), nil
	}
	if t.Kind.IsArray() {
		return b.arrayOfDomain(s, es, expr.NewArrayCons(es, value.Type{Kind: t.Kind, Mod: -1})), nil
	}
	if to.Kind.IsArray() {
		// ARRAY['a', 'b']::int[] reads its literals as the cast's elements.
		for i := range es {
			if es[i].Type().Kind == value.Unknown || isUnknownConst(a.Elements[i]) {
				et := value.Type{Kind: to.Kind.Elem(), Mod: -1}
				if to.Enum() != nil || to.UserRange() != nil {
					et = to.ElemType() // the enum's own labels, the user range's own type
				}
				if es[i], err = expr.Coerce(es[i], et, true); err != nil {
					return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(a.Elements[i], a.Location)))
				}
			}
		}
		if t, err = expr.CommonType(types(es), "ARRAY"); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(a.Location))
		}
		for i := range es {
			if es[i], err = b.coerce(es[i], t, a.Location); err != nil {
				return nil, err
			}
		}
	}
	return b.arrayOfDomain(s, es, expr.NewArrayCons(es, value.ArrayTypeOf(t))), nil
}

// arrayOfDomain is arr, ARRAY[es…], noted of d[] when every one of es is
// of the domain d or of d[], as PostgreSQL types it (an element of
// another type reduces the domain to its base type first).
func (b *binder) arrayOfDomain(s *scope, es []expr.Expr, arr expr.Expr) expr.Expr {
	if d, _ := b.sameDomain(s, es); d != nil {
		if ad := arrayDomain(d); ad != nil && ad.Def().Base.Kind == arr.Type().Kind {
			b.noteDomain(arr, ad)
		}
	}
	return arr
}

// bindSubArrays binds ARRAY[[…], …]::to: the nested constructors take the
// cast's type (for their literals and empty ones); the elements take
// their common type, which the cast then converts.
func (b *binder) bindSubArrays(s *scope, a *pg_query.A_ArrayExpr, to value.Type) (expr.Expr, error) {
	es := make([]expr.Expr, len(a.Elements))
	for i, n := range a.Elements {
		var err error
		if sub := n.GetAArrayExpr(); sub != nil {
			es[i], err = b.bindArrayExpr(s, sub, to)
		} else {
			es[i], err = b.bindExpr(s, n)
		}
		if err != nil {
			return nil, err
		}
	}
	t, err := expr.CommonType(types(es), "ARRAY")
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(a.Location))
	}
	if t.Kind == value.Unknown {
		t = to
	}
	for i := range es {
		if es[i], err = b.coerce(es[i], t, a.Location); err != nil {
			return nil, err
		}
	}
	if !t.Kind.IsArray() {
		return nil, b.stmt.errf(a.Location, pgerr.DatatypeMismatch, "ARRAY types %s and %s cannot be matched", t, to)
	}
	return expr.NewArrayCons(es, value.Type{Kind: t.Kind, Mod: -1}), nil
}

// isUnknownConst reports whether n is a string literal.
func isUnknownConst(n *pg_query.Node) bool {
	c := n.GetAConst()
	return c != nil && c.GetSval() != nil
}

func types(es []expr.Expr) []value.Type {
	ts := make([]value.Type, len(es))
	for i, e := range es {
		ts[i] = e.Type()
	}
	return ts
}

// bindIndirection binds subscripts and slices of an array: a[i], a[i:j],
// a[:j], a[i:]. Field selection ((row).f) is not supported.
func (b *binder) bindIndirection(s *scope, ind *pg_query.A_Indirection) (expr.Expr, error) {
	e, err := b.bindExpr(s, ind.Arg)
	if err != nil {
		return nil, err
	}
	loc := nodeLoc(ind.Arg, -1)
	bound := func(n *pg_query.Node) (expr.Expr, error) {
		if n == nil {
			return nil, nil
		}
		x, err := b.bindExpr(s, n)
		if err != nil {
			return nil, err
		}
		if !isNumeric(x.Type().Kind) && x.Type().Kind != value.Unknown {
			return nil, b.stmt.errf(nodeLoc(n, loc), pgerr.DatatypeMismatch, "array subscript must have type integer")
		}
		if k := x.Type().Kind; k == value.Numeric || k == value.Float4 || k == value.Float8 {
			// As an assignment converts it: rounded to an integer.
			if x, err = expr.Coerce(x, value.Int4Type, true); err != nil {
				return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(n, loc)))
			}
		}
		return b.coerce(x, value.Int8Type, nodeLoc(n, loc))
	}
	for i := 0; i < len(ind.Indirection); i++ {
		n := ind.Indirection[i]
		if n.GetAIndices() == nil {
			if f := n.GetString_(); f != nil {
				if i == 0 {
					if err := b.unregisteredRecord(s, e); err != nil {
						return nil, err
					}
					if ind.Arg.GetColumnRef() != nil && unregisteredFields(e.Type()) {
						// A column of records of a function returning
						// record: PostgreSQL has no type of them there.
						return nil, pgerr.New(pgerr.WrongObjectType, "record type has not been registered")
					}
				}
				if e, err = b.bindFieldSelect(e, f.Sval, loc); err != nil {
					return nil, err
				}
				continue
			}
			return nil, b.stmt.errf(loc, pgerr.FeatureNotSupported, "field selection is not supported")
		}
		if e.Type().Kind == value.JSONB {
			if e, err = b.jsonbSubscript(s, e, n.GetAIndices(), loc); err != nil {
				return nil, err
			}
			continue
		}
		if e.Type().Kind == value.HStore {
			multi := i+1 < len(ind.Indirection) && ind.Indirection[i+1].GetAIndices() != nil
			if e, err = b.hstoreSubscript(s, e, n.GetAIndices(), multi, loc); err != nil {
				return nil, err
			}
			continue
		}
		if !e.Type().Kind.IsArray() {
			if e.Type().Kind == value.Unknown {
				return nil, b.stmt.errf(loc, pgerr.IndeterminateDatatype, "cannot subscript an untyped literal")
			}
			return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", e.Type())
		}
		// Consecutive subscripts are one access, a dimension each; when
		// any is a slice, all are.
		var subs []expr.Subscript
		slice := false
		for ; i < len(ind.Indirection) && ind.Indirection[i].GetAIndices() != nil; i++ {
			idx := ind.Indirection[i].GetAIndices()
			lo, err := bound(idx.Lidx)
			if err != nil {
				return nil, err
			}
			hi, err := bound(idx.Uidx)
			if err != nil {
				return nil, err
			}
			if !idx.IsSlice {
				lo, hi = hi, nil
			}
			subs = append(subs, expr.Subscript{Lo: lo, Hi: hi, Slice: idx.IsSlice})
			slice = slice || idx.IsSlice
		}
		i--
		if len(subs) > value.MaxDims {
			return nil, b.stmt.errf(loc, pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(subs), value.MaxDims)
		}
		e = expr.NewSubscripts(e, subs, slice)
	}
	return e, nil
}

// bindArrayCompare binds l op ANY (array) and l op ALL (array).
func (b *binder) bindArrayCompare(s *scope, a *pg_query.A_Expr, op string, all bool) (expr.Expr, error) {
	cmp, ok := cmpOps[op]
	if !ok {
		return b.bindArrayOperator(s, a, op, all)
	}
	l, err := b.bindExpr(s, a.Lexpr)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(s, a.Rexpr)
	if err != nil {
		return nil, err
	}
	if isGeometric(l) || isGeometric(r) {
		return b.geometricArrayCompare(op, l, r, all, a.Location)
	}
	rk := r.Type().Kind
	if !rk.IsArray() && rk != value.Unknown {
		return nil, b.stmt.errf(a.Location, pgerr.WrongObjectType, "op ANY/ALL (array) requires array on right side")
	}
	et := value.UnknownType
	if rk.IsArray() {
		et = r.Type().ElemType()
	}
	t, err := expr.ResolveCompare(l.Type(), et)
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(a.Location))
	}
	if l, err = b.coerce(l, t, a.Location); err != nil {
		return nil, err
	}
	if r, err = b.coerce(r, value.ArrayTypeOf(t.Unmodified()), a.Location); err != nil {
		return nil, err // an enum's or a user range's array keeps its type
	}
	return b.arrayCompareCollation(s, expr.NewArrayCompare(cmp, l, r, all), l, r), nil
}

// bindArrayOperator binds l op ANY (array) and l op ALL (array) for an
// operator other than a comparison (LIKE, ILIKE, ~, @>, …): the operator
// is bound over a row of two columns, l's value and an element, and
// evaluated per element (expr.NewArrayOperatorExpr).
func (b *binder) bindArrayOperator(s *scope, a *pg_query.A_Expr, op string, all bool) (expr.Expr, error) {
	l, err := b.bindExpr(s, a.Lexpr)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(s, a.Rexpr)
	if err != nil {
		return nil, err
	}
	rk := r.Type().Kind
	if !rk.IsArray() && rk != value.Unknown {
		return nil, b.stmt.errf(a.Location, pgerr.WrongObjectType, "op ANY/ALL (array) requires array on right side")
	}
	if rk == value.Unknown {
		// An untyped literal on the right is an array of l's type, as
		// PostgreSQL reads it.
		t := l.Type()
		if t.Kind == value.Unknown {
			t = value.TextType
		}
		if r, err = b.coerce(r, value.ArrayTypeOf(t.Unmodified()), a.Location); err != nil {
			return nil, err
		}
	}
	et := r.Type().ElemType()
	const x, y = "?x?", "?y?"
	ref := func(name string) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields: []*pg_query.Node{pg_query.MakeStrNode(name)}, Location: a.Location}}}
	}
	left := ref(x)
	if l.Type().Kind == value.Unknown {
		left = a.Lexpr // an untyped literal: the operator resolves it
	}
	kind := pg_query.A_Expr_Kind_AEXPR_OP
	switch op {
	case "~~", "!~~":
		kind = pg_query.A_Expr_Kind_AEXPR_LIKE
	case "~~*", "!~~*":
		kind = pg_query.A_Expr_Kind_AEXPR_ILIKE
	}
	pair := newScope("", []plan.Column{{Name: x, Type: l.Type()}, {Name: y, Type: et}})
	holds, err := b.bindExpr(pair, &pg_query.Node{Node: &pg_query.Node_AExpr{AExpr: &pg_query.A_Expr{
		Kind: kind, Name: a.Name, Lexpr: left, Rexpr: ref(y), Location: a.Location}}})
	if err != nil {
		return nil, err
	}
	if holds.Type().Kind != value.Bool {
		return nil, b.stmt.errf(a.Location, pgerr.WrongObjectType, "op ANY/ALL (array) requires operator to yield boolean")
	}
	return expr.NewArrayOperatorExpr(op, holds, l, r, all), nil
}

// arrayConcat binds || when either side is an array: array_cat,
// array_append or array_prepend.
func (b *binder) arrayConcat(l, r expr.Expr, loc int32) (expr.Expr, bool, error) {
	lk, rk := l.Type().Kind, r.Type().Kind
	var fn string
	switch {
	case rk.IsVector() && lk.Elem() == rk:
		fn = "array_append" // int2vector[] || int2vector: the vector is an element
	case lk.IsVector() && rk.Elem() == lk:
		fn = "array_prepend"
	case lk.IsArray() && (rk.IsArray() || rk == value.Unknown):
		fn = "array_cat"
	case lk.IsArray():
		fn = "array_append"
	case rk.IsArray() && lk == value.Unknown:
		fn = "array_cat"
	case rk.IsArray():
		fn = "array_prepend"
	default:
		return nil, false, nil
	}
	e, err := b.callFunc(nil, fn, nil, []expr.Expr{l, r}, loc)
	if f, ok := e.(*expr.Func); ok && err == nil {
		f.T = recordArrayType(f.T, l.Type(), r.Type())
	}
	return e, true, err
}

// recordArrayType keeps the fields of a record type through || of arrays
// of records: when both operands are of the same record type (or arrays of
// it), so is the result; otherwise t, the resolved type, stands.
func recordArrayType(t, l, r value.Type) value.Type {
	if t.Kind != value.ArrayOf(value.Record) || t.RecordDesc() != nil {
		return t
	}
	elem := func(x value.Type) value.Type {
		if x.Kind == value.ArrayOf(value.Record) {
			return x.ElemType()
		}
		return x
	}
	if el, er := elem(l), elem(r); el.Kind == value.Record && el == er && el.RecordDesc() != nil {
		return value.ArrayTypeOf(el)
	}
	return t
}

// arraySubqueryTemplate is what ARRAY(subquery) becomes: the array of the
// subquery's values in its order, empty (not NULL) over no rows.
const arraySubqueryTemplate = `SELECT COALESCE(array_agg("?a?"."?x?"), '{}') FROM (SELECT 1) AS "?a?"`

// arraySubLink rewrites ARRAY(SELECT x FROM … ORDER BY k …) as the scalar
// subquery (SELECT COALESCE(array_agg(x ORDER BY k …), '{}') FROM (SELECT
// x, k … FROM … ORDER BY k …) AS "?a?"): the order keys become columns of
// the subquery so that array_agg can keep its order.
func (b *binder) arraySubLink(sl *pg_query.SubLink) (*pg_query.SubLink, error) {
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil {
		return nil, b.refuse(sl.Location, "this ARRAY subquery is not supported")
	}
	first := sel
	for first.Op != pg_query.SetOperation_SETOP_NONE {
		first = first.Larg
	}
	if len(first.TargetList) != 1 {
		return nil, b.stmt.errf(sl.Location, pgerr.SyntaxError, "subquery must return only one column")
	}
	r, err := pg_query.Parse(arraySubqueryTemplate)
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "ARRAY subquery template: %v", err)
	}
	setLocations(r.Stmts[0].Stmt.ProtoReflect(), sl.Location)
	outer := r.Stmts[0].Stmt.GetSelectStmt()
	// Work on a copy: the statement's tree may be bound again.
	inner := proto.Clone(sel).(*pg_query.SelectStmt)
	target := inner
	for target.Op != pg_query.SetOperation_SETOP_NONE {
		target = target.Larg
	}
	rt := target.TargetList[0].GetResTarget()
	name := rt.Name
	if name == "" {
		name = figureName(rt.Val)
	}
	rt.Name = "?x?"
	agg := outer.TargetList[0].GetResTarget().Val.GetCoalesceExpr().Args[0].GetFuncCall()
	if b.arraySubAggs == nil {
		b.arraySubAggs = map[*pg_query.FuncCall]bool{}
	}
	b.arraySubAggs[agg] = true
	ref := func(col string) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields: []*pg_query.Node{pg_query.MakeStrNode("?a?"), pg_query.MakeStrNode(col)}, Location: sl.Location}}}
	}
	for i, k := range inner.SortClause {
		sb := k.GetSortBy()
		if sb == nil {
			continue
		}
		col := "?x?"
		c := sb.Node.GetColumnRef()
		byOutput := (sb.Node.GetAConst() != nil && sb.Node.GetAConst().GetIval() != nil) ||
			c != nil && len(c.Fields) == 1 && c.Fields[0].GetString_() != nil && c.Fields[0].GetString_().Sval == name
		if !byOutput {
			if inner.Op != pg_query.SetOperation_SETOP_NONE || len(inner.DistinctClause) > 0 {
				return nil, b.refuse(sl.Location, "this ordering of an ARRAY subquery is not supported").
					WithHint("order by the subquery's column")
			}
			col = "?o" + strconv.Itoa(i+1) + "?"
			inner.TargetList = append(inner.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
				Name: col, Val: proto.Clone(sb.Node).(*pg_query.Node), Location: sl.Location}}})
		} else if c != nil {
			// A name of the output stays valid once renamed: refer to it.
			sb.Node = &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
				Fields: []*pg_query.Node{pg_query.MakeStrNode("?x?")}, Location: c.Location}}}
		}
		agg.AggOrder = append(agg.AggOrder, &pg_query.Node{Node: &pg_query.Node_SortBy{SortBy: &pg_query.SortBy{
			Node: ref(col), SortbyDir: sb.SortbyDir, SortbyNulls: sb.SortbyNulls, UseOp: sb.UseOp, Location: sb.Location}}})
	}
	outer.FromClause[0].GetRangeSubselect().Subquery = &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: inner}}
	return &pg_query.SubLink{SubLinkType: pg_query.SubLinkType_EXPR_SUBLINK, Location: sl.Location,
		Subselect: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: outer}}}, nil
}
