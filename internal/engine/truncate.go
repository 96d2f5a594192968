package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// execTruncate deletes every row of each table named, within the open
// transaction or as one of its own: to the views it is the deletion of
// every row, so its cost is proportional to the rows the tables held (and
// the views' changes), as DELETE without WHERE. Tables are checked before
// any row is deleted. A change-stream table keeps no rows to retract: it
// is refused. RESTART IDENTITY restarts the sequences the tables' columns
// own, as part of the transaction (restart.go).
func (e *Engine) execTruncate(tr *sql.Truncate) (Result, error) {
	ts := make([]*table, 0, len(tr.Tables))
	for _, name := range tr.Tables {
		t, ok := e.tables[name]
		if !ok {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "cannot truncate system view %q", name).
				WithHint("system views are computed from the engine's own figures and are read-only")
		}
		if t.def.ChangeStream {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot truncate change-stream table %q: it keeps no rows to delete", name).
				WithHint("feed it the deletions as change events, or DROP the table and create it again")
		}
		ts = append(ts, t)
	}
	ts, notices, err := e.truncateReferencing(ts, tr.Cascade)
	if err != nil {
		return Result{}, err
	}
	if err := e.pendingEvents(ts, "TRUNCATE"); err != nil {
		return Result{}, err
	}
	return e.autocommit(func() (Result, error) {
		// Every table's BEFORE TRUNCATE triggers run before any row goes,
		// the AFTER ones once all are gone, as in PostgreSQL.
		fires := make([]*trigFire, len(ts))
		for i, t := range ts {
			if fires[i] = e.fireFor(t); fires[i] != nil {
				if err := fires[i].beforeStatement(sql.TriggerTruncate); err != nil {
					return Result{}, err
				}
			}
		}
		var ids []uint64
		for _, t := range ts {
			ids = ids[:0]
			t.scan(func(id uint64, _ value.Row) bool {
				ids = append(ids, id)
				return true
			})
			for _, id := range ids {
				e.deleteRow(t, id)
			}
		}
		if tr.RestartIdentity {
			e.restartOwned(ts)
		}
		for _, f := range fires {
			if err := f.end(sql.TriggerTruncate); err != nil {
				return Result{}, err
			}
		}
		return Result{Tag: "TRUNCATE TABLE", Notices: notices}, nil
	})
}
