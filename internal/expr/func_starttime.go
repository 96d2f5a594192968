package expr

import (
	"time"

	"github.com/deltaview/deltaview/internal/value"
)

// serverStart is when the process started, which pg_postmaster_start_time()
// and pg_conf_load_time() give: the engine is the server, and its
// settings are read as it starts. Volatile: a view that read them would
// change at a restart with no change to its tables.
var serverStart = time.Now()

func init() {
	start := func([]value.Value) (value.Value, error) {
		return value.NewTimestamp(value.TimestampTZ, serverStart.UnixMicro()-pgEpochMicros), nil
	}
	register(&FuncDef{Name: "pg_postmaster_start_time", Volatile: true, Result: value.TimestampTZType, Eval: start})
	register(&FuncDef{Name: "pg_conf_load_time", Volatile: true, Result: value.TimestampTZType, Eval: start})
}

// ServerStart is when the process started: the time the server's
// statistics counters start from (pg_stat_bgwriter.stats_reset, …).
func ServerStart() time.Time { return serverStart }
