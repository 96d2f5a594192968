package sql

import (
	"fmt"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Row constructors in comparisons, (a, b) < (1, 2), are expanded into
// comparisons of their elements with PostgreSQL's rules, which the
// expansions below give exactly under three-valued logic:
//
//   - = is true when every pair is equal, false when one pair is
//     unequal, else NULL: the AND of the pairs; <> is the OR of theirs;
//   - <, <=, >, >= compare left to right, the first pair that is unequal
//     or NULL deciding: a1 < b1 OR (a1 = b1 AND (a2 < b2 OR …)), the last
//     pair with the operator itself (<= for <=). A NULL pair before the
//     deciding one makes every later term NULL or FALSE, so the whole is
//     NULL, as in PostgreSQL;
//   - IS [NOT] DISTINCT FROM, IS [NOT] NULL and IN lists of rows follow
//     from these;
//   - (a, b) IN (subquery) is EXISTS over the subquery's rows equal to
//     the row, with its third value (NULL when no row is equal and one
//     compares NULL) where a NULL matters; a row compared with a scalar
//     subquery of several columns compares with one scalar subquery per
//     column.
//
// Each element is bound once per use, so an element's subquery is joined
// again for each.

// rowArgs returns the elements of a row constructor, ROW(a, b) or (a, b);
// ok is false for any other node.
func rowArgs(n *pg_query.Node) ([]*pg_query.Node, bool) {
	if r := n.GetRowExpr(); r != nil {
		return r.Args, true
	}
	return nil, false
}

// rowPair returns the elements of two rows compared, the right one
// possibly a scalar subquery of several columns; ok is false unless both
// are rows. A subquery on the left is a scalar subquery, as in
// PostgreSQL: one of several columns there is 42601 when it is bound.
func (b *binder) rowPair(s *scope, ln, rn *pg_query.Node) (l, r []*pg_query.Node, ok bool) {
	l, lok := b.rowElems(s, ln)
	if !lok {
		return nil, nil, false
	}
	if sl := rn.GetSubLink(); sl != nil && sl.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK {
		r, ok = subLinkColumns(sl)
		return l, r, ok
	}
	r, ok = b.rowElems(s, rn)
	return l, r, ok
}

// rowElems returns the elements of a row constructor with each t.* among
// them expanded into t's columns, as PostgreSQL expands it: ROW(0, t.*)
// compares, tests and matches as ROW(0, t.a, t.b). ok is false when n is
// not a row constructor.
func (b *binder) rowElems(s *scope, n *pg_query.Node) ([]*pg_query.Node, bool) {
	args, ok := rowArgs(n)
	if !ok || !slices.ContainsFunc(args, isQualifiedStar) {
		return args, ok
	}
	out := make([]*pg_query.Node, 0, len(args))
	for _, a := range args {
		if !isQualifiedStar(a) {
			out = append(out, a)
			continue
		}
		cr := a.GetColumnRef()
		qual := cr.Fields[0].GetString_().Sval
		row, found := b.WholeRow(s, qual)
		if !found {
			// Bound as it is, it reports the missing relation.
			out = append(out, a)
			continue
		}
		for _, name := range row.Names {
			out = append(out, pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(qual), pg_query.MakeStrNode(name)}, cr.Location))
		}
	}
	return out, true
}

// isQualifiedStar reports whether n is t.*.
func isQualifiedStar(n *pg_query.Node) bool {
	cr := n.GetColumnRef()
	return cr != nil && len(cr.Fields) == 2 && cr.Fields[0].GetString_() != nil && cr.Fields[1].GetAStar() != nil
}

