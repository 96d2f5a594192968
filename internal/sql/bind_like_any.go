package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
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

// hasBuiltinSRF reports whether the tree under n calls a built-in
// set-returning function, which rewriteSelectSRF moves out of a select
// list.
func hasBuiltinSRF(n *pg_query.Node) bool {
	found := false
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		if f := n.GetFuncCall(); f != nil && !found && len(f.Funcname) > 0 {
			found = expr.IsSRF(f.Funcname[len(f.Funcname)-1].GetString_().GetSval())
		}
	})
	return found
}

// rewriteQuantified replaces, in the tree under n, every x op ANY/ALL (Q)
// whose operator is not a comparison by its scalar subquery.
func rewriteQuantified(cat Catalog, sql string, n *pg_query.Node) {
	u := strings.ToUpper(sql)
	if markUserSRFs(cat, n) || hasBuiltinSRF(n) {
		rewriteSelectSRF(cat, n)
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
	walkNodesPruned(m, func(n *pg_query.Node) bool { fn(n); return true })
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
