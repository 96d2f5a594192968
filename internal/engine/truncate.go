package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
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
	return e.truncate(tr, e.autocommit)
}

// truncate runs TRUNCATE's changes through run: autocommit for a
// statement of the session, atomically for one of PL/pgSQL code, whose
// statement's transaction (or an EXCEPTION handler) ends them.
func (e *Engine) truncate(tr *sql.Truncate, run func(func() (Result, error)) (Result, error)) (Result, error) {
	ts := make([]*table, 0, len(tr.Tables))
	whole := make([]*table, 0, len(tr.Tables)) // the tables truncated whole, not a partition's rows
	for i, name := range tr.Tables {
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
		if tr.Partitions == nil || tr.Partitions[i] == nil {
			whole = append(whole, t)
		}
	}
	parts := len(ts) - len(whole)
	names := make([]string, len(ts))
	for i := range names {
		if tr.Partitions != nil && i < len(tr.Partitions) && tr.Partitions[i] != nil {
			names[i] = tr.Partitions[i].Name
		}
	}
	ts, notices, err := e.truncateReferencing(ts, names, tr.Cascade)
	if err != nil {
		return Result{}, err
	}
	if err := e.pendingEvents(ts, "TRUNCATE"); err != nil {
		return Result{}, err
	}
	return run(func() (Result, error) {
		// Every table's BEFORE TRUNCATE triggers run before any row goes,
		// the AFTER ones once all are gone, as in PostgreSQL.
		fires := make([]*trigFire, len(ts))
		for i, t := range ts {
			if tr.Partitions != nil && i < len(tr.Partitions) && tr.Partitions[i] != nil {
				continue // a partition has no triggers of its own
			}
			if fires[i] = e.fireFor(t); fires[i] != nil {
				if err := fires[i].beforeStatement(sql.TriggerTruncate); err != nil {
					return Result{}, err
				}
			}
		}
		var ids []uint64
		for i, t := range ts {
			// A partition's rows are its root's that its constraint
			// accepts.
			var of *expr.PartitionOf
			if tr.Partitions != nil && i < len(tr.Partitions) {
				of = tr.Partitions[i]
			}
			var err error
			ids = ids[:0]
			t.scan(func(id uint64, row value.Row) bool {
				in := true
				if of != nil {
					in, err = of.Accepts(row)
				}
				if in {
					ids = append(ids, id)
				}
				return err == nil
			})
			if err != nil {
				return Result{}, err
			}
			for _, id := range ids {
				e.deleteRow(t, id)
			}
		}
		if tr.RestartIdentity {
			// A partition's columns own no sequences: its parent's do.
			e.restartOwned(append(whole, ts[len(whole)+parts:]...))
		}
		for _, f := range fires {
			if err := f.end(sql.TriggerTruncate); err != nil {
				return Result{}, err
			}
		}
		return Result{Tag: "TRUNCATE TABLE", Notices: notices}, nil
	})
}