// bindRowCompare binds l op r where both are row constructors.
func (b *binder) bindRowCompare(s *scope, op string, l, r []*pg_query.Node, loc int32) (expr.Expr, error) {
	if len(l) != len(r) {
		return nil, b.stmt.errf(loc, pgerr.SyntaxError, "unequal number of entries in row expressions")
	}
	if len(l) == 0 {
		return nil, b.stmt.errf(loc, pgerr.FeatureNotSupported, "cannot compare rows of zero length")
	}
	pair := func(op string, i int) (expr.Expr, error) {
		le, err := b.bindExpr(s, l[i])
		if err != nil {
			return nil, err
		}
		re, err := b.bindExpr(s, r[i])
		if err != nil {
			return nil, err
		}
		e, err := b.binaryOp(op, le, re, loc)
		if c, ok := e.(*expr.Cmp); ok && err == nil {
			// Each pair compares under its own derived collation.
			return b.compareUnder(s, c, []*expr.Expr{&c.L, &c.R}, b.bytewiseExplicit(l[i]) || b.bytewiseExplicit(r[i])), nil
		}
		return e, err
	}
	switch op {
	case "=", "<>", "!=":
		args := make([]expr.Expr, len(l))
		for i := range l {
			var err error
			if args[i], err = pair(op, i); err != nil {
				return nil, err
			}
		}
		if len(args) == 1 {
			return args[0], nil
		}
		if op == "=" {
			return &expr.And{Args: args}, nil
		}
		return &expr.Or{Args: args}, nil
	case "<", "<=", ">", ">=":
		strict := op[:1]
		out, err := pair(op, len(l)-1)
		if err != nil {
			return nil, err
		}
		for i := len(l) - 2; i >= 0; i-- {
			lt, err := pair(strict, i)
			if err != nil {
				return nil, err
			}
			eq, err := pair("=", i)
			if err != nil {
				return nil, err
			}
			out = &expr.Or{Args: []expr.Expr{lt, &expr.And{Args: []expr.Expr{eq, out}}}}
		}
		return out, nil
	}
	// Another operator is looked up for each pair of columns, as
	// PostgreSQL does, and fails there when missing or not boolean; one
	// found for every pair is still not a btree comparison.
	for i := range l {
		e, err := pair(op, i)
		if err != nil {
			return nil, err
		}
		if t := e.Type(); t.Kind != value.Bool {
			return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "row comparison operator must yield type boolean, not type %s", t)
		}
	}
	return nil, b.stmt.errf(loc, pgerr.UndefinedFunction, "could not determine interpretation of row comparison operator %s", op).
		WithHint("Row comparison operators must be associated with btree operator families.")
}

// bindRowDistinct binds l IS [NOT] DISTINCT FROM r over two rows: distinct
// when some pair is.
func (b *binder) bindRowDistinct(s *scope, l, r []*pg_query.Node, not bool, loc int32) (expr.Expr, error) {
	if len(l) != len(r) {
		return nil, b.stmt.errf(loc, pgerr.SyntaxError, "unequal number of entries in row expressions")
	}
	args := make([]expr.Expr, len(l))
	for i := range l {
		le, re, err := b.bindComparable(s, l[i], r[i], loc)
		if err != nil {
			return nil, err
		}
		args[i] = b.consumeCollation(s, &expr.IsDistinct{L: le, R: re, Not: not})
	}
	if not {
		return &expr.And{Args: args}, nil
	}
	return &expr.Or{Args: args}, nil
}

// bindRowNullTest binds ROW(…) IS [NOT] NULL: true when every element is
// NULL (not NULL).
func (b *binder) bindRowNullTest(s *scope, args []*pg_query.Node, not bool) (expr.Expr, error) {
	out := make([]expr.Expr, len(args))
	for i, a := range args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, err
		}
		out[i] = &expr.IsNull{E: e, Not: not}
	}
	return &expr.And{Args: out}, nil
}

// bindRowIn binds row IN (row, …) (NOT IN with not): the OR of the row
// equalities (the AND of the inequalities).
func (b *binder) bindRowIn(s *scope, l []*pg_query.Node, list []*pg_query.Node, not bool, loc int32) (expr.Expr, error) {
	op := "="
	if not {
		op = "<>"
	}
	args := make([]expr.Expr, len(list))
	for i, item := range list {
		r, ok := b.rowElems(s, item)
		if !ok {
			if sl := item.GetSubLink(); sl != nil && len(l) > 1 {
				r, ok = subLinkColumns(sl)
			}
		}
		if !ok {
			return nil, b.stmt.errf(nodeLoc(item, loc), pgerr.SyntaxError, "unequal number of entries in row expressions")
		}
		var err error
		if args[i], err = b.bindRowCompare(s, op, l, r, loc); err != nil {
			return nil, err
		}
	}
	if len(args) == 1 {
		return args[0], nil
	}
	if not {
		return &expr.And{Args: args}, nil
	}
	return &expr.Or{Args: args}, nil
}

