package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// ts_stat(query [, weights]) and ts_rewrite(query, select) run a query
// given as text, as PostgreSQL runs it through SPI. Ad hoc the text (a
// constant) is parsed and bound in the statement's session, its rows
// collected as ARRAY(query) and handed to the function; a view refuses
// them, as it cannot track the tables the text reads.

// rowsAlias names the query text's rows in ARRAY(SELECT r FROM (text) r),
// the array of a set operation's rows: no column of the text can take the
// name.
const rowsAlias = "\x01rows"

// queryTextRows returns the query text arg of function name as
// ARRAY(text), its rows in its order; when want has several columns, of
// records: its select list made one ROW(…) (rowTargets), or for a set
// operation ARRAY(SELECT r FROM (text) r). It checks first, binding the
// text as a statement of its own, that it is a SELECT whose columns have
// want's types (else PostgreSQL's error bad, 22023). null reports a NULL
// text.
func (b *binder) queryTextRows(name string, arg *pg_query.Node, want []value.Type, bad string, loc int32) (rows *pg_query.Node, null bool, err error) {
	if b.forView {
		return nil, false, b.refuse(loc, "%s with a query text cannot be maintained in a view: it reads tables the view cannot track", name).
			WithHint("join the tables in the view's query")
	}
	text, null, ok := constantText(arg)
	if !ok {
		return nil, false, b.refuse(loc, "%s's query text must be a constant", name)
	}
	if null {
		return nil, true, nil
	}
	node, cols, err := b.bindQueryText(name, text, loc)
	if err != nil {
		return nil, false, err
	}
	if len(cols) != len(want) {
		return nil, false, pgerr.New(pgerr.InvalidParameter, "%s", bad)
	}
	for i, c := range cols {
		if c.Type.Kind != want[i].Kind {
			return nil, false, pgerr.New(pgerr.InvalidParameter, "%s", bad)
		}
	}
	return rowsArray(node, len(want) > 1, loc), false, nil
}

// bindQueryText parses and binds text, the query text argument of
// function name, as a statement of its own; it returns the query, its
// positions made loc's, and its columns.
func (b *binder) bindQueryText(name, text string, loc int32) (*pg_query.Node, []plan.Column, error) {
	// Errors in the text point at the call (PostgreSQL shows the text as
	// the error's internal query).
	tree, err := parseTree(text)
	if err != nil {
		return nil, nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	if len(tree.Stmts) != 1 {
		return nil, nil, b.stmt.errf(loc, "42P11", "cannot open multi-query plan as cursor")
	}
	node := tree.Stmts[0].Stmt
	sel := node.GetSelectStmt()
	if sel == nil {
		for kind, is := range map[string]bool{"INSERT": node.GetInsertStmt() != nil, "UPDATE": node.GetUpdateStmt() != nil,
			"DELETE": node.GetDeleteStmt() != nil, "MERGE": node.GetMergeStmt() != nil} {
			if is {
				return nil, nil, b.stmt.errf(loc, "42P11", "cannot open %s query as cursor", kind)
			}
		}
		return nil, nil, b.refuse(loc, "%s's query text must be a SELECT", name)
	}
	inner := &binder{lock: b.lock, cat: b.cat, stmt: &Stmt{SQL: text, Node: node}, stmtClock: b.stmtClock, params: b.params, rows: b.rowCounts()}
	p, err := inner.bindSelect(proto.Clone(sel).(*pg_query.SelectStmt))
	if err != nil {
		return nil, nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	// The text's positions would point into the statement: errors left
	// point at the call.
	setLocations(node.ProtoReflect(), loc)
	return node, p.Columns(), nil
}

// rowsArray is ARRAY(node), the rows of a bound query text in its order;
// with records, each row one record: its select list made one ROW(…)
// (rowTargets), or for a set operation or * ARRAY(SELECT r FROM (text) r).
func rowsArray(node *pg_query.Node, records bool, loc int32) *pg_query.Node {
	if records && !rowTargets(node.GetSelectStmt()) {
		node = &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: &pg_query.SelectStmt{
			Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
			TargetList: []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(rowsAlias)}, loc), loc)},
			FromClause: []*pg_query.Node{{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
				Subquery: node, Alias: &pg_query.Alias{Aliasname: rowsAlias}}}}},
		}}}
	}
	return &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
		SubLinkType: pg_query.SubLinkType_ARRAY_SUBLINK, Subselect: node, Location: loc}}}
}

