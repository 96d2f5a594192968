package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
)

// x op ANY (Q) and x op ALL (Q) with an operator that is not a comparison
// (LIKE, ILIKE, NOT LIKE, ~, …) become a scalar subquery over Q that
// counts Q's rows where x op y holds (or fails, for ALL) and where it is
// NULL, which gives SQL's three values:
//
//	(SELECT CASE WHEN count(*) FILTER (WHERE x op y) > 0 THEN true
//	             WHEN count(*) FILTER (WHERE (x op y) IS NULL) > 0 THEN NULL
//	             ELSE false END
//	 FROM (Q) AS q(y))
//
// x reads the outer query's columns, so the subquery is correlated and
// decorrelated as any other (its aggregates per domain value).
const (
	quantAnyTemplate = `SELECT (SELECT CASE WHEN count(*) FILTER (WHERE "?op?") > 0 THEN true ` +
		`WHEN count(*) FILTER (WHERE ("?op?") IS NULL) > 0 THEN NULL ELSE false END AS "?column?" FROM (SELECT 1) AS "?q?"("?y?"))`
	quantAllTemplate = `SELECT (SELECT CASE WHEN count(*) FILTER (WHERE NOT "?op?") > 0 THEN false ` +
		`WHEN count(*) FILTER (WHERE ("?op?") IS NULL) > 0 THEN NULL ELSE true END AS "?column?" FROM (SELECT 1) AS "?q?"("?y?"))`
)

// rewriteQuantified replaces, in the tree under n, every x op ANY/ALL (Q)
// whose operator is not a comparison by its scalar subquery.
func rewriteQuantified(sql string, n *pg_query.Node) {
	u := strings.ToUpper(sql)
	if strings.Contains(u, "GENERATE_SERIES") || strings.Contains(u, "UNNEST") || strings.Contains(u, "GENERATE_SUBSCRIPTS") || strings.Contains(u, "REGEXP_") || strings.Contains(u, "STRING_TO_TABLE") || strings.Contains(u, "JSON") {
		rewriteSelectSRF(n)
	}
	if !strings.Contains(u, "ANY") && !strings.Contains(u, "ALL") && !strings.Contains(u, "SOME") {
		return
	}
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		sl := n.GetSubLink()
		if sl == nil || len(sl.OperName) == 0 || sl.Testexpr == nil || sl.Testexpr.GetRowExpr() != nil {
			return
		}
		if sl.SubLinkType != pg_query.SubLinkType_ANY_SUBLINK && sl.SubLinkType != pg_query.SubLinkType_ALL_SUBLINK {
			return
		}
		if _, ok := cmpOps[opName(sl.OperName)]; ok {
			return
		}
		tmpl := quantAnyTemplate
		if sl.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK {
			tmpl = quantAllTemplate
		}
		r, err := pg_query.Parse(tmpl)
		if err != nil {
			return
		}
		setLocations(r.Stmts[0].Stmt.ProtoReflect(), sl.Location)
		outer := r.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val
		inner := outer.GetSubLink().Subselect.GetSelectStmt()
		inner.FromClause[0].GetRangeSubselect().Subquery = sl.Subselect
		yRef := &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields:   []*pg_query.Node{pg_query.MakeStrNode("?q?"), pg_query.MakeStrNode("?y?")},
			Location: sl.Location}}}
		kind := pg_query.A_Expr_Kind_AEXPR_OP
		switch opName(sl.OperName) {
		case "~~", "!~~":
			kind = pg_query.A_Expr_Kind_AEXPR_LIKE
		case "~~*", "!~~*":
			kind = pg_query.A_Expr_Kind_AEXPR_ILIKE
		}
		op := &pg_query.A_Expr{Kind: kind, Name: sl.OperName, Lexpr: sl.Testexpr, Rexpr: yRef, Location: sl.Location}
		walkNodes(inner.TargetList[0].ProtoReflect(), func(m *pg_query.Node) {
			if cr := m.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_().GetSval() == "?op?" {
				m.Node = &pg_query.Node_AExpr{AExpr: op}
			}
		})
		n.Node = outer.Node
	})
}

// walkNodes calls fn on every Node under m, parents before children (fn
// may replace a node's content; the walk then descends into the new one).
func walkNodes(m protoreflect.Message, fn func(*pg_query.Node)) {
	if n, ok := m.Interface().(*pg_query.Node); ok {
		fn(n)
		m = n.ProtoReflect()
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind {
			return true
		}
		if fd.IsList() {
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walkNodes(l.Get(i).Message(), fn)
			}
			return true
		}
		if !fd.IsMap() {
			walkNodes(v.Message(), fn)
		}
		return true
	})
}

