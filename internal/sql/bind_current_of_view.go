package sql

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// WHERE CURRENT OF a cursor over a view. PostgreSQL plans a cursor's
// query over a view as a scan of the view's table when the view's query
// is itself a simply updatable scan, so the cursor stands on the table's
// row, and UPDATE or DELETE of the table WHERE CURRENT OF changes it
// (of the view itself it is 0A000 there, and here). Here a cursor's scan
// of such a view (CursorScan) keeps, as the view's system columns, the
// tableoid and ctid of the table's row under each of its rows, views
// over views down to the table. A cursor over a view of another shape (a
// join, an aggregate) keeps no positions (24000 at WHERE CURRENT OF, as
// PostgreSQL's).

// cursorViewQuery returns, for view rel read by a cursor's scan (a
// statement with SystemColumns), the view's query that also reads its
// table's tableoid and ctid as its last two columns; ok is false when
// the view is no simply updatable scan.
func cursorViewQuery(rel *Relation, q *Stmt, stmt *Stmt) (*Stmt, bool) {
	if !stmt.SystemColumns || rel.Kind != KindView {
		return q, false
	}
	cq, ok := CursorScan(q)
	if !ok {
		return q, false
	}
	out := *cq
	out.SQL = q.SQL
	return &out, true
}

// viewSystemColumns makes the last two columns of p, the rows of a view
// of n columns read by cursorViewQuery (its table's tableoid and ctid),
// the view's system columns: ctid and tableoid, the others NULL.
func viewSystemColumns(p plan.Node, n int) plan.Node {
	cols := p.Columns()
	exprs := make([]expr.Expr, 0, n+len(plan.SystemColumns))
	out := slices.Clone(cols[:n])
	for i := range n {
		exprs = append(exprs, &expr.Col{Idx: i, T: cols[i].Type, Name: cols[i].Name})
	}
	for _, c := range plan.SystemColumns {
		switch c.Name {
		case "ctid":
			exprs = append(exprs, &expr.Col{Idx: n + 1, T: c.Type, Name: c.Name})
		case "tableoid":
			exprs = append(exprs, &expr.Col{Idx: n, T: c.Type, Name: c.Name})
		default:
			exprs = append(exprs, &expr.Const{V: value.Null, T: c.Type})
		}
		out = append(out, c)
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: out}
}
