package expr

import "github.com/deltaview/deltaview/internal/value"

// pg_lsn's functions; its operators are arithmetic (value's lsnArith),
// and the positions of the log (pg_current_wal_lsn, …) BackendCall's.
func init() {
	strict("pg_wal_lsn_diff", kinds(value.PgLSN, value.PgLSN), value.NumericType, func(a []value.Value) (value.Value, error) {
		return value.PgLSNDiff(a[0], a[1]), nil
	})
	strict("pg_lsn", kinds(value.Numeric), value.PgLSNType, func(a []value.Value) (value.Value, error) {
		return value.PgLSNAdd(value.NewPgLSN(0), a[0], false)
	})
}
