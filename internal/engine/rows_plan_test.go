package engine

import (
	"runtime"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestLayoutAfterManyReplaces replaces every row of a table twenty times
// (a history of changes whose replaces are many times the rows) and
// checks that the layout then allocates what the rows' copies and its
// lists take, not a list of ids as long as the replaces: under 130 bytes
// a row of two integers (48 bytes of values copied, about 32 of lists;
// a list sized by the replaces would add 90). Then every row is copied
// once the former slabs' dead room passes half the rows, with the rows
// read back unchanged.
func TestLayoutAfterManyReplaces(t *testing.T) {
	const n = 50_000
	s := newRowStore()
	for id := 1; id <= n; id++ {
		s.Set(uint64(id), value.Row{value.NewInt(value.Int8, int64(id)), value.NewInt(value.Int8, int64(-id))})
	}
	replaceAll := func(times int) {
		for range times {
			for id := 1; id <= n; id++ {
				r, _ := s.Get(uint64(id))
				s.Set(uint64(id), slices.Clone(r))
			}
		}
	}
	replaceAll(20)
	if s.moved != 20*n {
		t.Fatalf("%d replaces counted, want %d", s.moved, 20*n)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ids := s.layout()
	runtime.ReadMemStats(&after)
	if len(ids) != n {
		t.Fatalf("%d rows copied, want %d", len(ids), n)
	}
	if perRow := (after.TotalAlloc - before.TotalAlloc) / n; perRow >= 130 {
		t.Fatalf("the layout allocated %d bytes a row", perRow)
	}
	// The rows laid out are replaced again, often: their slabs' dead room
	// passes half the rows, and the layout copies every row.
	replaceAll(3)
	if ids := s.layout(); len(ids) != n {
		t.Fatalf("%d rows copied, want %d", len(ids), n)
	}
	replaceAll(1)
	if ids := s.layout(); len(ids) != n {
		t.Fatalf("%d rows copied, want %d", len(ids), n)
	}
	for id := 1; id <= n; id++ {
		r, ok := s.Get(uint64(id))
		if !ok || len(r) != 2 || r[0].Int() != int64(id) || r[1].Int() != int64(-id) {
			t.Fatalf("row %d: %v", id, r)
		}
	}
}