// subLinkColumns splits a scalar subquery of several columns, (SELECT x,
// y FROM …), into one scalar subquery per column, for a row comparison;
// ok is false when its select list is not explicit.
func subLinkColumns(sl *pg_query.SubLink) ([]*pg_query.Node, bool) {
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil || sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.TargetList) < 2 {
		return nil, false
	}
	if len(sel.DistinctClause) > 0 {
		// DISTINCT over one column keeps fewer rows than over all: each
		// column is read from the whole subquery's rows.
		names := make([]*pg_query.Node, len(sel.TargetList))
		for i := range names {
			names[i] = pg_query.MakeStrNode(fmt.Sprintf("?%d?", i+1))
		}
		from := &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
			Subquery: sl.Subselect, Alias: &pg_query.Alias{Aliasname: "?row?", Colnames: names}}}}
		out := make([]*pg_query.Node, len(names))
		for i, name := range names {
			ref := pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode("?row?"), name}, -1)
			one := &pg_query.SelectStmt{TargetList: []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(ref, -1)}, FromClause: []*pg_query.Node{from},
				Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT}
			out[i] = &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
				SubLinkType: pg_query.SubLinkType_EXPR_SUBLINK,
				Subselect:   &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: one}},
				Location:    sl.Location,
			}}}
		}
		return out, true
	}
	// A column without an aggregate beside one that has one is grouped
	// with it: alone it must stay grouped, by the empty set.
	group := sel.GroupClause
	if len(group) == 0 && (sel.HavingClause != nil || slices.ContainsFunc(sel.TargetList, hasAggregate)) {
		group = []*pg_query.Node{{Node: &pg_query.Node_GroupingSet{GroupingSet: &pg_query.GroupingSet{Kind: pg_query.GroupingSetKind_GROUPING_SET_EMPTY}}}}
	}
	out := make([]*pg_query.Node, len(sel.TargetList))
	for i, t := range sel.TargetList {
		if cr := t.GetResTarget().Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			return nil, false
		}
		one := &pg_query.SelectStmt{
			TargetList: []*pg_query.Node{t}, FromClause: sel.FromClause,
			WhereClause: sel.WhereClause, GroupClause: group, GroupDistinct: sel.GroupDistinct,
			HavingClause: sel.HavingClause, WindowClause: sel.WindowClause, SortClause: sel.SortClause,
			LimitOffset: sel.LimitOffset, LimitCount: sel.LimitCount, LimitOption: sel.LimitOption,
			LockingClause: sel.LockingClause, WithClause: sel.WithClause, Op: sel.Op,
		}
		out[i] = &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
			SubLinkType: pg_query.SubLinkType_EXPR_SUBLINK,
			Subselect:   &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: one}},
			Location:    sl.Location,
		}}}
	}
	return out, true
}

