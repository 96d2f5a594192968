package engine

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
)

// TableBytes returns the bytes table's accounting holds for its rows and
// RowBytes of its rows counted afresh.
func TableBytes(e *Engine, table string) (kept, counted int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.tables[table]
	t.rows.Scan(func(_ uint64, row value.Row) bool {
		counted += dataflow.RowBytes(row)
		return true
	})
	return t.bytes, counted
}
