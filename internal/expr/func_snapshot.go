package expr

import (
	"slices"

	"github.com/deltaview/deltaview/internal/value"
)

// Snapshot is a transaction snapshot as the engine takes it: the
// transactions below Xmin are over, those from Xmax on not started, and
// of those between, the Xip (ascending) still running.
type Snapshot struct {
	Xmin, Xmax int64
	Xip        []int64
}

// Value is s as a value of kind k, pg_snapshot or txid_snapshot.
func (s Snapshot) Value(k value.Kind) value.Value {
	vs := value.Snapshot{Xmin: uint64(s.Xmin), Xmax: uint64(s.Xmax), Xip: make([]uint64, len(s.Xip))}
	for i, x := range s.Xip {
		vs.Xip[i] = uint64(x)
	}
	return value.NewSnapshot(k, vs)
}

// String prints s as PostgreSQL does.
func (s Snapshot) String() string { return s.Value(value.PgSnapshot).String() }

// visibleIn reports whether transaction x's changes are visible to s.
func visibleIn(s value.Snapshot, x uint64) bool {
	switch {
	case x < s.Xmin:
		return true
	case x >= s.Xmax:
		return false
	}
	_, running := slices.BinarySearch(s.Xip, x)
	return !running
}

// The functions of snapshots: pg_snapshot_xmin, pg_snapshot_xmax and
// pg_visible_in_snapshot, of pg_snapshot, which take and give xid8, and
// their txid_ names, of txid_snapshot, which take and give bigint.
func init() {
	for _, end := range []string{"xmin", "xmax"} {
		xmax := end == "xmax"
		bound := func(a []value.Value) uint64 {
			s := a[0].SnapshotOf()
			if xmax {
				return s.Xmax
			}
			return s.Xmin
		}
		strict("pg_snapshot_"+end, kinds(value.PgSnapshot), value.Xid8Type, func(a []value.Value) (value.Value, error) {
			return value.NewXid8(bound(a)), nil
		})
		strict("txid_snapshot_"+end, kinds(value.TxidSnapshot), value.Int8Type, func(a []value.Value) (value.Value, error) {
			return value.NewInt(value.Int8, int64(bound(a))), nil
		})
	}
	strict("pg_visible_in_snapshot", kinds(value.Xid8, value.PgSnapshot), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(visibleIn(a[1].SnapshotOf(), a[0].Xid8())), nil
	})
	strict("txid_visible_in_snapshot", kinds(value.Int8, value.TxidSnapshot), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(visibleIn(a[1].SnapshotOf(), uint64(a[0].Int()))), nil
	})
}
