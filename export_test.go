package deltaview

import "github.com/deltaview/deltaview/internal/engine"

// SetScheduleTrace makes db's engine record its commits' schedule in tr
// (nil: stop).
func SetScheduleTrace(db *DB, tr *engine.ScheduleTrace) { db.e.SetScheduleTrace(tr) }
