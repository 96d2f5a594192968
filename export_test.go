package deltaview

import "github.com/deltaview/deltaview/internal/engine"

// SetScheduleTrace makes db's engine record its commits' schedule in tr
// (nil: stop).
func SetScheduleTrace(db *DB, tr *engine.ScheduleTrace) { db.e.SetScheduleTrace(tr) }

// Relayed returns how many tasks of db's parallel waves went to the
// relay's waiting goroutine and how many started one.
func Relayed(db *DB) (relayed, started int64) { return db.e.Relayed() }
