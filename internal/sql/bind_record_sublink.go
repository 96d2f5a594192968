package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
)

// subqueryRecordCheck returns PostgreSQL's error for x op ANY (Q), x op
// ALL (Q) or x IN (Q) when x and y, Q's column, are records whose fields
// differ in type (expr.SubqueryRecordCheck): checked when binding, since
// the rows meet in a join rather than in a comparison. PostgreSQL hashes
// Q for IN and = ANY unless pairwise: Q is correlated, or is a WHERE
// conjunct, which it plans as a join and, for the few rows of such
// queries, compares pair by pair.
func subqueryRecordCheck(x, y expr.Expr, sl *pg_query.SubLink, pairwise bool) error {
	op := opName(sl.OperName)
	hashed := !pairwise && sl.SubLinkType == pg_query.SubLinkType_ANY_SUBLINK && (op == "" || op == "=")
	ordering := op == "<" || op == "<=" || op == ">" || op == ">="
	return expr.SubqueryRecordCheck(x, y, hashed, ordering)
}

// planOutput returns the expression computing column i of p, through
// filters, sorts, limits and DISTINCT, whose row constructors say which
// fields were literals (expr.NewRecordCheck); col when p computes the
// column otherwise.
func planOutput(p plan.Node, i int, col expr.Expr) expr.Expr {
	for {
		switch n := p.(type) {
		case *plan.Project:
			if c, ok := n.Exprs[i].(*expr.Col); ok {
				p, i = n.Input, c.Idx
				continue
			}
			return n.Exprs[i]
		case *plan.Filter:
			p = n.Input
		case *plan.Sort:
			p = n.Input
		case *plan.Limit:
			p = n.Input
		case *plan.Distinct:
			p = n.Input
		default:
			return col
		}
	}
}
