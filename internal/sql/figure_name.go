package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// figureName names an unaliased select-list expression as PostgreSQL 15's
// FigureColname does.
func figureName(n *pg_query.Node) string {
	return starNames(nil).figure(n)
}

// starNames are the bound names of scalar subqueries whose select list is
// a `*` (`(SELECT * FROM one_col)`), which PostgreSQL names after the
// column the star expands to: only binding the subquery knows it. Keyed
// by the subquery's text (subLinkKey), as a statement binds the same
// subquery once (bindSubLink's cache).
type starNames map[string]string

// figure is figureName with the subqueries' bound names of sn.
func (sn starNames) figure(n *pg_query.Node) string {
	name, _ := sn.strength(n)
	if name == "" {
		return "?column?"
	}
	return name
}

// strength is FigureColnameInternal: the name n gives its column
// and how firmly, 2 for a name of its own (a column, a function, a
// subquery's column), 1 for a fallback that an enclosing expression's
// own name overrides (a cast's type, "case"), 0 for none. A CASE takes
// its ELSE's name when that is firm, a cast its argument's.
func (sn starNames) strength(n *pg_query.Node) (string, int) {
	switch {
	case n == nil:
		return "", 0
	case n.GetColumnRef() != nil:
		name := ""
		for _, f := range n.GetColumnRef().Fields {
			if s := f.GetString_(); s != nil {
				name = s.Sval // t.* is named t
			}
		}
		if name != "" {
			return name, 2
		}
	case n.GetAIndirection() != nil:
		// (r).f[1] is f: the last field name among the indirections.
		ind := n.GetAIndirection()
		name := ""
		for _, i := range ind.Indirection {
			if s := i.GetString_(); s != nil {
				name = s.Sval
			}
		}
		if name != "" {
			return name, 2
		}
		return sn.strength(ind.Arg)
	case n.GetFuncCall() != nil:
		return keyName(opName(n.GetFuncCall().Funcname)), 2
	case n.GetAExpr() != nil:
		if n.GetAExpr().Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF {
			return "nullif", 2
		}
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		name, strength := sn.strength(tc.Arg)
		if strength <= 1 && tc.TypeName != nil {
			return pgTypeName(keyName(opName(tc.TypeName.Names))), 1
		}
		return name, strength
	case n.GetCollateClause() != nil:
		return sn.strength(n.GetCollateClause().Arg)
	case n.GetGroupingFunc() != nil:
		return "grouping", 2
	case n.GetSubLink() != nil:
		switch sl := n.GetSubLink(); sl.SubLinkType {
		case pg_query.SubLinkType_EXISTS_SUBLINK:
			return "exists", 2
		case pg_query.SubLinkType_ARRAY_SUBLINK:
			return "array", 2
		case pg_query.SubLinkType_EXPR_SUBLINK, pg_query.SubLinkType_MULTIEXPR_SUBLINK:
			if name := subqueryColumnName(sl.Subselect); name != "" {
				return name, 2
			}
			if len(sn) > 0 && sn[subLinkKey(sl)] != "" {
				return sn[subLinkKey(sl)], 2
			}
		}
	case n.GetCaseExpr() != nil:
		name, strength := sn.strength(n.GetCaseExpr().Defresult)
		if strength <= 1 {
			return "case", 1
		}
		return name, strength
	case n.GetAArrayExpr() != nil:
		return "array", 2
	case n.GetRowExpr() != nil:
		return "row", 2
	case n.GetCoalesceExpr() != nil:
		return "coalesce", 2
	case n.GetMinMaxExpr() != nil:
		if n.GetMinMaxExpr().Op == pg_query.MinMaxOp_IS_LEAST {
			return "least", 2
		}
		return "greatest", 2
	case n.GetXmlExpr() != nil && n.GetXmlExpr().Op != pg_query.XmlExprOp_IS_DOCUMENT:
		return strings.ToLower(strings.TrimPrefix(n.GetXmlExpr().Op.String(), "IS_")), 2
	case n.GetXmlSerialize() != nil:
		return "xmlserialize", 2
	case n.GetSqlvalueFunction() != nil:
		return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(n.GetSqlvalueFunction().Op.String(), "SVFOP_"), "_N")), 2
	}
	return "", 0
}

// subqueryColumnName is the name of a scalar subquery's column, which
// names the subquery in PostgreSQL (its output name, "?column?" for an
// unnamed expression, as the subquery's own select list names it): the
// first column of the leftmost query of a set operation, column1 of
// VALUES. "" when the name needs the subquery bound (`SELECT *`).
func subqueryColumnName(n *pg_query.Node) string {
	sel := n.GetSelectStmt()
	for sel != nil && sel.Op != pg_query.SetOperation_SETOP_NONE {
		sel = sel.Larg
	}
	switch {
	case sel == nil:
		return ""
	case len(sel.ValuesLists) > 0:
		return "column1"
	case len(sel.TargetList) == 0:
		return ""
	}
	rt := sel.TargetList[0].GetResTarget()
	switch {
	case rt == nil:
		return ""
	case rt.Name != "":
		return rt.Name
	case rt.Val.GetColumnRef() != nil && rt.Val.GetColumnRef().Fields[len(rt.Val.GetColumnRef().Fields)-1].GetAStar() != nil:
		return "" // * and t.*: named after the column they expand to
	}
	return figureName(rt.Val)
}