// setLocations sets every location field under m to loc, so that errors
// in a rewritten expression point at the expression it replaced.
func setLocations(m protoreflect.Message, loc int32) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Name() == "location" && fd.Kind() == protoreflect.Int32Kind:
			m.Set(fd, protoreflect.ValueOfInt32(loc))
		case fd.Kind() == protoreflect.MessageKind && fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				setLocations(l.Get(i).Message(), loc)
			}
		case fd.Kind() == protoreflect.MessageKind && !fd.IsMap():
			setLocations(v.Message(), loc)
		}
		return true
	})
}

// A set-returning function in a select list (generate_series(…), alone
// or inside an expression) of a query without grouping, aggregates or
// other set-returning calls there yields a row per value for each input
// row, which is a lateral join of the function in FROM:
//
//	SELECT a, generate_series(1, a) + 1 FROM t
//	SELECT a, "?srf?".generate_series + 1 FROM t, LATERAL generate_series(1, a) AS "?srf?"(generate_series)
//
// Several calls run in lockstep, the shorter padded with NULLs, which is
// ROWS FROM (f(…), g(…)); the select list keeps the names the calls give
// their columns.
const srfTemplate = `SELECT 1 FROM LATERAL generate_series(1, 2) AS "?srf?"(generate_series)`

func rewriteSelectSRF(n *pg_query.Node) {
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		sel := n.GetSelectStmt()
		if sel == nil || len(sel.GroupClause) > 0 || sel.HavingClause != nil || len(sel.TargetList) == 0 {
			return
		}
		var calls []*pg_query.Node
		agg := false
		for _, t := range sel.TargetList {
			rt := t.GetResTarget()
			if rt == nil || rt.Val == nil {
				continue
			}
			agg = agg || hasAggregate(rt.Val)
			var walk func(m *pg_query.Node)
			walk = func(m *pg_query.Node) {
				if m == nil || m.GetSubLink() != nil {
					return
				}
				if f := m.GetFuncCall(); f != nil && f.Over == nil && expr.IsSRF(opName(f.Funcname)) {
					calls = append(calls, m)
					return
				}
				forEachChild(m, walk)
			}
			walk(rt.Val)
		}
		if agg || len(calls) == 0 {
			return
		}
		if len(calls) > 1 || opName(calls[0].GetFuncCall().Funcname) != "generate_series" {
			rowsFromSRF(sel, calls)
			return
		}
		r, err := pg_query.Parse(srfTemplate)
		if err != nil {
			return
		}
		call := calls[0]
		loc := call.GetFuncCall().Location
		setLocations(r.Stmts[0].Stmt.ProtoReflect(), loc)
		rf := r.Stmts[0].Stmt.GetSelectStmt().FromClause[0]
		rf.GetRangeFunction().Functions[0].GetList().Items[0] = &pg_query.Node{Node: call.Node}
		call.Node = &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields:   []*pg_query.Node{pg_query.MakeStrNode("?srf?"), pg_query.MakeStrNode("generate_series")},
			Location: loc}}
		sel.FromClause = append(sel.FromClause, rf)
	})
}

// rowsFromSRF moves the set-returning calls of sel's select list into one
// LATERAL ROWS FROM (…) AS "?srf?"("?srf1?", …), each call becoming a
// reference to its column.
func rowsFromSRF(sel *pg_query.SelectStmt, calls []*pg_query.Node) {
	for _, t := range sel.TargetList {
		if rt := t.GetResTarget(); rt != nil && rt.Name == "" && rt.Val != nil {
			rt.Name = figureName(rt.Val)
		}
	}
	rf := &pg_query.RangeFunction{Lateral: true, IsRowsfrom: len(calls) > 1, Alias: &pg_query.Alias{Aliasname: "?srf?"}}
	for i, call := range calls {
		f := call.GetFuncCall()
		col := "?srf" + strconv.Itoa(i+1) + "?"
		rf.Functions = append(rf.Functions, &pg_query.Node{Node: &pg_query.Node_List{List: &pg_query.List{
			Items: []*pg_query.Node{{Node: &pg_query.Node_FuncCall{FuncCall: f}}}}}})
		rf.Alias.Colnames = append(rf.Alias.Colnames, pg_query.MakeStrNode(col))
		call.Node = &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields:   []*pg_query.Node{pg_query.MakeStrNode("?srf?"), pg_query.MakeStrNode(col)},
			Location: f.Location}}
	}
	sel.FromClause = append(sel.FromClause, &pg_query.Node{Node: &pg_query.Node_RangeFunction{RangeFunction: rf}})
}
