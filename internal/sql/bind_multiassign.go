package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// multiAssignItem returns the assignment rt, one column of SET (a, b, …) =
// ROW(x, y, …), as the single assignment a = x it stands for. A sub-SELECT
// source is refused (0A000); any other source than a row, and a row of
// another width, are PostgreSQL's errors.
func (b *binder) multiAssignItem(rt *pg_query.ResTarget, mar *pg_query.MultiAssignRef) (*pg_query.ResTarget, error) {
	src := mar.Source
	if sl := src.GetSubLink(); sl != nil {
		return nil, b.refuse(sl.Location, "a multiple-column assignment from a subquery is not supported").
			WithHint("assign each column its own expression")
	}
	row := src.GetRowExpr()
	if row == nil {
		return nil, b.refuse(nodeLoc(src, rt.Location), "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression")
	}
	if int(mar.Ncolumns) != len(row.Args) {
		return nil, b.stmt.errf(row.Location, pgerr.SyntaxError, "number of columns does not match number of values")
	}
	return &pg_query.ResTarget{Name: rt.Name, Indirection: rt.Indirection, Val: row.Args[mar.Colno-1], Location: rt.Location}, nil
}
