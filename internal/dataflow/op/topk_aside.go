package op

import (
	"slices"

	"github.com/deltaview/deltaview/internal/value"
)

// withAside returns the changes of partition key for its refill: ch (in
// order, every one of them no later than the partition's last kept row
// before the step) followed by the step's changes of the partition that
// skipBelow set aside (every one after that row), in order.
func (t *TopK) withAside(key value.Row, ch []tkEntry) []tkEntry {
	np, no := len(t.part), len(t.order)
	full := append(t.full[:0], ch...)
	n := len(full)
	for _, r := range t.aside {
		if value.CompareRows(t.arena[r.off:r.off+np], key) == 0 {
			full = append(full, tkEntry{row: r.row, keys: t.arena[r.off+np : r.off+np+no], n: r.w})
		}
	}
	slices.SortFunc(full[n:], func(a, b tkEntry) int { return t.cmp(&a, &b) })
	t.full = full
	return full
}
