package expr

import "github.com/deltaview/deltaview/internal/value"

// pg_is_in_recovery() and pg_last_xact_replay_timestamp() keep no state:
// the engine is never a standby replaying another server's log, so they
// answer as a PostgreSQL primary does, false and NULL (monitoring tools
// ask them at connect). Volatile, as in PostgreSQL.
func init() {
	register(&FuncDef{Name: "pg_is_in_recovery", Volatile: true, Result: value.BoolType,
		Eval: func([]value.Value) (value.Value, error) { return value.NewBool(false), nil }})
	register(&FuncDef{Name: "pg_last_xact_replay_timestamp", Volatile: true, Result: value.TimestampTZType,
		Eval: func([]value.Value) (value.Value, error) { return value.Null, nil }})
}