// tsStatQueries returns rf with the query text of each ts_stat call made
// the array of its rows, as queryTextRows makes it (stat is true), or rf
// itself when it calls no ts_stat.
func (b *binder) tsStatQueries(rf *pg_query.RangeFunction) (_ *pg_query.RangeFunction, stat bool, err error) {
	cloned := false
	for i, item := range rf.Functions {
		f := item.GetList().GetItems()[0].GetFuncCall()
		if f == nil || len(f.Args) == 0 || opName(f.Funcname) != "ts_stat" {
			continue
		}
		rows, null, err := b.queryTextRows("ts_stat", f.Args[0], []value.Type{value.TSVectorType},
			"ts_stat query must return one tsvector column", f.Location)
		if err != nil {
			return nil, false, err
		}
		if null {
			rows = &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{Arg: &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true}}},
				TypeName: &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode("tsvector")}, ArrayBounds: []*pg_query.Node{pg_query.MakeAConstIntNode(-1, 0)}}}}}
		}
		if !cloned {
			rf, cloned = proto.Clone(rf).(*pg_query.RangeFunction), true
			f = rf.Functions[i].GetList().GetItems()[0].GetFuncCall()
		}
		f.Args[0] = rows
	}
	return rf, cloned, nil
}

// rowTargets makes the select list of sel, a plain SELECT, the single
// ROW(…) of its expressions, so that ARRAY(sel) keeps its order: its
// ORDER BY items that name an output column or its number are replaced
// by the column's expression. It reports false, changing nothing, for a
// set operation or a select list with *.
func rowTargets(sel *pg_query.SelectStmt) bool {
	if sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.ValuesLists) > 0 {
		return false
	}
	vals := make([]*pg_query.Node, len(sel.TargetList))
	for i, t := range sel.TargetList {
		rt := t.GetResTarget()
		if rt == nil || rt.Val.GetColumnRef().GetFields() != nil && rt.Val.GetColumnRef().GetFields()[len(rt.Val.GetColumnRef().GetFields())-1].GetAStar() != nil {
			return false
		}
		vals[i] = rt.Val
	}
	for _, sn := range sel.SortClause {
		sb := sn.GetSortBy()
		if sb == nil {
			continue
		}
		if c := sb.Node.GetAConst(); c != nil && c.GetIval() != nil {
			if k := int(c.GetIval().Ival); k >= 1 && k <= len(vals) {
				sb.Node = proto.Clone(vals[k-1]).(*pg_query.Node)
			}
			continue
		}
		if fs := sb.Node.GetColumnRef().GetFields(); len(fs) == 1 && fs[0].GetString_() != nil {
			for i, t := range sel.TargetList {
				if rt := t.GetResTarget(); rt.Name != "" && rt.Name == fs[0].GetString_().Sval {
					sb.Node = proto.Clone(vals[i]).(*pg_query.Node)
					break
				}
			}
		}
	}
	sel.TargetList = []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(&pg_query.Node{Node: &pg_query.Node_RowExpr{RowExpr: &pg_query.RowExpr{
		Args: vals, RowFormat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL}}}, 0)}
	return true
}

// constantText reads a string constant, possibly cast to text; ok is
// false for another expression.
func constantText(n *pg_query.Node) (s string, null, ok bool) {
	if tc := n.GetTypeCast(); tc != nil {
		names := tc.TypeName.GetNames()
		if len(names) == 0 || names[len(names)-1].GetString_().GetSval() != "text" || len(tc.TypeName.ArrayBounds) > 0 {
			return "", false, false
		}
		n = tc.Arg
	}
	c := n.GetAConst()
	switch {
	case c == nil:
		return "", false, false
	case c.Isnull:
		return "", true, true
	case c.GetSval() != nil:
		return c.GetSval().Sval, false, true
	}
	return "", false, false
}

// bindTSRewriteQuery binds ts_rewrite(query, select): each row of the
// select, (target tsquery, substitute tsquery), rewrites the query in
// turn.
func (b *binder) bindTSRewriteQuery(s *scope, f *pg_query.FuncCall) (expr.Expr, error) {
	q, err := b.bindExpr(s, f.Args[0])
	if err != nil {
		return nil, err
	}
	if q, err = b.coerce(q, value.TSQueryType, f.Location); err != nil {
		return nil, err
	}
	node, null, err := b.queryTextRows("ts_rewrite", f.Args[1], []value.Type{value.TSQueryType, value.TSQueryType},
		"ts_rewrite query must return two tsquery columns", f.Location)
	if err != nil || null {
		return &expr.Const{V: value.Null, T: value.TSQueryType}, err
	}
	rows, err := b.bindExpr(s, node)
	if err != nil {
		return nil, err
	}
	return b.callFunc(s, "ts_rewrite", nil, []expr.Expr{q, rows}, f.Location)
}
