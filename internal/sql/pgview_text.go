package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/value"
)

// RelColumns gives a relation's columns and their types by its name, ok
// false for a relation the caller does not know.
type RelColumns func(name string) (cols []string, types []value.Type, ok bool)

// ViewDefPG is src, a view's query as kept, as PostgreSQL 15's
// pg_get_viewdef prints its stored query: columns qualified by their
// relation, every output named, one per line, clauses on lines of their
// own, subqueries, set operations and WITH laid out as ruleutils lays
// them out. names are the view's column names. ok is false for a query
// this printer does not know: the caller keeps src.
func ViewDefPG(src string, names []string, rels RelColumns, pretty bool) (text string, ok bool) {
	defer func() {
		// A form this printer misreads must cost the reader the
		// PostgreSQL layout, never the catalog read: keep src.
		if recover() != nil {
			text, ok = "", false
		}
	}()
	tree, err := pg_query.Parse(src)
	if err != nil || len(tree.Stmts) != 1 {
		return "", false
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil {
		return "", false
	}
	// A view's stored query has the rule's OLD and NEW entries first in
	// its range table: their names are taken.
	a := &viewAnalyzer{rels: rels}
	q, err := a.query(sel, scopeEnv{names: map[string]int{"old": 0, "new": 0}}, names, false)
	if err != nil {
		return "", false
	}
	pp := &pprinter{pretty: pretty}
	pp.query(q, true)
	return pp.b.String() + ";", true
}

// figureColname is FigureColname: the name PostgreSQL gives an output
// column written without AS.
func figureColname(n *pg_query.Node) string {
	switch {
	case n.GetColumnRef() != nil:
		f := n.GetColumnRef().Fields
		if s := f[len(f)-1].GetString_(); s != nil {
			return s.Sval
		}
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall().Funcname
		return f[len(f)-1].GetString_().GetSval()
	case n.GetTypeCast() != nil:
		if name := figureColname(n.GetTypeCast().Arg); name != "?column?" {
			return name
		}
		names := n.GetTypeCast().TypeName.Names
		return names[len(names)-1].GetString_().GetSval()
	case n.GetCaseExpr() != nil:
		return "case"
	case n.GetCoalesceExpr() != nil:
		return "coalesce"
	case n.GetMinMaxExpr() != nil:
		if n.GetMinMaxExpr().Op == pg_query.MinMaxOp_IS_LEAST {
			return "least"
		}
		return "greatest"
	case n.GetAArrayExpr() != nil:
		return "array"
	case n.GetSqlvalueFunction() != nil:
		return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(n.GetSqlvalueFunction().Op.String(), "SVFOP_"), "_N"))
	case n.GetAExpr() != nil && n.GetAExpr().Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF:
		return "nullif"
	case n.GetSubLink() != nil:
		switch n.GetSubLink().SubLinkType {
		case pg_query.SubLinkType_EXISTS_SUBLINK:
			return "exists"
		case pg_query.SubLinkType_ARRAY_SUBLINK:
			return "array"
		case pg_query.SubLinkType_EXPR_SUBLINK:
			// a scalar subquery is named by its single output
			sel := n.GetSubLink().Subselect.GetSelectStmt()
			if sel != nil && sel.Op == pg_query.SetOperation_SETOP_NONE && len(sel.TargetList) == 1 {
				if rt := sel.TargetList[0].GetResTarget(); rt != nil {
					if rt.Name != "" {
						return rt.Name
					}
					return figureColname(rt.Val)
				}
			}
		}
	}
	return "?column?"
}
