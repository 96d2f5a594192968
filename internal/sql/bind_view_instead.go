package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/plan"
)

// An automatically updatable view over a view whose INSTEAD OF triggers
// do the statement's event changes that view as PostgreSQL's rewriter
// makes it: the statement becomes one on the view under it, whose
// triggers then run for each row (AutoView.Instead). The view under it
// stands where a table would: its rows (the plan of its query, each
// numbered when the statement runs) are the rows the statement reads,
// its columns the ones the statement's view columns are; an UPDATE gives
// its triggers the view's row as OLD and that row with the assigned
// columns as NEW, a DELETE the row as OLD, an INSERT the row proposed
// (its columns not given at the view's defaults, else NULL). The
// statement triggers of the view under it fire, not those of the view
// the statement names, and the check options are checked on the row the
// triggers return, as in PostgreSQL.

// insteadRows binds the rows of the view rv names in a view's FROM,
// whose INSTEAD OF triggers do the statement's event.
func (sub *binder) insteadRows(rv *pg_query.RangeVar) (plan.Node, error) {
	p, _, err := sub.bindRangeVar(&pg_query.RangeVar{Relname: rv.Relname, Schemaname: rv.Schemaname, Inh: true, Relpersistence: "p", Location: rv.Location})
	return p, err
}
