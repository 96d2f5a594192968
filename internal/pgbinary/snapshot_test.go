package pgbinary

import (
	"encoding/binary"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// A snapshot's binary form is pg_snapshot_send's, read back as
// pg_snapshot_recv reads it: duplicates dropped, ids out of order or
// outside [xmin, xmax) refused.
func TestSnapshotBinary(t *testing.T) {
	v, err := value.Parse("10:20:10,14,15", value.PgSnapshotType)
	if err != nil {
		t.Fatal(err)
	}
	b := AppendBinary(nil, v, value.PgSnapshot)
	want := []byte{0, 0, 0, 3}
	for _, x := range []uint64{10, 20, 10, 14, 15} {
		want = binary.BigEndian.AppendUint64(want, x)
	}
	if string(b) != string(want) {
		t.Fatalf("binary %x, want %x", b, want)
	}
	got, err := DecodeParam(b, 1, value.TxidSnapshotType, 1)
	if err != nil || got.Kind() != value.TxidSnapshot || got.String() != "10:20:10,14,15" {
		t.Fatalf("decoded %v (%v), %v", got, got.Kind(), err)
	}
	snap := func(n uint32, ids ...uint64) []byte {
		b := binary.BigEndian.AppendUint32(nil, n)
		for _, x := range ids {
			b = binary.BigEndian.AppendUint64(b, x)
		}
		return b
	}
	if got, err := DecodeParam(snap(3, 10, 20, 12, 12, 13), 1, value.PgSnapshotType, 1); err != nil || got.String() != "10:20:12,13" {
		t.Errorf("duplicates: %v, %v", got, err)
	}
	for _, bad := range [][]byte{snap(1, 10, 20, 25), snap(2, 10, 20, 14, 12), snap(0, 0, 20), snap(0, 20, 10), snap(2, 10, 20, 12), {1, 2}} {
		if _, err := DecodeParam(bad, 1, value.PgSnapshotType, 1); err == nil {
			t.Errorf("%x read without error", bad)
		}
	}
}