// rowInSubLink rewrites row IN (subquery), = ANY and <> ALL (with not,
// NOT IN) over a row: EXISTS over the subquery's rows equal to the row
// when only its truth matters (a WHERE conjunct: exists2 false), else the
// three-valued form CASE WHEN EXISTS (… equal) THEN true WHEN EXISTS (…
// (equal) IS NULL) THEN NULL ELSE false END, negated for NOT IN. ok is
// false when sl is not such a subquery.
func (b *binder) rowInSubLink(s *scope, sl *pg_query.SubLink, threeValued bool) (*pg_query.Node, bool, error) {
	l, isRow := b.rowElems(s, sl.Testexpr)
	if !isRow || sl.SubLinkType != pg_query.SubLinkType_ANY_SUBLINK && sl.SubLinkType != pg_query.SubLinkType_ALL_SUBLINK {
		return nil, false, nil
	}
	op := opName(sl.OperName)
	if op == "" {
		op = "=" // IN
	}
	all := sl.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK
	not := all && (op == "<>" || op == "!=")
	general := !not && (all || op != "=")
	if _, ok := cmpOps[op]; !ok && general {
		return nil, false, b.stmt.errf(sl.Location, pgerr.UndefinedFunction, "operator does not exist: record %s record", op).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	sel := sl.Subselect.GetSelectStmt()
	if sel != nil && sel.Op == pg_query.SetOperation_SETOP_NONE && len(sel.ValuesLists) == 0 {
		star := false
		for _, t := range sel.TargetList {
			if cr := t.GetResTarget().Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
				star = true
			}
		}
		if !star && len(sel.TargetList) != len(l) {
			what := "too many"
			if len(sel.TargetList) < len(l) {
				what = "too few"
			}
			return nil, false, b.stmt.errf(sl.Location, pgerr.SyntaxError, "subquery has %s columns", what)
		}
	}
	const alias = "?row in?"
	colNames := make([]*pg_query.Node, len(l))
	eqs := make([]*pg_query.Node, len(l))
	for i := range l {
		name := fmt.Sprintf("?%d?", i+1)
		colNames[i] = pg_query.MakeStrNode(name)
		ref := pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(alias), pg_query.MakeStrNode(name)}, -1)
		eqs[i] = pg_query.MakeAExprNode(pg_query.A_Expr_Kind_AEXPR_OP, []*pg_query.Node{pg_query.MakeStrNode("=")}, l[i], ref, sl.Location)
	}
	equal := eqs[0]
	if len(eqs) > 1 {
		equal = pg_query.MakeBoolExprNode(pg_query.BoolExprType_AND_EXPR, eqs, sl.Location)
	}
	if general {
		// Any other comparison: the rows compared as rows (in order of
		// their columns for < <= > >=), each subquery row in turn.
		refs := make([]*pg_query.Node, len(l))
		for i := range l {
			refs[i] = pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(alias), colNames[i]}, -1)
		}
		row := func(args []*pg_query.Node) *pg_query.Node {
			return &pg_query.Node{Node: &pg_query.Node_RowExpr{RowExpr: &pg_query.RowExpr{Args: args, RowFormat: pg_query.CoercionForm_COERCE_IMPLICIT_CAST, Location: sl.Location}}}
		}
		equal = pg_query.MakeAExprNode(pg_query.A_Expr_Kind_AEXPR_OP, []*pg_query.Node{pg_query.MakeStrNode(op)}, row(l), row(refs), sl.Location)
	}
	exists := func(where *pg_query.Node) *pg_query.Node {
		from := &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
			Subquery: sl.Subselect,
			Alias:    &pg_query.Alias{Aliasname: alias, Colnames: colNames},
		}}}
		q := &pg_query.SelectStmt{
			TargetList:  []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(pg_query.MakeAConstIntNode(1, -1), -1)},
			FromClause:  []*pg_query.Node{from},
			WhereClause: where,
			Op:          pg_query.SetOperation_SETOP_NONE,
			LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
		}
		return &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
			SubLinkType: pg_query.SubLinkType_EXISTS_SUBLINK,
			Subselect:   &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: q}},
			Location:    sl.Location,
		}}}
	}
	if general && all {
		// x op ALL (Q): false when a row fails op, NULL when none fails
		// and one gives NULL, true otherwise.
		not = true
		equal = pg_query.MakeBoolExprNode(pg_query.BoolExprType_NOT_EXPR, []*pg_query.Node{equal}, sl.Location)
	}
	if !threeValued && !not {
		return exists(equal), true, nil
	}
	isNull := &pg_query.Node{Node: &pg_query.Node_NullTest{NullTest: &pg_query.NullTest{Arg: equal, Nulltesttype: pg_query.NullTestType_IS_NULL, Location: sl.Location}}}
	boolConst := func(v bool) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: v}}, Location: -1}}}
	}
	nullConst := &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true, Location: -1}}}
	when := func(cond, res *pg_query.Node) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_CaseWhen{CaseWhen: &pg_query.CaseWhen{Expr: cond, Result: res, Location: sl.Location}}}
	}
	// NOT IN is true when no row is equal or NULL: the same CASE with
	// its results negated.
	c := &pg_query.Node{Node: &pg_query.Node_CaseExpr{CaseExpr: &pg_query.CaseExpr{
		Args:      []*pg_query.Node{when(exists(equal), boolConst(!not)), when(exists(isNull), nullConst)},
		Defresult: boolConst(not),
		Location:  sl.Location,
	}}}
	return c, true, nil
}
