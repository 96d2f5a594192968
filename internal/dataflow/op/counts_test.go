package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestCountsCompact checks that counts that shrank give their slab back
// and still find, count and order every row left.
func TestCountsCompact(t *testing.T) {
	c := newIdentityCounts()
	row := func(i int) value.Row { return value.Row{value.NewInt(value.Int8, int64(i))} }
	for i := range 10000 {
		c.add(row(i), 2)
	}
	for i := range 10000 {
		if i%100 != 0 {
			c.add(row(i), -2)
		}
	}
	c.compact()
	if len(c.slots) != 100 || c.live != 100 || c.total != 200 {
		t.Fatalf("after compaction: %d slots, %d live, total %d; want 100, 100, 200", len(c.slots), c.live, c.total)
	}
	for i := range 10000 {
		want := int64(0)
		if i%100 == 0 {
			want = 2
		}
		if got := c.get(row(i)); got != want {
			t.Fatalf("row %d: weight %d, want %d", i, got, want)
		}
	}
	prev := -1
	c.scan(func(r value.Row, w int64) bool {
		if int(r[0].Int()) <= prev {
			t.Fatalf("scan out of order: %d after %d", r[0].Int(), prev)
		}
		prev = int(r[0].Int())
		return true
	})
	c.add(row(5), 1) // the slab grows again from its compacted size
	if c.get(row(5)) != 1 || c.live != 101 {
		t.Fatalf("insert after compaction: weight %d, %d live", c.get(row(5)), c.live)
	}
}
