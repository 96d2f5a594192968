package pgbinary

import (
	"encoding/binary"

	"github.com/deltaview/deltaview/internal/value"
)

// appendSnapshotBinary writes a pg_snapshot or txid_snapshot as
// pg_snapshot_send does: the number of running ids (int4), xmin, xmax,
// then each running id (int8).
func appendSnapshotBinary(buf []byte, v value.Value) []byte {
	s := v.SnapshotOf()
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(s.Xip)))
	buf = binary.BigEndian.AppendUint64(buf, s.Xmin)
	buf = binary.BigEndian.AppendUint64(buf, s.Xmax)
	for _, x := range s.Xip {
		buf = binary.BigEndian.AppendUint64(buf, x)
	}
	return buf
}

// decodeSnapshotBinary reads a snapshot as pg_snapshot_recv does: the
// ids checked as its text input checks them, duplicates dropped; ok is
// false for data it refuses.
func decodeSnapshotBinary(b []byte, k value.Kind) (value.Value, bool) {
	if len(b) < 20 {
		return value.Null, false
	}
	n := binary.BigEndian.Uint32(b)
	s := value.Snapshot{Xmin: binary.BigEndian.Uint64(b[4:]), Xmax: binary.BigEndian.Uint64(b[12:])}
	b = b[20:]
	if s.Xmin == 0 || s.Xmax == 0 || s.Xmax < s.Xmin || uint64(len(b)) != 8*uint64(n) {
		return value.Null, false
	}
	var last uint64
	for ; len(b) > 0; b = b[8:] {
		x := binary.BigEndian.Uint64(b)
		if x < last || x < s.Xmin || x >= s.Xmax {
			return value.Null, false
		}
		if x != last {
			s.Xip = append(s.Xip, x)
		}
		last = x
	}
	return value.NewSnapshot(k, s), true
}
