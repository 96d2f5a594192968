package op

import "github.com/deltaview/deltaview/internal/zset"

// A join's output comes in the order of the change it probed with: a
// change of t, consolidated (sorted by t's row), joined on a key of u,
// gives one output row per entry, in t's order, and a view leading with
// t's columns is then sorted but for neighbours: a replacement's two rows
// of one id, ordered by t's columns in the change, may be the other way
// round by the view's. consolidated puts such an output in order with a
// comparison an entry, where zset.Consolidate's sort of a batch of 10,000
// cost a fifth of the join's step.

// minNeighbours is the smallest output consolidated sorts first.
const minNeighbours = 64

// consolidated puts z in order in place when it is in order but for
// swapped neighbours, and reports whether z is then consolidated: sorted
// by zset.CompareRows with no equal rows and no zero weights. It stops at
// the first entry out of place by more than one, or at two equal rows,
// and reports false; z is then a permutation of what it was, for
// zset.Consolidate.
func consolidated(z zset.ZSet) bool {
	if len(z) < minNeighbours || z[0].W == 0 {
		return false
	}
	// Each entry's weight is read before any swap moves it.
	for j := 1; j < len(z); j++ {
		if z[j].W == 0 {
			return false
		}
		c := zset.CompareRows(z[j-1].Row, z[j].Row)
		if c < 0 {
			continue
		}
		if c == 0 || j >= 2 && zset.CompareRows(z[j-2].Row, z[j].Row) >= 0 {
			return false
		}
		z[j-1], z[j] = z[j], z[j-1]
	}
	return true
}
