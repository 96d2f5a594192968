package engine

import (
	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/plan"
)

// A table's rows are kept in row id order, which is insertion order (an
// UPDATE writes a row in place; compaction and reopening keep the order):
// the order of PostgreSQL's sequential scan of a table that rows were only
// inserted into. Ad-hoc aggregates without ORDER BY over a table scan
// take their values in it, as PostgreSQL's do (exec.HeapOrderSource).

var (
	_ exec.HeapOrderSource = (*Engine)(nil)
	_ exec.HeapOrderSource = (*committedSource)(nil)
	_ exec.HeapOrderSource = sessionSource{}
)

// HeapOrdered implements exec.HeapOrderSource: a table that keeps its
// rows (a partitioned table's rows are its partitions') scans in row id
// order.
func (e *Engine) HeapOrdered(rel string) bool {
	if _, ok := e.transitionRows(rel); ok {
		return false
	}
	if name, ok := plan.SystemTable(rel); ok {
		rel = name
	}
	t, ok := e.tables[rel]
	return ok && t.keepsRows() && t.def.PartitionBy == nil
}

// HeapOrdered implements exec.HeapOrderSource: the committed rows merge
// by row id (scanIDs).
func (c *committedSource) HeapOrdered(rel string) bool { return c.e.HeapOrdered(rel) }

// HeapOrdered implements exec.HeapOrderSource.
func (ss sessionSource) HeapOrdered(rel string) bool {
	switch rel {
	case "pg_catalog.pg_prepared_statements", "pg_catalog.pg_cursors":
		return false
	}
	hs, ok := ss.src.(exec.HeapOrderSource)
	return ok && hs.HeapOrdered(rel)
}
