package engine

import (
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ReplaceRows is Replace of each of rows in turn, in one call: what a
// call of the typed API costs beyond its row (the engine's lock, the
// session's and the privilege's checks, the transaction's bookkeeping) is
// paid once for the batch, not once a row. It stops at the first row that
// fails and takes back the rows of this call replaced before it, as a
// failed Replace takes back its own; the transaction's earlier changes
// stay. The engine keeps none of rows' slices: the caller may reuse them
// once it returns.
func (s *Session) ReplaceRows(tableName string, rows [][]value.Value) error {
	return s.typedChangeKeep(tableName, sql.PrivUpdate, true, func(e *Engine) error {
		kept := len(e.tx.pending)
		for _, row := range rows {
			if err := e.replaceTyped(tableName, value.Row(row)); err != nil {
				// The rows this call kept in the transaction; rows
				// written at once (a table that keeps none) are taken
				// back by typedChangeKeep, from the log.
				clear(e.tx.pending[kept:])
				e.tx.pending = e.tx.pending[:kept]
				return err
			}
		}
		return nil
	})
}
