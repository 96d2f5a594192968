package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A view whose WHERE holds a subquery (`WHERE a IN (SELECT …)`) cannot
// be read as one expression over a row of its table. Its WHERE is bound
// instead as a plan over the table's rows (AutoView.Shown): a
// plan.Target whose rows are the table's columns followed by the row id,
// seen through the views under the view, filtered by the WHERE (its
// subqueries decorrelated as in an UPDATE's WHERE), whose rows are the
// ids of the rows the view shows. An UPDATE or a DELETE through the view
// runs it once over the table, a check option once over each row written
// (ViewCheck.Shown), as PostgreSQL evaluates the view's quals and its
// WITH CHECK OPTION subplans.

// viewShown binds w, the WHERE of a view over base (under alias, named
// origin in the references' log), as such a plan over the rows of table;
// inner resolves base to table when base is a view.
func (sub *binder) viewShown(alias, origin string, base, table *Relation, inner *AutoView, w *pg_query.Node) (plan.Node, error) {
	n := len(table.Cols)
	tcols := append(append([]plan.Column{}, table.Cols...), plan.Column{Name: "?id?", Type: value.Int8Type})
	var input plan.Node = &plan.Target{Name: table.Name, Cols: tcols}
	if inner != nil {
		// The rows of the view under it, computed from the table's.
		exprs := append(append([]expr.Expr{}, inner.Exprs...), &expr.Col{Idx: n, T: value.Int8Type, Name: "?id?"})
		cols := append(append([]plan.Column{}, base.Cols...), plan.Column{Name: "?id?", Type: value.Int8Type})
		input = &plan.Project{Input: input, Exprs: exprs, Cols: cols}
	}
	sc := rowScope(alias, relRowType(base), base.Cols)
	for i := range sc.cols {
		sc.cols[i].origin, sc.cols[i].originCol = origin, i // for the level's Reads
	}
	sc.star = sc.starCols()
	sc.cols = append(sc.cols, scopeCol{typ: value.Int8Type})
	sc.allowScalar = true
	input, err := sub.bindWhere(sc, input, w)
	if err != nil {
		return nil, err
	}
	input = sub.orderJoins(input)
	sc.allowScalar = false
	id := &expr.Col{Idx: len(base.Cols), T: value.Int8Type, Name: "?id?"}
	return &plan.Project{Input: applyPending(sc, input), Exprs: []expr.Expr{id}, Cols: []plan.Column{{Name: "?id?", Type: value.Int8Type}}}, nil
}
